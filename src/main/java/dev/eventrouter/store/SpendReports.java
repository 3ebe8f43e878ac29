package dev.eventrouter.store;

import dev.eventrouter.event.FunnelQuery;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
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
 */
public final class SpendReports {

  /** The days around a range whose spend may fall on the range's clicks: a zone is at most 14 hours from UTC. */
  private static final int EDGE_DAYS = 2;

  /**
   * The spend of the days around the range ($1 workspace, $5 report currency, $6 and $7 the days), converted; and
   * the clicks of the hours those days cover ($8, $9) with the three ids and the dimensions read, each charged to one
   * spend row in each zone the spend is dated in.
   */
  private static final String CHARGED = """
      WITH s AS (
          SELECT level, object_id, day, zone,
                 sum(CASE WHEN currency = $5 THEN spend
                          ELSE spend * fx_per_eur($5, day) / fx_per_eur(currency, day) END) AS cost
            FROM ad_spend WHERE workspace_id = $1 AND day BETWEEN $6 AND $7
           GROUP BY level, object_id, day, zone),
      z AS (SELECT DISTINCT zone FROM s),
      c AS (
          SELECT hour, campaign_id, adset_id, ad_id, %1$s sum(n) AS n FROM funnel_rollup
           WHERE workspace_id = $1 AND step = '$click' AND hour >= $8 AND hour < $9
           GROUP BY hour, campaign_id, adset_id, ad_id %2$s),
      k AS (
          SELECT c.*, z.zone, coalesce(a.level, b.level, p.level) AS level,
                 coalesce(a.object_id, b.object_id, p.object_id) AS object_id,
                 (c.hour AT TIME ZONE z.zone)::date AS sday
            FROM c CROSS JOIN z
            LEFT JOIN s a ON a.level = 'ad' AND a.object_id = c.ad_id AND a.zone = z.zone
                         AND a.day = (c.hour AT TIME ZONE z.zone)::date
            LEFT JOIN s b ON a.level IS NULL AND b.level = 'adset' AND b.object_id = c.adset_id AND b.zone = z.zone
                         AND b.day = (c.hour AT TIME ZONE z.zone)::date
            LEFT JOIN s p ON a.level IS NULL AND b.level IS NULL AND p.level = 'campaign'
                         AND p.object_id = c.campaign_id AND p.zone = z.zone
                         AND p.day = (c.hour AT TIME ZONE z.zone)::date),
      m AS (SELECT level, object_id, sday, zone, sum(n) AS clicks FROM k WHERE level IS NOT NULL
             GROUP BY level, object_id, sday, zone)
      """;

  /** Each group's share of the spend: its clicks in the range ($2, $3) of each spend row's. */
  private static final String BY_GROUP = """
      SELECT %1$s sum(s.cost * k.n / m.clicks) AS cost
        FROM k JOIN m USING (level, object_id, sday, zone)
        JOIN s ON s.level = k.level AND s.object_id = k.object_id AND s.day = k.sday AND s.zone = k.zone
       WHERE k.hour >= $2 AND k.hour < $3 %2$s
       %3$s""";

  /** The spend of the days that begin in the range, of objects no click names. */
  private static final String UNMATCHED = """
      SELECT coalesce(sum(s.cost), 0) AS unmatched FROM s
       WHERE NOT EXISTS (SELECT 1 FROM m WHERE m.level = s.level AND m.object_id = s.object_id AND m.sday = s.day
                                            AND m.zone = s.zone)
         AND (s.day::timestamp AT TIME ZONE s.zone) >= $2 AND (s.day::timestamp AT TIME ZONE s.zone) < $3
         AND $4::text IS NOT NULL""";

  /** The currencies of the range's spend that have no rate to the report currency: that spend is left out. */
  private static final String NO_RATE = """
      SELECT DISTINCT currency FROM ad_spend
       WHERE workspace_id = $1 AND day BETWEEN $3 AND $4 AND currency <> $2
         AND (fx_per_eur($2, day) IS NULL OR fx_per_eur(currency, day) IS NULL) ORDER BY currency""";

