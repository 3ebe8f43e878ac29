package dev.eventrouter.store;

import dev.eventrouter.event.FunnelQuery;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The clicks a report's cost is spread over ({@link SpendReports}): by spend zone and day, object and report group,
 * from the rollups. Spend dated in the zone of the workspace's day rollups meets the clicks of the day rows, with the
 * hours of those days that fall on another day of the report's zone moved whole; spend of another zone meets the
 * hourly clicks, whose days in that zone are worked out hour by hour. Only the branches some spend can meet are in
 * the statement, so the planner sizes it for the rows it reads (with an unread branch it planned for a million rows
 * and sorted where it could hash).
 */
final class CostClicks {

  /** The days around a range whose spend may fall on the range's clicks: a zone is at most 14 hours from UTC. */
  private static final int EDGE_DAYS = 2;

  /** One branch: its spend day and zone, the dimensions read, its count, whether in range and its report day. */
  private static final String BRANCH = """
      SELECT %s AS sday, %s::text AS zone, campaign_id, adset_id, ad_id, %s %s AS n, %s AS in_range, %s AS rday
        FROM %s WHERE workspace_id = $1 AND %s""";

  /** The rollup rows of clicks, among their other steps. */
  private static final String CLICK = "step = '$click' AND ";

  /** The branches summed by spend zone and day, object and group (%2$s, each followed by a comma). */
  private static final String CLICKS = """
      SELECT zone, sday, campaign_id, adset_id, ad_id, %2$s sum(n) AS n,
             sum(n) FILTER (WHERE in_range %3$s) AS charged
        FROM (%1$s) c GROUP BY %2$s zone, sday, campaign_id, adset_id, ad_id LIMIT $2""";

  /**
   * The one branch as it is, when its rows are already one per spend zone, day and ad (the clicks by ids alone,
   * grouped by ids and days): adding them up again cost a 90-day report a third of its time for nothing.
   */
  private static final String AD_CLICKS = """
      SELECT zone, sday, campaign_id, adset_id, ad_id, %2$s n, CASE WHEN in_range %3$s THEN n END AS charged
        FROM (%1$s) c LIMIT $2""";

  private final FunnelQuery query;
  private final List<Object> params = new ArrayList<>();

  private CostClicks(FunnelQuery query) {
    this.query = query;
  }

  /** The first day of any zone the spend of a report's range may be dated on. */
  static LocalDate firstSpendDay(FunnelQuery query) {
    return LocalDate.ofInstant(query.from(), ZoneOffset.UTC).minusDays(EDGE_DAYS);
  }

  /** The last day of any zone the spend of a report's range may be dated on. */
  static LocalDate lastSpendDay(FunnelQuery query) {
    return LocalDate.ofInstant(query.to(), ZoneOffset.UTC).plusDays(EDGE_DAYS);
  }

  /**
   * The click rows, at most {@code limit}: those of the day rows when they are in the zone {@code dayRowsZone} names
   * (the workspace's day zone; null before its first round), and the hours for each other zone of {@code spendZones}.
   */
  static Future<List<CostSpread.Clicks>> read(SqlConnection conn, FunnelQuery query, String dayRowsZone,
                                              List<String> spendZones, int limit) {
    return new CostClicks(query).read(conn, dayRowsZone, spendZones, limit);
  }

