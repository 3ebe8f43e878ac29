package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.util.UUID;

/**
 * SQL of the funnel's day zones: each workspace's day rows (and their clicks by ids, {@link AdClicks}) are kept in
 * the local days of its report zone, and made again from the hours when that zone changes, at the start of a funnel
 * rollup round ({@link FunnelRollups}), in its transaction.
 */
final class DayZones {

  /** The configured workspaces whose day rows are in another zone than their report_timezone now (or in none). */
  private static final String STALE_ZONES = """
      SELECT c.workspace_id, c.zone FROM unnest($1::uuid[], $2::text[]) AS c(workspace_id, zone)
        LEFT JOIN funnel_day_zone d ON d.workspace_id = c.workspace_id
       WHERE d.zone IS DISTINCT FROM c.zone""";

  /** A workspace's day rows dropped, its day zone set; {@link #REZONE_FILL} makes them again in that zone. */
  static final String REZONE = """
      WITH gone AS (DELETE FROM funnel_rollup_day WHERE workspace_id = $1)
      INSERT INTO funnel_day_zone (workspace_id, zone) VALUES ($1, $2)
      ON CONFLICT (workspace_id) DO UPDATE SET zone = EXCLUDED.zone""";

  /** A workspace's day rows, in the local days of its zone ($2), from its hours. */
  static final String REZONE_FILL = """
      INSERT INTO funnel_rollup_day (workspace_id, day, %1$s, step, %2$s)
      SELECT workspace_id, (hour AT TIME ZONE $2)::date, %1$s, step, %3$s FROM funnel_rollup
       WHERE workspace_id = $1
       GROUP BY workspace_id, (hour AT TIME ZONE $2)::date, %1$s, step""".formatted(FunnelRollups.COLUMNS,
      String.join(", ", FunnelRollups.SUMS), FunnelRollups.SUMMED);

  /** Makes the day rows again of each workspace whose report zone is new (its first round, or a changed config). */
  static Future<Void> rezone(SqlConnection conn, UUID[] workspaces, String[] zones) {
    // Cast: a String[] would be spread as varargs.
    return conn.preparedQuery(STALE_ZONES).execute(Tuple.of(workspaces, (Object) zones)).compose(stale -> {
      Future<Void> done = Future.succeededFuture();
      for (Row row : stale) {
        Tuple workspace = Tuple.of(row.getUUID("workspace_id"), row.getString("zone"));
        done = done.compose(v -> run(conn, REZONE, workspace)).compose(v -> run(conn, REZONE_FILL, workspace))
            .compose(v -> run(conn, AdClicks.REZONE, Tuple.of(workspace.getUUID(0))))
            .compose(v -> run(conn, AdClicks.REZONE_FILL, workspace));
      }
      return done;
    });
  }

  private static Future<Void> run(SqlConnection conn, String sql, Tuple params) {
    return conn.preparedQuery(sql).execute(params).mapEmpty();
  }

  private DayZones() {}
}
