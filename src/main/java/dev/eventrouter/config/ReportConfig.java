package dev.eventrouter.config;

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
 */
public record ReportConfig(String currency, Map<String, String> currencyAliases, List<String> funnelEvents) {

  public static final ReportConfig DEFAULT = new ReportConfig("USD", Map.of(), List.of("REG", "FTD", "DEP"));

  /** The ISO code a sender's unit stands for: an alias (any case), else the text as sent. */
  public String unaliased(String currency) {
    String alias = currencyAliases.get(currency.toUpperCase(Locale.ROOT));
    return alias == null ? currency : alias;
  }
}
