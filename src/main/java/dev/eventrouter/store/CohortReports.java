package dev.eventrouter.store;

import dev.eventrouter.event.CohortQuery;
import dev.eventrouter.event.FunnelQuery;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.math.BigDecimal;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SQL of the cohort report (docs/reports.md#cohorts): per group, the clicks of its click days (the funnel's day
 * rollups) and, for each age asked for, the revenue and the payers those clicks had brought by then (the cohort
 * rollups, summed over the ages up to it), in one read-only snapshot with the cohorts' reach.
 */
public final class CohortReports {

  /**
   * $1 workspace, $2 and $3 the click days; %1$s the groups (each named g1, g2, followed by a comma), %2$s the sums
   * by age, %3$s the filters, %4$d the oldest age asked for, %5$s the groups' names, %6$s the layer read. Each
   * group's ages are summed first, so the sums up to each age asked for add up a few hundred rows rather than every
   * dimension's.
   */
  private static final String COHORTS = """
      SELECT %5$s, %2$s FROM (
          SELECT %1$s age, sum(revenue) AS revenue, sum(payers) AS payers FROM %6$s
           WHERE workspace_id = $1 AND click_day BETWEEN $2 AND $3 AND age <= %4$d %3$s
           GROUP BY %5$s, age) c
       GROUP BY %5$s""";

  private static final String CLICKS = """
      SELECT %1$s sum(n) AS clicks FROM %2$s
       WHERE workspace_id = $1 AND day BETWEEN $2 AND $3 %3$s
       GROUP BY %1$s 1""";

  /** A group's cohort: its clicks, and the revenue and payers by each age asked for (cumulative). */
  public record Cohort(List<String> group, long clicks, List<BigDecimal> revenue, List<Long> payers) {}

  /** The cohorts and the instant their rollups reach. */
  public record Cohorts(List<Cohort> rows, OffsetDateTime rolledUpTo) {}

  private final Pool readPool;

  public CohortReports(Pool readPool) {
    this.readPool = readPool;
  }

  public Future<Cohorts> cohorts(CohortQuery query, int limit) {
    return readPool.withTransaction(conn -> conn.query(FunnelReports.SNAPSHOT).execute()
        .compose(v -> conn.preparedQuery(FunnelReports.READ_SETTINGS).execute(Tuple.of(query.workspaceId())))
        .compose(v -> conn.query(CohortRollups.READ_CURSOR).execute())
        .compose(cursor -> read(conn, query, limit)
            .map(rows -> new Cohorts(rows, cursor.iterator().next().getOffsetDateTime("upto")))));
  }

  private static Future<List<Cohort>> read(SqlConnection conn, CohortQuery query, int limit) {
    List<Object> params = new ArrayList<>(List.of(query.workspaceId(), query.from(), query.to()));
    StringBuilder where = new StringBuilder();
    for (Map.Entry<String, List<String>> filter : query.filters().entrySet()) {
      where.append(" AND ").append(CostClicks.column(filter.getKey())).append(" = ANY(")
          .append(FunnelLayers.bind(params, filter.getValue().toArray(String[]::new))).append("::text[])");
    }
    // The ages are numbers the API checked (0 to 365), written into the SQL as such.
    List<String> sums = new ArrayList<>();
    for (int age : query.ages()) {
      sums.add("sum(revenue) FILTER (WHERE age <= " + age + ")");
      sums.add("sum(payers) FILTER (WHERE age <= " + age + ")");
    }
    String order = String.join(", ", java.util.stream.IntStream.rangeClosed(1, query.groupBy().size())
        .mapToObj(String::valueOf).toList());
    String names = String.join(", ", java.util.stream.IntStream.rangeClosed(1, query.groupBy().size())
        .mapToObj(i -> "g" + i).toList());
    List<Object> cohortParams = new ArrayList<>(params);
    String cohortSql = COHORTS.formatted(groups(query, "click_day", true), String.join(", ", sums), where,
        query.ages().stream().mapToInt(Integer::intValue).max().orElse(0), names, layer(query, cohortParams))
        + " ORDER BY " + order + " LIMIT " + (limit + 1);
    boolean byIds = byIds(query);
    String clickSql = CLICKS.formatted(groups(query, "day", false), byIds ? AdClicks.TABLE : "funnel_rollup_day",
        where + (byIds ? "" : " AND step = '$click'"));
    Tuple tuple = Tuple.from(params);
    return conn.preparedQuery(clickSql).execute(tuple).compose(clickRows -> {
      Map<List<String>, Long> clicks = new LinkedHashMap<>();
      for (Row row : clickRows) {
        clicks.put(group(row, query.groupBy().size()), row.getLong("clicks"));
      }
      return conn.preparedQuery(cohortSql).execute(Tuple.from(cohortParams)).map(rows -> {
        Map<List<String>, Cohort> cohorts = new LinkedHashMap<>();
        int groupCount = query.groupBy().size();
        for (Row row : rows) {
          List<String> group = group(row, groupCount);
          List<BigDecimal> revenue = new ArrayList<>();
          List<Long> payers = new ArrayList<>();
          for (int i = 0; i < query.ages().size(); i++) {
            BigDecimal r = row.getBigDecimal(groupCount + 2 * i);
            Long p = row.getLong(groupCount + 2 * i + 1);
            revenue.add(r == null ? BigDecimal.ZERO : r);
            payers.add(p == null ? 0L : p);
          }
          cohorts.put(group, new Cohort(group, clicks.getOrDefault(group, 0L), revenue, payers));
        }
        // Groups with clicks and no revenue yet are cohorts too.
        List<BigDecimal> none = query.ages().stream().map(a -> BigDecimal.ZERO).toList();
        List<Long> nobody = query.ages().stream().map(a -> 0L).toList();
        clicks.forEach((group, n) -> cohorts.putIfAbsent(group, new Cohort(group, n, none, nobody)));
        List<Cohort> sorted = new ArrayList<>(cohorts.values());
        sorted.sort((a, b) -> compare(a.group(), b.group()));
        return sorted;
      });
    });
  }

