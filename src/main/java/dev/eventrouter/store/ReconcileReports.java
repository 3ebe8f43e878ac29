package dev.eventrouter.store;

import dev.eventrouter.event.ReconcileQuery;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SQL of the reconciliation (docs/reports.md#reconcile), in one read-only snapshot: the days' zone (the network's ad
 * accounts', when they name one), what was delivered per day of that zone, click ids and mapped event
 * ({@link DeliveredCounts}), and the network's own counts per ad and day (the cost import's {@code actions}).
 */
public final class ReconcileReports {

  /** Rows read of either side at most: a range of more is cut, and says so. */
  static final int MAX_ROWS = 100_000;

  /** The zones the network's ad accounts report in. */
  private static final String ZONES = """
      SELECT DISTINCT account_zone FROM cost_sources
       WHERE workspace_id = $1 AND kind = $2 AND account_zone IS NOT NULL""";

  /** $3 $4: the range's first and last instants; $5 the days' zone. */
  private static final String DELIVERED = """
      SELECT (hour AT TIME ZONE $5)::date AS day, campaign_id, adset_id, ad_id, mapped_event, sum(n) AS n
        FROM delivered_counts WHERE workspace_id = $1 AND network = $2 AND hour >= $3 AND hour < $4
       GROUP BY 1, 2, 3, 4, 5 LIMIT $6""";

  private static final String COUNTED = """
      SELECT a.day, coalesce(a.campaign_id, '') AS campaign_id, coalesce(a.adset_id, '') AS adset_id,
             a.object_id AS ad_id, a.actions
        FROM ad_spend a JOIN cost_sources s ON s.workspace_id = a.workspace_id AND s.source_id = a.source_id
       WHERE a.workspace_id = $1 AND s.kind = $2 AND a.level = 'ad' AND a.day BETWEEN $3 AND $4
         AND a.actions IS NOT NULL
       LIMIT $5""";

  /** What was delivered of one mapped event for the clicks of one ad ('' ids: no click) on one day. */
  public record Delivered(LocalDate day, String campaignId, String adsetId, String adId, String mappedEvent,
                          long n) {}

  /** The network's own counts of one ad on one day, by action type. */
  public record Counted(LocalDate day, String campaignId, String adsetId, String adId, Map<String, Long> actions) {}

  /** Both sides, the days' zone, and whether either side was cut at {@link #MAX_ROWS}. */
  public record Sides(ZoneId zone, List<Delivered> delivered, List<Counted> counted, boolean cut) {}

  private final Pool readPool;

  public ReconcileReports(Pool readPool) {
    this.readPool = readPool;
  }

  public Future<Sides> sides(ReconcileQuery query) {
    return readPool.withTransaction(conn -> conn.query(FunnelReports.SNAPSHOT).execute()
        .compose(v -> sides(conn, query)));
  }

  /** Both sides, read on a connection of the caller's (the alerts' round). */
  public static Future<Sides> sides(SqlConnection conn, ReconcileQuery query) {
    return conn.preparedQuery(ZONES).execute(Tuple.of(query.workspaceId(), query.network())).compose(zones -> {
      // The accounts' zone when they agree on one (their days are the network's counts' days), else the report's.
      ZoneId zone = query.reportZone();
      if (zones.size() == 1) {
        zone = ZoneId.of(zones.iterator().next().getString(0));
      }
      return read(conn, query, zone);
    });
  }

  private static Future<Sides> read(SqlConnection conn, ReconcileQuery query, ZoneId zone) {
    Tuple delivered = Tuple.of(query.workspaceId(), query.network(),
        query.from().atStartOfDay(zone).toOffsetDateTime(), query.to().plusDays(1).atStartOfDay(zone)
            .toOffsetDateTime(), SpendStore.pgZone(zone.getId()), MAX_ROWS + 1);
    return conn.preparedQuery(DELIVERED).execute(delivered).compose(ours -> conn.preparedQuery(COUNTED)
        .execute(Tuple.of(query.workspaceId(), query.network(), query.from(), query.to(), MAX_ROWS + 1))
        .map(theirs -> {
          List<Delivered> sent = new ArrayList<>();
          for (Row row : ours) {
            sent.add(new Delivered(row.getLocalDate("day"), row.getString("campaign_id"), row.getString("adset_id"),
                row.getString("ad_id"), row.getString("mapped_event"), row.getLong("n")));
          }
          List<Counted> counted = new ArrayList<>();
          for (Row row : theirs) {
            Map<String, Long> actions = new HashMap<>();
            Object json = row.getValue("actions");
            if (json instanceof JsonObject object) {
              object.forEach(e -> {
                if (e.getValue() instanceof Number number) {
                  actions.put(e.getKey(), number.longValue());
                }
              });
            }
            counted.add(new Counted(row.getLocalDate("day"), row.getString("campaign_id"), row.getString("adset_id"),
                row.getString("ad_id"), actions));
          }
          boolean cut = sent.size() > MAX_ROWS || counted.size() > MAX_ROWS;
          return new Sides(zone, cut ? List.of() : sent, cut ? List.of() : counted, cut);
        }));
  }
}
