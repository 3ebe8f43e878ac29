package dev.eventrouter.store;

import dev.eventrouter.event.FunnelQuery;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SQL of the funnel report's cost (docs/costs.md). A day's spend of a campaign, ad set or ad, in its account's zone,
 * is spread over the clicks that name it whose hour falls on that day in that zone: a click is charged by its ad's
 * spend, else its ad set's, else its campaign's. A report's group gets the share of its clicks in the range, so
 * grouping by an id gives that object's spend whole, and grouping by what spend cannot be split by (a bot, a
 * channel, utm values, a country) spreads it over the group's clicks of each object (Voluum's rule). Spend in
 * another currency is converted by its day's rate, as revenue is.
 *
 * <p>Spend dated in the zone of the workspace's day rollups (its report zone, usually the ad account's too) meets
 * the clicks of the day rows; spend of another zone meets the hourly clicks, whose days in that zone are worked out
 * hour by hour. The clicks are read first, then only the spend of the objects they name (each object's days by its
 * index: a lookup per object, whatever the planner guesses of the clicks); the range's daily totals (ad_spend_days,
 * kept by triggers) give its whole spend, so the spend no click explains is that total less what was charged.
 */
public final class SpendReports {

  /** The days around a range whose spend may fall on the range's clicks: a zone is at most 14 hours from UTC. */
  private static final int EDGE_DAYS = 2;

  /** Spend converted to the report currency ($5) by its day's rate, as revenue is; null without a rate. */
  private static final String CONVERTED = """
      CASE WHEN currency = $5 THEN spend ELSE spend * fx_per_eur($5, day) / fx_per_eur(currency, day) END""";

