package dev.eventrouter.read;

import dev.eventrouter.store.SpendReports.Costs;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * The cost fields of a funnel report's rows and totals (docs/costs.md): the spend charged to the row's clicks, the
 * cost of each step and of each funnel event's user, return on ad spend, profit and return on investment. All are
 * null where no spend was charged (cost unknown is not cost 0), and a ratio is null where its divisor is 0.
 */
final class CostFields {

  /** Per-unit costs (a click may cost a cent or less) and ratios are kept to 4 places. */
  private static final int RATIO_SCALE = 4;

  private CostFields() {}

  /**
   * Adds the cost fields to every row (by its group's values, in group-by order) and to the totals. A cost cut (too
   * many clicks to spread it over) leaves them all null, and the totals say so.
   */
  static void add(JsonObject report, List<String> groupBy, Costs costs) {
    BigDecimal total = null;
    for (BigDecimal cost : costs.byGroup().values()) {
      total = total == null ? cost : total.add(cost);
    }
    for (Object item : report.getJsonArray("rows")) {
      JsonObject row = (JsonObject) item;
      JsonObject group = row.getJsonObject("group");
      List<String> key = groupBy.stream().map(group::getString).toList();
      fields(row, costs.byGroup().get(key));
    }
    JsonObject totals = report.getJsonObject("totals");
    fields(totals, total);
    totals.put("spend_unmatched", costs.cut() ? null : money(costs.unmatched()))
        .put("spend_without_rate", new JsonArray(List.copyOf(costs.noRate())))
        .put("cost_cut", costs.cut());
  }

  static void fields(JsonObject row, BigDecimal cost) {
    BigDecimal revenue = new BigDecimal(row.getString("revenue"));
    JsonObject perEvent = new JsonObject();
    JsonObject events = row.getJsonObject("events");
    for (String name : events.fieldNames()) {
      perEvent.put(name, per(cost, events.getJsonObject(name).getLong("users")));
    }
    BigDecimal profit = cost == null ? null : revenue.subtract(cost);
    row.put("cost", cost == null ? null : money(cost))
        .put("cost_per_click", per(cost, row.getLong("clicks")))
        .put("cost_per_start", per(cost, row.getLong("starts")))
        .put("cost_per_join", per(cost, row.getLong("joins")))
        .put("cost_per_remaining_subscriber", per(cost, row.getLong("remaining_subscribers")))
        .put("cost_per", perEvent)
        .put("roas", ratio(revenue, cost))
        .put("profit", profit == null ? null : money(profit))
        .put("roi", ratio(profit, cost));
  }

  /** The cost of one unit, or null when the cost is unknown or there were none. */
  private static String per(BigDecimal cost, long units) {
    return cost == null || units == 0 ? null
        : cost.divide(BigDecimal.valueOf(units), RATIO_SCALE, RoundingMode.HALF_UP).toPlainString();
  }

  private static Double ratio(BigDecimal part, BigDecimal whole) {
    return part == null || whole == null || whole.signum() == 0 ? null
        : part.divide(whole, RATIO_SCALE, RoundingMode.HALF_UP).doubleValue();
  }

  private static String money(BigDecimal amount) {
    return amount.setScale(2, RoundingMode.HALF_UP).toPlainString();
  }
}
