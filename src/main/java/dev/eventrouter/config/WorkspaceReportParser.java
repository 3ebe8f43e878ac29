package dev.eventrouter.config;

import dev.eventrouter.common.CurrencyCode;
import io.vertx.core.json.JsonObject;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static dev.eventrouter.config.WorkspaceParser.EVENT_NAME;

/**
 * A workspace's report settings: {@code report_currency}, {@code currency_aliases}, {@code funnel_events},
 * {@code report_timezone} and {@code reconcile_actions}.
 */
final class WorkspaceReportParser {

  /** A network's name for one of its own counts: Meta's action types, TikTok's metrics. */
  private static final Pattern ACTION_TYPE = Pattern.compile("[a-z0-9_.]{1,100}");
  /** A sender's unit that is not an ISO code: USDT, USDC, a casino's own. */
  private static final Pattern CURRENCY_UNIT = Pattern.compile("[A-Za-z0-9]{2,10}");

  private final JsonReader r;

  WorkspaceReportParser(JsonReader reader) {
    this.r = reader;
  }

  /** The report's currency, the senders' currency aliases and the funnel's event names. */
  ReportConfig report(JsonObject json, String path) {
    String currency = CurrencyCode.iso(r.string(json, "report_currency", path + ".report_currency",
        ReportConfig.DEFAULT.currency()));
    if (currency == null) {
      r.problem(path + ".report_currency: must be a 3-letter ISO 4217 code such as USD");
    }
    Map<String, String> aliases = new LinkedHashMap<>();
    JsonObject aliasJson = r.object(json, "currency_aliases", path + ".currency_aliases");
    for (String unit : aliasJson.fieldNames()) {
      String iso = aliasJson.getValue(unit) instanceof String text ? CurrencyCode.iso(text) : null;
      if (!CURRENCY_UNIT.matcher(unit).matches() || iso == null) {
        r.problem(path + ".currency_aliases." + unit + ": must map a unit of 2 to 10 letters or digits to a 3-letter"
            + " ISO 4217 code, such as \"USDT\": \"USD\"");
      } else {
        aliases.put(unit.toUpperCase(Locale.ROOT), iso);
      }
    }
    Set<String> funnel = r.strings(json, "funnel_events", path + ".funnel_events", EVENT_NAME,
        "an event name of 1 to 50 letters, digits, spaces, _ or -");
    String zoneName = r.string(json, "report_timezone", path + ".report_timezone", "UTC");
    ZoneId zone = ReportZone.configured(zoneName);
    if (zone == null) {
      r.problem(path + ".report_timezone: " + ReportZone.RULE);
      zone = ZoneOffset.UTC;
    }
    return new ReportConfig(currency == null ? ReportConfig.DEFAULT.currency() : currency, Map.copyOf(aliases),
        funnel == null ? ReportConfig.DEFAULT.funnelEvents() : List.copyOf(funnel), zone,
        reconcile(r.object(json, "reconcile", path + ".reconcile"), path + ".reconcile"));
  }

  /** {@code {"threshold": 0.8, "actions": {"meta": {...}, "tiktok": {...}}}}, each part optional. */
  private ReportConfig.Reconcile reconcile(JsonObject json, String path) {
    r.unknownKeys(json, path, Set.of("threshold", "actions"));
    ReportConfig.Reconcile d = ReportConfig.Reconcile.DEFAULT;
    double threshold = r.number(json, "threshold", path + ".threshold", d.threshold());
    if (threshold > 1) {
      r.problem(path + ".threshold: must be a share above 0 and at most 1, such as 0.8");
      threshold = d.threshold();
    }
    return new ReportConfig.Reconcile(threshold, actions(r.object(json, "actions", path + ".actions"),
        path + ".actions"));
  }

  /** Per network ({@code meta}, {@code tiktok}): a mapped event name to the action type its count is read from. */
  private Map<String, Map<String, String>> actions(JsonObject json, String path) {
    Map<String, Map<String, String>> actions = new LinkedHashMap<>();
    for (String network : json.fieldNames()) {
      Object table = json.getValue(network);
      if (!List.of("meta", "tiktok").contains(network) || !(table instanceof JsonObject events)) {
        r.problem(path + "." + network + ": must be meta or tiktok, each an object of mapped event names to action "
            + "types");
        continue;
      }
      Map<String, String> types = new LinkedHashMap<>();
      for (String event : events.fieldNames()) {
        Object type = events.getValue(event);
        if (!EVENT_NAME.matcher(event).matches() || !(type instanceof String text)
            || !ACTION_TYPE.matcher(text).matches()) {
          r.problem(path + "." + network + "." + event + ": must map an event name to an action type of 1 to 100 "
              + "lowercase letters, digits, _ or ., such as \"offsite_conversion.fb_pixel_purchase\"");
        } else {
          types.put(event, text);
        }
      }
      actions.put(network, Map.copyOf(types));
    }
    return Map.copyOf(actions);
  }
}