  /** A report's cost: by group (the group's values as the sums name them), unmatched, and unconverted currencies. */
  public record Costs(Map<List<String>, BigDecimal> byGroup, BigDecimal unmatched, List<String> noRate) {}

  private final Pool readPool;

  public SpendReports(Pool readPool) {
    this.readPool = readPool;
  }

  public Future<Costs> costs(FunnelQuery query) {
    List<String> read = new ArrayList<>();
    FunnelQuery.DIMENSIONS.stream().filter(d -> !List.of("campaign_id", "adset_id", "ad_id").contains(d)
        && (query.groupBy().contains(d) || query.filters().containsKey(d))).forEach(read::add);
    String columns = read.isEmpty() ? "" : String.join(", ", read) + ",";
    List<Object> params = new ArrayList<>(List.of(query.workspaceId(), query.from().atOffset(ZoneOffset.UTC),
        query.to().atOffset(ZoneOffset.UTC), query.zone().getId(), query.currency(),
        LocalDate.ofInstant(query.from(), ZoneOffset.UTC).minusDays(EDGE_DAYS),
        LocalDate.ofInstant(query.to(), ZoneOffset.UTC).plusDays(EDGE_DAYS),
        query.from().minus(Duration.ofDays(EDGE_DAYS + 1L)).atOffset(ZoneOffset.UTC),
        query.to().plus(Duration.ofDays(EDGE_DAYS + 1L)).atOffset(ZoneOffset.UTC)));
    String charged = CHARGED.formatted(columns, read.isEmpty() ? "" : ", " + String.join(", ", read));
    StringBuilder where = new StringBuilder("AND $4::text IS NOT NULL");
    for (Map.Entry<String, List<String>> filter : query.filters().entrySet()) {
      params.add(filter.getValue().toArray(String[]::new));
      String column = FunnelQuery.DAY.equals(filter.getKey())
          ? "to_char((k.hour AT TIME ZONE $4)::date, 'YYYY-MM-DD')" : "k." + column(filter.getKey());
      where.append(" AND ").append(column).append(" = ANY($").append(params.size()).append("::text[])");
    }
    List<String> groups = query.groupBy().stream().map(g -> FunnelQuery.DAY.equals(g)
        ? "(k.hour AT TIME ZONE $4)::date" : "k." + column(g)).toList();
    String selected = groups.isEmpty() ? "" : String.join(", ", groups) + ", ";
    String byGroup = charged + BY_GROUP.formatted(selected, where,
        groups.isEmpty() ? "" : "GROUP BY " + String.join(", ", groups));
    Tuple tuple = Tuple.from(params);
    Tuple base = Tuple.from(params.subList(0, 9));
    Tuple rates = Tuple.of(params.get(0), params.get(4), params.get(5), params.get(6));
    return readPool.withTransaction(conn -> conn.query(FunnelReports.SNAPSHOT).execute()
        .compose(v -> conn.preparedQuery(byGroup).execute(tuple))
        .compose(rows -> {
          Map<List<String>, BigDecimal> byGroupCost = new LinkedHashMap<>();
          for (Row row : rows) {
            List<String> group = new ArrayList<>();
            for (int i = 0; i < groups.size(); i++) {
              group.add(String.valueOf(row.getValue(i)));
            }
            BigDecimal cost = row.getBigDecimal("cost");
            if (cost != null) {
              byGroupCost.put(List.copyOf(group), cost);
            }
          }
          return conn.preparedQuery(charged + UNMATCHED).execute(base)
              .compose(unmatched -> conn.preparedQuery(NO_RATE).execute(rates).map(noRate -> {
                List<String> currencies = new ArrayList<>();
                noRate.forEach(r -> currencies.add(r.getString("currency")));
                BigDecimal left = unmatched.iterator().next().getBigDecimal("unmatched");
                return new Costs(byGroupCost, left == null ? BigDecimal.ZERO : left, currencies);
              }));
        }));
  }

  private static String column(String dimension) {
    if (!FunnelQuery.DIMENSIONS.contains(dimension)) {
      throw new IllegalArgumentException("not a dimension: " + dimension);
    }
    return dimension;
  }
}
