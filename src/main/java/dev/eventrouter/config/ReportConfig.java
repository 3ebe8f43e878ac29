package dev.eventrouter.config;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How a workspace's funnel report reads.
 *
 * @param currency        the one currency its revenue is shown in (ISO 4217)
 * @param currencyAliases non-ISO units its senders use, each to the ISO code it stands for ({@code USDT -> USD});
 *                        applied as an event or postback is received, so the networks get the ISO code too
 * @param funnelEvents    the event names after the Telegram steps, in funnel order, for the step rates
 * @param zone            the zone its reports' days are in unless a report names another; the rollups keep whole
 *                        days of it, so a month's report in it reads days, not hours
 * @param reconcile       how its deliveries are reconciled with the networks' own counts
 */
public record ReportConfig(String currency, Map<String, String> currencyAliases, List<String> funnelEvents,
                           ZoneId zone, Reconcile reconcile) {

  public static final ReportConfig DEFAULT = new ReportConfig("USD", Map.of(), List.of("REG", "FTD", "DEP"));

  /** With the default reconciliation table. */
  public ReportConfig(String currency, Map<String, String> currencyAliases, List<String> funnelEvents, ZoneId zone) {
    this(currency, currencyAliases, funnelEvents, zone, Reconcile.DEFAULT);
  }

  /**
   * The reconciliation of a workspace's deliveries with the networks' own counts (docs/reports.md#reconcile).
   *
   * @param threshold the share of what was delivered under which a network's count is marked short
   * @param actions   per network id ({@code meta}, {@code tiktok}), the action type of the network's count that
   *                  events delivered under a mapped name are held against, over the default table
   *                  ({@link dev.eventrouter.event.NetworkActions})
   */
  public record Reconcile(double threshold, Map<String, Map<String, String>> actions) {
    public static final Reconcile DEFAULT = new Reconcile(0.8, Map.of());

    /** The workspace's own table of a network (by its id): mapped name to action type. */
    public Map<String, String> actions(String network) {
      return actions.getOrDefault(network, Map.of());
    }
  }

  /** Days in UTC. */
  public ReportConfig(String currency, Map<String, String> currencyAliases, List<String> funnelEvents) {
    this(currency, currencyAliases, funnelEvents, ZoneOffset.UTC);
  }

  /** The ISO code a sender's unit stands for: an alias (any case), else the text as sent. */
  public String unaliased(String currency) {
    String alias = currencyAliases.get(currency.toUpperCase(Locale.ROOT));
    return alias == null ? currency : alias;
  }
}
