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
 */
public record ReportConfig(String currency, Map<String, String> currencyAliases, List<String> funnelEvents,
                           ZoneId zone) {

  public static final ReportConfig DEFAULT = new ReportConfig("USD", Map.of(), List.of("REG", "FTD", "DEP"));

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