  /**
   * The group-by list as SQL over a table whose day column is {@code day}, each followed by a comma; {@code named}:
   * each as g1, g2.
   */
  private static String groups(CohortQuery query, String day, boolean named) {
    StringBuilder sql = new StringBuilder();
    int n = 0;
    for (String group : query.groupBy()) {
      n++;
      String column = switch (group) {
        case CohortQuery.CLICK_DAY -> day + "::text";
        case CohortQuery.CLICK_WEEK -> "date_trunc('week', " + day + ")::date::text";
        default -> CostClicks.column(group);
      };
      sql.append(column).append(named ? " AS g" + n : "").append(", ");
    }
    return sql.toString();
  }

  /**
   * The cohorts' layer a report reads: by the click's ids alone when it groups and filters by nothing else (the rows
   * of the ads, not of every utm value, placement and country beside them), else by every dimension.
   */
  static String layer(CohortQuery query) {
    return byIds(query) ? "funnel_cohort_ads" : "funnel_cohort";
  }

  /**
   * The layer as read, its bounds added to {@code params}: by ids, the whole weeks of the range (when it is not
   * grouped by day) from the weeks' rows, a row per ad, week and age rather than seven, and its days before and
   * after them from the days' rows.
   */
  private static String layer(CohortQuery query, List<Object> params) {
    LocalDate firstWeek = query.from().with(TemporalAdjusters.nextOrSame(DayOfWeek.MONDAY));
    LocalDate lastWeek = query.to().minusDays(6).with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
    if (!byIds(query) || query.groupBy().contains(CohortQuery.CLICK_DAY) || firstWeek.isAfter(lastWeek)) {
      return layer(query);
    }
    String before = FunnelLayers.bind(params, firstWeek.minusDays(1));
    String after = FunnelLayers.bind(params, lastWeek.plusDays(7));
    String first = FunnelLayers.bind(params, firstWeek);
    String last = FunnelLayers.bind(params, lastWeek);
    return """
        (SELECT workspace_id, click_day, age, campaign_id, adset_id, ad_id, revenue, payers FROM funnel_cohort_ads
          WHERE workspace_id = $1 AND (click_day BETWEEN $2 AND %s OR click_day BETWEEN %s AND $3)
         UNION ALL
         SELECT workspace_id, click_week, age, campaign_id, adset_id, ad_id, revenue, payers
           FROM funnel_cohort_ad_weeks WHERE workspace_id = $1 AND click_week BETWEEN %s AND %s) AS ads"""
        .formatted(before, after, first, last);
  }

  /** Whether a report groups and filters by the click's ids and days alone: the layers by ids serve it. */
  private static boolean byIds(CohortQuery query) {
    return query.groupBy().stream().allMatch(g -> FunnelQuery.CLICK_IDS.contains(g)
        || CohortQuery.CLICK_DAY.equals(g) || CohortQuery.CLICK_WEEK.equals(g))
        && FunnelQuery.CLICK_IDS.containsAll(query.filters().keySet());
  }

  /** By the first group value, then the next. */
  private static int compare(List<String> a, List<String> b) {
    for (int i = 0; i < a.size(); i++) {
      int order = a.get(i).compareTo(b.get(i));
      if (order != 0) {
        return order;
      }
    }
    return 0;
  }

  private static List<String> group(Row row, int count) {
    List<String> group = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      group.add(row.getString(i));
    }
    return List.copyOf(group);
  }
}