  private Future<List<CostSpread.Clicks>> read(SqlConnection conn, String dayRowsZone, List<String> spendZones,
                                               int limit) {
    param(query.workspaceId());
    param(limit);
    List<String> read = FunnelQuery.DIMENSIONS.stream().filter(d -> !FunnelQuery.CLICK_IDS.contains(d)
        && (query.groupBy().contains(d) || query.filters().containsKey(d))).toList();
    String dims = read.stream().map(d -> d + ", ").reduce("", String::concat);
    // The day rows serve when they are made (in the workspace's day zone), and the hours of their days that are
    // another day in the report's zone can be moved whole.
    List<OffsetDateTime> moved = movedHours(query);
    boolean dayRows = query.dayZone().getId().equals(dayRowsZone) && moved != null;
    // With nothing but ids and days to group and filter by, the clicks by ids alone serve (a row per ad and day).
    boolean byIds = read.isEmpty();
    String dayZone = dayRows ? SpendStore.pgZone(query.dayZone().getId()) : null;
    List<String> hourZones = spendZones.stream().filter(zone -> !zone.equals(dayZone)).toList();
    List<String> branches = new ArrayList<>();
    if (!hourZones.isEmpty()) {
      String reportZone = param(query.zone().getId()) + "::text";
      String from = param(query.from().atOffset(ZoneOffset.UTC));
      String to = param(query.to().atOffset(ZoneOffset.UTC));
      branches.add(BRANCH.formatted("(hour AT TIME ZONE z.zone)::date", "z.zone", dims, "n",
          "hour >= " + from + " AND hour < " + to, "(hour AT TIME ZONE " + reportZone + ")::date",
          "funnel_rollup CROSS JOIN unnest(" + param(hourZones.toArray(String[]::new)) + "::text[]) AS z(zone)",
          CLICK + "hour >= " + param(query.from().minus(Duration.ofDays(EDGE_DAYS + 1L)).atOffset(ZoneOffset.UTC))
              + " AND hour < " + param(query.to().plus(Duration.ofDays(EDGE_DAYS + 1L)).atOffset(ZoneOffset.UTC))));
    }
    if (dayRows) {
      String zone = param(dayZone);
      String first = param(LocalDate.ofInstant(query.from(), query.zone()));
      String end = param(LocalDate.ofInstant(query.to(), query.zone()));
      branches.add(BRANCH.formatted("day", zone, dims, "n", "day >= " + first + " AND day < " + end, "day",
          byIds ? AdClicks.TABLE : "funnel_rollup_day", (byIds ? "" : CLICK) + "day BETWEEN "
              + param(firstSpendDay(query)) + " AND " + param(lastSpendDay(query))));
      if (!moved.isEmpty()) {
        // Each moved hour leaves its day in the day rows' zone and joins its day in the report's (both worked out
        // here: a zone's rules per row cost PostgreSQL more than reading the row).
        String hours = param(moved.toArray(OffsetDateTime[]::new));
        String from = param(moved.stream().map(h -> LocalDate.ofInstant(h.toInstant(), query.dayZone()))
            .toArray(LocalDate[]::new));
        String into = param(moved.stream().map(h -> LocalDate.ofInstant(h.toInstant(), query.zone()))
            .toArray(LocalDate[]::new));
        branches.add(BRANCH.formatted("mv.sday", zone, dims, "m.sign * n",
            "m.day >= " + first + " AND m.day < " + end, "m.day",
            "unnest(" + hours + "::timestamptz[], " + from + "::date[], " + into + "::date[]) AS mv(hour, sday, rday)"
                + " CROSS JOIN funnel_rollup f"
                + " CROSS JOIN LATERAL (VALUES (-1, mv.sday), (1, mv.rday)) AS m(sign, day)",
            CLICK + "f.hour = mv.hour"));
      }
    }
    if (branches.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    StringBuilder where = new StringBuilder();
    for (Map.Entry<String, List<String>> filter : query.filters().entrySet()) {
      String column = FunnelQuery.DAY.equals(filter.getKey()) ? "to_char(rday, 'YYYY-MM-DD')"
          : column(filter.getKey());
      where.append(" AND ").append(column).append(" = ANY(")
          .append(param(filter.getValue().toArray(String[]::new))).append("::text[])");
    }
    List<String> groups = query.groupBy().stream().map(g -> FunnelQuery.DAY.equals(g) ? "rday" : column(g))
        .toList();
    String selected = groups.stream().map(g -> g + ", ").reduce("", String::concat);
    String sql = (byIds && branches.size() == 1 && dayRows ? AD_CLICKS : CLICKS)
        .formatted(String.join("\nUNION ALL\n", branches), selected, where);
    return conn.preparedQuery(sql).execute(Tuple.from(params)).map(rows -> {
      List<CostSpread.Clicks> clicks = new ArrayList<>(rows.size());
      for (Row row : rows) {
        List<String> group = new ArrayList<>(groups.size());
        for (int i = 0; i < groups.size(); i++) {
          group.add(String.valueOf(row.getValue(5 + i))); // a text, or a day: a LocalDate, read as 2026-11-26
        }
        clicks.add(new CostSpread.Clicks(row.getString("zone"), row.getLocalDate("sday"),
            row.getString("campaign_id"), row.getString("adset_id"), row.getString("ad_id"), List.copyOf(group),
            row.getLong("n"), row.getLong("charged")));
      }
      return clicks;
    });
  }

  /** Binds a value: its placeholder. */
  private String param(Object value) {
    return FunnelLayers.bind(params, value);
  }

  /**
   * The hours of the day rows' days (from two days before the range to two after) that fall on another day in the
   * report's zone: none when the zones are the same; null when some hour would fall on two days (zones apart by a
   * part of an hour), so the hours must be read instead.
   */
  static List<OffsetDateTime> movedHours(FunnelQuery query) {
    ZoneId days = query.dayZone();
    ZoneId report = query.zone();
    List<OffsetDateTime> moved = new ArrayList<>();
    if (days.normalized().equals(report.normalized())) {
      return moved;
    }
    LocalDate last = lastSpendDay(query);
    for (LocalDate day = firstSpendDay(query);
         !day.isAfter(last); day = day.plusDays(1)) {
      Instant end = day.plusDays(1).atStartOfDay(days).toInstant();
      for (Instant hour = day.atStartOfDay(days).toInstant(); hour.isBefore(end); hour = hour.plusSeconds(3600)) {
        if (hour.getEpochSecond() % 3600 != 0
            || !LocalDate.ofInstant(hour, report).equals(LocalDate.ofInstant(hour.plusSeconds(3599), report))) {
          return null;
        }
        if (!LocalDate.ofInstant(hour, report).equals(day)) {
          moved.add(hour.atOffset(ZoneOffset.UTC));
        }
      }
    }
    return moved;
  }

  static String column(String dimension) {
    if (!FunnelQuery.DIMENSIONS.contains(dimension)) {
      throw new IllegalArgumentException("not a dimension: " + dimension);
    }
    return dimension;
  }
}