  /**
   * $1 workspace, $2 and $3 the range, $4 the report's zone, $5 the report currency, $6 and $7 the spend's days,
   * $8 and $9 the hours those days cover, $10 the day rows' zone as spend names it (null: the day rows are not read),
   * $11 and $12 the range's days, $13 the hours of the day rows' days that fall on another day of the report's zone
   * (each moved from the one to the other: exact while the zones differ by whole hours). %1$s: the dimensions read,
   * each followed by a comma; %2$s: the groups' expressions over {@code k}, each followed by a comma; %3$s: the
   * filters over {@code k}; %4$s: as many nulls as groups; %5$s: {@link #CONVERTED}. The last row is the spend of
   * the range's days no click explains, with the currencies that had no rate.
   */
  private static final String COSTS = """
      WITH z AS (SELECT zone FROM ad_spend_zones WHERE workspace_id = $1 AND zone IS DISTINCT FROM $10),
      h AS (
          SELECT hour, campaign_id, adset_id, ad_id, %1$s sum(n) AS n FROM funnel_rollup
           WHERE workspace_id = $1 AND step = '$click' AND hour >= $8 AND hour < $9 AND EXISTS (SELECT 1 FROM z)
           GROUP BY hour, campaign_id, adset_id, ad_id, %1$s step),
      d AS (
          SELECT day, campaign_id, adset_id, ad_id, %1$s sum(n) AS n FROM funnel_rollup_day
           WHERE $10::text IS NOT NULL AND workspace_id = $1 AND step = '$click' AND day BETWEEN $6 AND $7
           GROUP BY day, campaign_id, adset_id, ad_id, %1$s step),
      e AS (
          SELECT (hour AT TIME ZONE $10)::date AS day, (hour AT TIME ZONE $4)::date AS rday, campaign_id, adset_id,
                 ad_id, %1$s sum(n) AS n FROM funnel_rollup
           WHERE $10::text IS NOT NULL AND workspace_id = $1 AND step = '$click' AND hour = ANY($13::timestamptz[])
           GROUP BY hour, campaign_id, adset_id, ad_id, %1$s step),
      c AS (
          SELECT (h.hour AT TIME ZONE z.zone)::date AS sday, z.zone, h.campaign_id, h.adset_id, h.ad_id, %1$s h.n,
                 h.hour >= $2 AND h.hour < $3 AS in_range, (h.hour AT TIME ZONE $4)::date AS rday
            FROM h CROSS JOIN z
          UNION ALL
          SELECT d.day, $10, d.campaign_id, d.adset_id, d.ad_id, %1$s d.n, d.day >= $11 AND d.day < $12, d.day
            FROM d
          UNION ALL
          SELECT e.day, $10, e.campaign_id, e.adset_id, e.ad_id, %1$s -e.n, e.day >= $11 AND e.day < $12, e.day
            FROM e
          UNION ALL
          SELECT e.day, $10, e.campaign_id, e.adset_id, e.ad_id, %1$s e.n, e.rday >= $11 AND e.rday < $12, e.rday
            FROM e),
      named AS (
          SELECT 'ad' AS level, ad_id AS id FROM c WHERE ad_id <> ''
          UNION SELECT 'adset', adset_id FROM c WHERE adset_id <> ''
          UNION SELECT 'campaign', campaign_id FROM c WHERE campaign_id <> ''),
      s AS (
          SELECT a.level, a.object_id, a.day, a.zone, sum(%5$s) AS cost
            FROM named CROSS JOIN LATERAL (
                SELECT * FROM ad_spend a WHERE a.workspace_id = $1 AND a.level = named.level
                                           AND a.object_id = named.id AND a.day BETWEEN $6 AND $7
                OFFSET 0) a
           GROUP BY a.level, a.object_id, a.day, a.zone),
      k AS (
          SELECT c.*, coalesce(a.level, b.level, p.level) AS level,
                 coalesce(a.object_id, b.object_id, p.object_id) AS object_id,
                 coalesce(a.cost, b.cost, p.cost) AS cost
            FROM c
            LEFT JOIN s a ON a.level = 'ad' AND a.object_id = c.ad_id AND a.zone = c.zone AND a.day = c.sday
            LEFT JOIN s b ON a.level IS NULL AND b.level = 'adset' AND b.object_id = c.adset_id AND b.zone = c.zone
                         AND b.day = c.sday
            LEFT JOIN s p ON a.level IS NULL AND b.level IS NULL AND p.level = 'campaign'
                         AND p.object_id = c.campaign_id AND p.zone = c.zone AND p.day = c.sday),
      m AS (SELECT level, object_id, sday, zone, sum(n) AS clicks FROM k WHERE level IS NOT NULL
             GROUP BY level, object_id, sday, zone),
      total AS (
          SELECT coalesce(sum(%5$s), 0) AS spend,
                 array_agg(DISTINCT currency) FILTER (WHERE currency <> $5
                     AND (fx_per_eur($5, day) IS NULL OR fx_per_eur(currency, day) IS NULL)) AS no_rate
            FROM ad_spend_days WHERE workspace_id = $1 AND day >= $11 AND day < $12)
      SELECT false AS unmatched, %2$s sum(k.cost * k.n / m.clicks) AS cost, NULL::text[] AS no_rate
        FROM k JOIN m USING (level, object_id, sday, zone)
       WHERE k.in_range %3$s
       GROUP BY %2$s 1
      UNION ALL
      SELECT true, %4$s total.spend - (SELECT coalesce(sum(s.cost), 0) FROM s
                                          WHERE s.day >= $11 AND s.day < $12
                                            AND EXISTS (SELECT 1 FROM m WHERE m.level = s.level
                                                           AND m.object_id = s.object_id AND m.sday = s.day
                                                           AND m.zone = s.zone)), total.no_rate
        FROM total""";

  /** A report's cost: by group (the group's values as the sums name them), unmatched, and unconverted currencies. */
  public record Costs(Map<List<String>, BigDecimal> byGroup, BigDecimal unmatched, List<String> noRate) {}

  private final Pool readPool;

  public SpendReports(Pool readPool) {
    this.readPool = readPool;
  }

  /** Read in one snapshot, with the report's settings (its memory, a plan for its own range). */
  public Future<Costs> costs(FunnelQuery query) {
    return readPool.withTransaction(conn -> conn.query(FunnelReports.SNAPSHOT).execute()
        .compose(v -> conn.preparedQuery(FunnelReports.READ_SETTINGS).execute(Tuple.of(query.workspaceId())))
        .compose(settings -> costs(conn, query, settings.iterator().next().getString("zone"))));
  }

