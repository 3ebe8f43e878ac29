package dev.eventrouter.store;

import dev.eventrouter.event.FunnelQuery;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SQL of the funnel report's cost (docs/costs.md). A day's spend of a campaign, ad set or ad, in its account's zone,
 * is spread over the clicks that name it whose hour falls on that day in that zone ({@link CostSpread}). Spend in
 * another currency is converted by its day's rate, as revenue is.
 *
 * <p>Two statements in one snapshot: the clicks by object, day of each spend zone and report group, then the spend of
 * the objects they name (each object's days by its index) with the range's daily totals (ad_spend_days, kept by
 * triggers), so the spend no click explains is that total less what was charged. Spend dated in the zone of the
 * workspace's day rollups (its report zone, usually the ad account's too) meets the clicks of the day rows; spend of
 * another zone meets the hourly clicks, whose days in that zone are worked out hour by hour.
 */
public final class SpendReports {

  /**
   * Click rows a report's cost is spread over at most: (spend zone, day, object, group) combinations. A report of
   * more (a year grouped by a free-text utm value) has no cost, and says so, rather than holding them all.
   */
  static final int MAX_CLICK_ROWS = 200_000;

  /** Spend converted to the report currency ($2) by its day's rate, as revenue is; null without a rate. */
  private static final String CONVERTED = """
      CASE WHEN currency = $2 THEN spend ELSE spend * fx_per_eur($2, day) / fx_per_eur(currency, day) END""";

  /**
   * The settings of a report's cost: the report's ({@link FunnelReports#READ_SETTINGS}) and the zones its workspace's
   * spend is dated in.
   */
  private static final String SETTINGS = FunnelReports.READ_SETTINGS + """
      , (SELECT array_agg(zone) FROM ad_spend_zones WHERE workspace_id = $1) AS spend_zones""";

  /**
   * $1 workspace, $2 the report currency, $3 and $4 the spend's days, $5 and $6 the range's days, $7 and $8 the
   * levels and ids of the objects the clicks name: their rows (from the index alone, V26), an object's day once per
   * ad account, summed here (summed in SQL, a 90-day report's 20,000 rows took half the statement's time). The last
   * row is the range's whole spend, with the currencies that had no rate.
   */
  private static final String SPEND = """
      SELECT false AS total, a.level, a.object_id, a.day, a.zone, %1$s AS cost, NULL::text[] AS no_rate
        FROM unnest($7::text[], $8::text[]) AS named(level, id) CROSS JOIN LATERAL (
            SELECT level, object_id, day, zone, currency, spend FROM ad_spend a
             WHERE a.workspace_id = $1 AND a.level = named.level AND a.object_id = named.id
               AND a.day BETWEEN $3 AND $4
            OFFSET 0) a
      UNION ALL
      SELECT true, NULL, NULL, NULL, NULL, coalesce(sum(%1$s), 0),
             array_agg(DISTINCT currency) FILTER (WHERE currency <> $2
                 AND (fx_per_eur($2, day) IS NULL OR fx_per_eur(currency, day) IS NULL))
        FROM ad_spend_days WHERE workspace_id = $1 AND day >= $5 AND day < $6""".formatted(CONVERTED);

  /**
   * A report's cost: by group (the group's values as the sums name them), unmatched, and unconverted currencies;
   * {@code cut} when the report spans more than {@link #MAX_CLICK_ROWS} click rows, and so has no cost.
   */
  public record Costs(Map<List<String>, BigDecimal> byGroup, BigDecimal unmatched, List<String> noRate,
                      boolean cut) {}

  private final Pool readPool;
  private final int maxClickRows;

  public SpendReports(Pool readPool) {
    this(readPool, MAX_CLICK_ROWS);
  }

  /** With a smaller bound on the click rows a cost is spread over (tests). */
  public SpendReports(Pool readPool, int maxClickRows) {
    this.readPool = readPool;
    this.maxClickRows = maxClickRows;
  }

  /** Read in one snapshot, with the report's settings (its memory, a plan for its own range). */
  public Future<Costs> costs(FunnelQuery query) {
    return readPool.withTransaction(conn -> conn.query(FunnelReports.SNAPSHOT).execute()
        .compose(v -> conn.preparedQuery(SETTINGS).execute(Tuple.of(query.workspaceId())))
        .compose(settings -> {
          Row row = settings.iterator().next();
          String[] zones = row.getArrayOfStrings("spend_zones");
          return costs(conn, query, row.getString("zone"), zones == null ? List.of() : List.of(zones));
        }));
  }

  private Future<Costs> costs(SqlConnection conn, FunnelQuery query, String dayRowsZone, List<String> spendZones) {
    LocalDate firstDay = LocalDate.ofInstant(query.from(), query.zone());
    LocalDate lastDay = LocalDate.ofInstant(query.to(), query.zone());
    return CostClicks.read(conn, query, dayRowsZone, spendZones, maxClickRows + 1).compose(rows -> {
      if (rows.size() > maxClickRows) {
        return Future.succeededFuture(new Costs(Map.of(), null, List.of(), true));
      }
      List<String[]> named = CostSpread.named(rows);
      Tuple params = Tuple.of(query.workspaceId(), query.currency(), CostClicks.firstSpendDay(query),
          CostClicks.lastSpendDay(query), firstDay, lastDay)
          .addArrayOfString(named.stream().map(n -> n[0]).toArray(String[]::new))
          .addArrayOfString(named.stream().map(n -> n[1]).toArray(String[]::new));
      return conn.preparedQuery(SPEND).execute(params).map(spendRows -> {
        Map<CostSpread.Key, BigDecimal> spend = new HashMap<>();
        BigDecimal total = BigDecimal.ZERO;
        List<String> noRate = List.of();
        for (Row row : spendRows) {
          if (row.getBoolean("total")) {
            total = row.getBigDecimal("cost");
            String[] currencies = row.getArrayOfStrings("no_rate");
            noRate = currencies == null ? List.of() : List.of(currencies);
          } else {
            CostSpread.Key key = new CostSpread.Key(row.getString("level"), row.getString("object_id"),
                row.getString("zone"), row.getLocalDate("day"));
            BigDecimal cost = row.getBigDecimal("cost");
            BigDecimal before = spend.get(key);
            // As SQL's sum: rows with no rate (a null cost) count for nothing beside rows with one.
            spend.put(key, before == null ? cost : cost == null ? before : before.add(cost));
          }
        }
        return CostSpread.spread(rows, spend, total, noRate, firstDay, lastDay);
      });
    });
  }
}
