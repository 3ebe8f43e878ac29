package dev.eventrouter.event;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A cohort report asked for (docs/reports.md#cohorts): the clicks of the funnel query's days, grouped by up to two
 * of its dimensions and by their click day or week, each cohort's revenue and payers read at each of the ages (days
 * since the click). The funnel query (its groups: the cohorts', a click day or week read as the day) prices the
 * clicks.
 */
public record CohortQuery(FunnelQuery funnel, List<String> groupBy, List<Integer> ages) {

  public static final String CLICK_DAY = "click_day";
  /** A cohort of the clicks of a week, Monday to Sunday. */
  public static final String CLICK_WEEK = "click_week";

  public UUID workspaceId() {
    return funnel.workspaceId();
  }

  /** The first click day. */
  public LocalDate from() {
    return LocalDate.ofInstant(funnel.from(), funnel.zone());
  }

  /** The last click day. */
  public LocalDate to() {
    return LocalDate.ofInstant(funnel.to(), funnel.zone()).minusDays(1);
  }

  public Map<String, List<String>> filters() {
    return funnel.filters();
  }

  /** The funnel groups that price a cohort: its own, with a click day or week as the day. */
  public static List<String> costGroups(List<String> groupBy) {
    return groupBy.stream().map(g -> CLICK_DAY.equals(g) || CLICK_WEEK.equals(g) ? FunnelQuery.DAY : g).toList();
  }

  public JsonObject toJson() {
    return new JsonObject().put("funnel", funnel.toJson()).put("group_by", new JsonArray(groupBy))
        .put("ages", new JsonArray(ages));
  }

  public static CohortQuery fromJson(JsonObject json) {
    List<String> groupBy = new ArrayList<>();
    json.getJsonArray("group_by").forEach(g -> groupBy.add((String) g));
    List<Integer> ages = new ArrayList<>();
    json.getJsonArray("ages").forEach(a -> ages.add(((Number) a).intValue()));
    return new CohortQuery(FunnelQuery.fromJson(json.getJsonObject("funnel")), List.copyOf(groupBy),
        List.copyOf(ages));
  }
}