  private static Future<Costs> costs(SqlConnection conn, FunnelQuery query, String dayRowsZone) {
    List<String> read = FunnelQuery.DIMENSIONS.stream().filter(d -> !List.of("campaign_id", "adset_id", "ad_id")
        .contains(d) && (query.groupBy().contains(d) || query.filters().containsKey(d))).toList();
    // The day rows serve when they are made (in the workspace's day zone), and the hours of their days that are
    // another day in the report's zone can be moved whole.
    List<OffsetDateTime> moved = movedHours(query);
    boolean dayRows = query.dayZone().getId().equals(dayRowsZone) && moved != null;
    List<Object> params = new ArrayList<>(List.of(query.workspaceId(), query.from().atOffset(ZoneOffset.UTC),
        query.to().atOffset(ZoneOffset.UTC), query.zone().getId(), query.currency(),
        LocalDate.ofInstant(query.from(), ZoneOffset.UTC).minusDays(EDGE_DAYS),
        LocalDate.ofInstant(query.to(), ZoneOffset.UTC).plusDays(EDGE_DAYS),
        query.from().minus(Duration.ofDays(EDGE_DAYS + 1L)).atOffset(ZoneOffset.UTC),
        query.to().plus(Duration.ofDays(EDGE_DAYS + 1L)).atOffset(ZoneOffset.UTC)));
    params.add(dayRows ? SpendStore.pgZone(query.dayZone().getId()) : null);
    params.add(LocalDate.ofInstant(query.from(), query.zone()));
    params.add(LocalDate.ofInstant(query.to(), query.zone()));
    params.add(dayRows ? moved.toArray(OffsetDateTime[]::new) : new OffsetDateTime[0]);
    StringBuilder where = new StringBuilder();
    for (Map.Entry<String, List<String>> filter : query.filters().entrySet()) {
      params.add(filter.getValue().toArray(String[]::new));
      String column = FunnelQuery.DAY.equals(filter.getKey()) ? "to_char(k.rday, 'YYYY-MM-DD')"
          : "k." + column(filter.getKey());
      where.append(" AND ").append(column).append(" = ANY($").append(params.size()).append("::text[])");
    }
    List<String> groups = query.groupBy().stream().map(g -> FunnelQuery.DAY.equals(g) ? "k.rday"
        : "k." + column(g)).toList();
    String columns = read.stream().map(d -> d + ", ").reduce("", String::concat);
    String selected = groups.stream().map(g -> g + ", ").reduce("", String::concat);
    String nulls = groups.stream().map(g -> "NULL, ").reduce("", String::concat);
    String sql = COSTS.formatted(columns, selected, where, nulls, CONVERTED);
    return conn.preparedQuery(sql).execute(Tuple.from(params)).map(rows -> {
      Map<List<String>, BigDecimal> byGroup = new LinkedHashMap<>();
      BigDecimal unmatched = BigDecimal.ZERO;
      List<String> noRate = List.of();
      for (Row row : rows) {
        BigDecimal cost = row.getBigDecimal("cost");
        if (row.getBoolean("unmatched")) {
          unmatched = cost == null ? BigDecimal.ZERO : cost.max(BigDecimal.ZERO);
          String[] currencies = row.getArrayOfStrings("no_rate");
          noRate = currencies == null ? List.of() : List.of(currencies);
          continue;
        }
        List<String> group = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
          group.add(String.valueOf(row.getValue(i + 1))); // a text, or a day: a LocalDate, read as 2026-11-26
        }
        if (cost != null) {
          byGroup.put(List.copyOf(group), cost);
        }
      }
      return new Costs(byGroup, unmatched, noRate);
    });
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
    LocalDate last = LocalDate.ofInstant(query.to(), ZoneOffset.UTC).plusDays(EDGE_DAYS);
    for (LocalDate day = LocalDate.ofInstant(query.from(), ZoneOffset.UTC).minusDays(EDGE_DAYS);
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

  private static String column(String dimension) {
    if (!FunnelQuery.DIMENSIONS.contains(dimension)) {
      throw new IllegalArgumentException("not a dimension: " + dimension);
    }
    return dimension;
  }
}
