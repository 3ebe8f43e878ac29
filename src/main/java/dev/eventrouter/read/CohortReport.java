package dev.eventrouter.read;

import dev.eventrouter.event.CohortQuery;
import dev.eventrouter.store.CohortReports.Cohort;
import dev.eventrouter.store.SpendReports.Costs;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cohort report's rows and totals (docs/reports.md#cohorts): per cohort, its clicks, their cost and, at each age,
 * the revenue and payers its clicks had brought by then and the return on their cost. An age the cohort's last click
 * day has not reached yet (its day not over, or not rolled up) is null, never a partial number.
 */
final class CohortReport {

  private static final int RATIO_SCALE = 4;

  private CohortReport() {}

  /**
   * @param reached the first day whose conversions are not all in the cohorts yet: an age is reached when the
   *                cohort's last click day plus the age is before it
   */
  static JsonObject of(CohortQuery query, List<Cohort> cohorts, Costs costs, LocalDate reached, boolean cut) {
    Map<List<String>, BigDecimal> cost = costsByCohort(query, costs);
    JsonArray rows = new JsonArray();
    long clicks = 0;
    BigDecimal totalCost = null;
    List<BigDecimal> revenue = new ArrayList<>(query.ages().stream().map(a -> BigDecimal.ZERO).toList());
    List<Long> payers = new ArrayList<>(query.ages().stream().map(a -> 0L).toList());
    for (Cohort cohort : cohorts) {
      BigDecimal rowCost = cost.get(cohort.group());
      JsonObject group = new JsonObject();
      for (int i = 0; i < query.groupBy().size(); i++) {
        group.put(query.groupBy().get(i), cohort.group().get(i));
      }
      rows.add(row(query, group, cohort.clicks(), rowCost, cohort.revenue(), cohort.payers(),
          lastClickDay(query, group), reached));
      clicks += cohort.clicks();
      totalCost = rowCost == null ? totalCost : totalCost == null ? rowCost : totalCost.add(rowCost);
      for (int i = 0; i < query.ages().size(); i++) {
        revenue.set(i, revenue.get(i).add(cohort.revenue().get(i)));
        payers.set(i, payers.get(i) + cohort.payers().get(i));
      }
    }
    return new JsonObject().put("ages", new JsonArray(query.ages())).put("currency", query.funnel().currency())
        .put("rows", rows).put("cut", cut)
        .put("totals", row(query, null, clicks, totalCost, revenue, payers, query.to(), reached));
  }

  private static JsonObject row(CohortQuery query, JsonObject group, long clicks, BigDecimal cost,
                                List<BigDecimal> revenue, List<Long> payers, LocalDate lastClickDay,
                                LocalDate reached) {
    JsonArray ages = new JsonArray();
    for (int i = 0; i < query.ages().size(); i++) {
      int age = query.ages().get(i);
      boolean known = lastClickDay.plusDays(age).isBefore(reached);
      ages.add(new JsonObject().put("age", age)
          .put("revenue", known ? money(revenue.get(i)) : null)
          .put("payers", known ? payers.get(i) : null)
          .put("roas", known && cost != null && cost.signum() != 0
              ? revenue.get(i).divide(cost, RATIO_SCALE, RoundingMode.HALF_UP).doubleValue() : null));
    }
    JsonObject row = group == null ? new JsonObject() : new JsonObject().put("group", group);
    return row.put("clicks", clicks).put("cost", cost == null ? null : money(cost)).put("ages", ages);
  }

  /** A cohort's last click day: its day, the last of its week in the range, else the range's last. */
  static LocalDate lastClickDay(CohortQuery query, JsonObject group) {
    String day = group.getString(CohortQuery.CLICK_DAY);
    if (day != null) {
      return LocalDate.parse(day);
    }
    String week = group.getString(CohortQuery.CLICK_WEEK);
    if (week != null) {
      LocalDate sunday = LocalDate.parse(week).plusDays(6);
      return sunday.isBefore(query.to()) ? sunday : query.to();
    }
    return query.to();
  }

  /** The cost by cohort: the funnel's cost by the same groups, its days folded into weeks for a weekly cohort. */
  private static Map<List<String>, BigDecimal> costsByCohort(CohortQuery query, Costs costs) {
    int week = query.groupBy().indexOf(CohortQuery.CLICK_WEEK);
    if (week < 0) {
      return costs.byGroup();
    }
    Map<List<String>, BigDecimal> byWeek = new HashMap<>();
    costs.byGroup().forEach((key, cost) -> {
      List<String> weekly = new ArrayList<>(key);
      weekly.set(week, LocalDate.parse(key.get(week)).with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY))
          .toString());
      byWeek.merge(List.copyOf(weekly), cost, BigDecimal::add);
    });
    return byWeek;
  }

  private static String money(BigDecimal amount) {
    return amount.setScale(2, RoundingMode.HALF_UP).toPlainString();
  }
}
