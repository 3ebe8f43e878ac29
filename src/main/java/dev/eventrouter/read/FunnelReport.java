package dev.eventrouter.read;

import dev.eventrouter.event.FunnelQuery;
import dev.eventrouter.store.FunnelReports.Sums;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rows of a funnel report, made from the rollups' sums: the Telegram steps, each event's count, unique users,
 * revenue and statuses, the subscribers left, and the rate of each step from the one before it.
 */
final class FunnelReport {

  /** The Telegram steps: their rollup names and the fields they are shown as, in funnel order. */
  static final Map<String, String> STEPS = steps();
  static final String UNSUBSCRIBE = "$unsubscribe";
  /** Groups shown at most: a report of more is cut, and says so. */
  static final int MAX_GROUPS = 1000;

  private FunnelReport() {}

  private static Map<String, String> steps() {
    Map<String, String> steps = new LinkedHashMap<>();
    steps.put("$click", "clicks");
    steps.put("$start", "starts");
    steps.put("$join_request", "join_requests");
    steps.put("$join", "joins");
    return steps;
  }

  /**
   * The report: a row per group (in the order the sums came), the totals, and whether groups were left out.
   *
   * @param sums   the sums by group and step, ordered by group
   * @param totals the sums by step alone
   */
  static JsonObject of(FunnelQuery query, List<Sums> sums, List<Sums> totals, boolean cut) {
    JsonObject total = row(Map.of(), totals, query.funnelEvents());
    List<String> funnel = funnel(total, query.funnelEvents());
    rates(total, funnel);
    List<JsonObject> rows = new ArrayList<>();
    Map<List<String>, List<Sums>> groups = new LinkedHashMap<>();
    sums.forEach(s -> groups.computeIfAbsent(s.group(), g -> new ArrayList<>()).add(s));
    boolean truncated = cut;
    for (Map.Entry<List<String>, List<Sums>> group : groups.entrySet()) {
      if (rows.size() == MAX_GROUPS) {
        truncated = true;
        break;
      }
      Map<String, String> named = new LinkedHashMap<>();
      for (int i = 0; i < query.groupBy().size(); i++) {
        named.put(query.groupBy().get(i), group.getKey().get(i));
      }
      JsonObject row = row(named, group.getValue(), query.funnelEvents());
      rates(row, funnel);
      rows.add(row);
    }
    return new JsonObject().put("currency", query.currency()).put("rows", rows).put("totals", total)
        .put("truncated", truncated);
  }

  /** The sums of every group, by step alone (in step order): what the rollups give when not grouped. */
  static List<Sums> totals(List<Sums> sums) {
    Map<String, Sums> byStep = new TreeMap<>();
    for (Sums s : sums) {
      byStep.merge(s.step(), new Sums(List.of(), s.step(), s.n(), s.users(), s.revenue(), s.unconverted(),
          s.pending(), s.approved(), s.rejected(), s.chargeback()), FunnelReport::add);
    }
    return byStep.values().stream().filter(s -> s.n() != 0 || s.users() != 0 || s.revenue().signum() != 0
        || s.unconverted() != 0 || s.pending() != 0 || s.approved() != 0 || s.rejected() != 0
        || s.chargeback() != 0).toList();
  }

  private static Sums add(Sums a, Sums b) {
    return new Sums(a.group(), a.step(), a.n() + b.n(), a.users() + b.users(), a.revenue().add(b.revenue()),
        a.unconverted() + b.unconverted(), a.pending() + b.pending(), a.approved() + b.approved(),
        a.rejected() + b.rejected(), a.chargeback() + b.chargeback());
  }

  /** One group's counts. */
  private static JsonObject row(Map<String, String> group, List<Sums> sums, List<String> funnelEvents) {
    JsonObject row = new JsonObject().put("group", new JsonObject(new LinkedHashMap<>(group)));
    STEPS.values().forEach(field -> row.put(field, 0L));
    long unsubscribes = 0;
    BigDecimal revenue = BigDecimal.ZERO;
    Map<String, JsonObject> events = new LinkedHashMap<>();
    funnelEvents.forEach(name -> events.put(name, event(null)));
    for (Sums s : sums) {
      if (STEPS.containsKey(s.step())) {
        row.put(STEPS.get(s.step()), s.n());
      } else if (UNSUBSCRIBE.equals(s.step())) {
        unsubscribes = s.n();
      } else {
        events.put(s.step(), event(s));
        revenue = revenue.add(s.revenue());
      }
    }
    long joins = row.getLong("joins");
    return row.put("unsubscribes", unsubscribes).put("remaining_subscribers", Math.max(0, joins - unsubscribes))
        .put("revenue", money(revenue)).put("events", new JsonObject(new LinkedHashMap<>(events)));
  }

  private static JsonObject event(Sums s) {
    JsonObject statuses = new JsonObject();
    statuses.put("pending", s == null ? 0 : s.pending()).put("approved", s == null ? 0 : s.approved())
        .put("rejected", s == null ? 0 : s.rejected()).put("chargeback", s == null ? 0 : s.chargeback());
    return new JsonObject().put("count", s == null ? 0 : s.n()).put("users", s == null ? 0 : s.users())
        .put("revenue", money(s == null ? BigDecimal.ZERO : s.revenue()))
        .put("unconverted", s == null ? 0 : s.unconverted()).put("statuses", statuses);
  }

  /**
   * The funnel's steps: the Telegram steps and the workspace's funnel events, leaving out those the whole report
   * has none of (a bot without a channel has no joins), so every row's rates have the same names.
   */
  private static List<String> funnel(JsonObject total, List<String> funnelEvents) {
    List<String> steps = new ArrayList<>();
    STEPS.values().stream().filter(field -> total.getLong(field) > 0).forEach(steps::add);
    funnelEvents.stream().filter(name -> count(total, name) > 0).forEach(steps::add);
    return steps;
  }

  /** Each step's rate from the one before it, each event's from clicks, and unsubscribes per join. */
  private static void rates(JsonObject row, List<String> funnel) {
    JsonObject rates = new JsonObject();
    for (int i = 1; i < funnel.size(); i++) {
      rates.put(funnel.get(i - 1) + "_to_" + funnel.get(i), rate(count(row, funnel.get(i)), count(row,
          funnel.get(i - 1))));
    }
    for (String step : funnel) {
      if (!STEPS.containsValue(step) && funnel.contains("clicks")) {
        rates.put("clicks_to_" + step, rate(count(row, step), row.getLong("clicks")));
      }
    }
    rates.put("unsubscribe_rate", rate(row.getLong("unsubscribes"), row.getLong("joins")));
    row.put("rates", rates);
  }

  /** A step's count: a Telegram step's field, or an event's count. */
  private static long count(JsonObject row, String step) {
    if (STEPS.containsValue(step)) {
      return row.getLong(step);
    }
    JsonObject event = row.getJsonObject("events").getJsonObject(step);
    return event == null ? 0 : event.getLong("count");
  }

  /** A share to 4 places, or null when there was nothing to take it of. */
  private static Double rate(long part, long whole) {
    return whole == 0 ? null
        : BigDecimal.valueOf(part).divide(BigDecimal.valueOf(whole), 4, RoundingMode.HALF_UP).doubleValue();
  }

  private static String money(BigDecimal amount) {
    return amount.setScale(2, RoundingMode.HALF_UP).toPlainString();
  }
}
