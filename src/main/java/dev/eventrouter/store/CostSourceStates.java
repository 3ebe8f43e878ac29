package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * SQL of the polled cost sources' states: a poll claims its source's row with a lease (one node at a time reads a
 * source across a cluster), renews it while it reads, and leaves what happened: when to poll next, the error in the
 * platform's words, or a pause on a refused token that a new token lifts.
 */
public final class CostSourceStates {

  /** A poll's claim: its sequence number, whether the first long read was done, the account's zone and currency. */
  public record Claim(long pollSeq, boolean firstRead, String zone, String currency) {}

  static final String ENSURE = """
      INSERT INTO cost_sources (workspace_id, source_id, kind) VALUES ($1, $2, $3)
      ON CONFLICT (workspace_id, source_id) DO UPDATE SET kind = EXCLUDED.kind
        WHERE cost_sources.kind <> EXCLUDED.kind""";

  /**
   * Due, not leased by a live poll, and not paused on this very token ($3, its SHA-256): a paused source whose token
   * the config changed is read again. The row lock makes one of two nodes claiming at once find it taken.
   */
  static final String CLAIM = """
      UPDATE cost_sources SET lease_until = now() + make_interval(secs => $4::float8 / 1000),
                              poll_seq = poll_seq + 1, last_poll_at = now()
       WHERE workspace_id = $1 AND source_id = $2 AND next_poll_at <= now()
         AND (lease_until IS NULL OR lease_until < now())
         AND (state <> 'paused' OR refused_token IS DISTINCT FROM $3)
      RETURNING poll_seq, first_read, account_zone, account_currency""";

  static final String RENEW = """
      UPDATE cost_sources SET lease_until = now() + make_interval(secs => $4::float8 / 1000)
       WHERE workspace_id = $1 AND source_id = $2 AND poll_seq = $3""";

  static final String ACCOUNT = """
      UPDATE cost_sources SET account_zone = $3, account_currency = $4 WHERE workspace_id = $1 AND source_id = $2""";

  static final String SUCCEEDED = """
      UPDATE cost_sources SET state = 'ok', refused_token = NULL, last_error = NULL, first_read = true,
                              failing_since = NULL,
                              last_success_at = now(), lease_until = NULL,
                              next_poll_at = now() + make_interval(secs => $3::float8 / 1000)
       WHERE workspace_id = $1 AND source_id = $2""";

  static final String FAILED = """
      UPDATE cost_sources SET state = $3, refused_token = $4, last_error = $5, lease_until = NULL,
                              failing_since = coalesce(failing_since, now()),
                              next_poll_at = now() + make_interval(secs => $6::float8 / 1000)
       WHERE workspace_id = $1 AND source_id = $2""";

  /** Due now, and no longer paused: the operator says the token or its permission was fixed. */
  static final String POLL_NOW = """
      UPDATE cost_sources SET next_poll_at = now(), refused_token = NULL,
                              state = CASE WHEN state = 'paused' THEN 'failing' ELSE state END
       WHERE workspace_id = $1 AND source_id = $2""";

  /** Each polled source's state, and every source's rows (pushed sources have rows only). */
  static final String LIST = """
      SELECT coalesce(s.source_id, a.source_id) AS id, coalesce(s.kind, 'push') AS type,
             CASE WHEN s.state = 'ok' AND s.last_success_at IS NULL THEN 'new' ELSE s.state END AS state,
             s.last_poll_at,
             s.last_success_at, s.next_poll_at, s.account_zone, s.account_currency, s.last_error,
             coalesce(a.rows, 0) AS rows, a.first_day, a.last_day
        FROM (SELECT * FROM cost_sources WHERE workspace_id = $1) s
        FULL JOIN (SELECT source_id, count(*) AS rows, min(day) AS first_day, max(day) AS last_day FROM ad_spend
                    WHERE workspace_id = $1 GROUP BY source_id) a ON a.source_id = s.source_id
       ORDER BY 1""";

  private final Pool pool;

  public CostSourceStates(Pool pool) {
    this.pool = pool;
  }

  /** The source's row, made when it is new (a source's kind follows the config). */
  public Future<Void> ensure(UUID workspaceId, String sourceId, String kind) {
    return pool.preparedQuery(ENSURE).execute(Tuple.of(workspaceId, sourceId, kind)).mapEmpty();
  }

  /** The poll's claim on a due source, or null when it is not due, another node reads it, or it is paused. */
  public Future<Claim> claim(UUID workspaceId, String sourceId, String tokenSha256, long leaseMs) {
    return pool.preparedQuery(CLAIM).execute(Tuple.of(workspaceId, sourceId, tokenSha256, leaseMs)).map(rows -> {
      if (rows.size() == 0) {
        return null;
      }
      Row row = rows.iterator().next();
      return new Claim(row.getLong("poll_seq"), row.getBoolean("first_read"), row.getString("account_zone"),
          row.getString("account_currency"));
    });
  }

  /** Extends the poll's lease; false when the poll lost its claim (another took over after the lease ran out). */
  public Future<Boolean> renew(UUID workspaceId, String sourceId, long pollSeq, long leaseMs) {
    return pool.preparedQuery(RENEW).execute(Tuple.of(workspaceId, sourceId, pollSeq, leaseMs))
        .map(rows -> rows.rowCount() == 1);
  }

  public Future<Void> account(UUID workspaceId, String sourceId, String zone, String currency) {
    return pool.preparedQuery(ACCOUNT).execute(Tuple.of(workspaceId, sourceId, zone, currency)).mapEmpty();
  }

  public Future<Void> succeeded(UUID workspaceId, String sourceId, long nextInMs) {
    return pool.preparedQuery(SUCCEEDED).execute(Tuple.of(workspaceId, sourceId, nextInMs)).mapEmpty();
  }

  /** A failed poll, tried again in {@code nextInMs}. */
  public Future<Void> failed(UUID workspaceId, String sourceId, String error, long nextInMs) {
    return pool.preparedQuery(FAILED)
        .execute(Tuple.of(workspaceId, sourceId, "failing", null, error, nextInMs)).mapEmpty();
  }

  /** A refused token: not read again until the config has another token, or the operator asks for a poll. */
  public Future<Void> paused(UUID workspaceId, String sourceId, String error, String tokenSha256) {
    return pool.preparedQuery(FAILED)
        .execute(Tuple.of(workspaceId, sourceId, "paused", tokenSha256, error, 0L)).mapEmpty();
  }

  /** Makes the source due now; false when it has no state yet (never configured here). */
  public Future<Boolean> pollNow(UUID workspaceId, String sourceId) {
    return pool.preparedQuery(POLL_NOW).execute(Tuple.of(workspaceId, sourceId)).map(rows -> rows.rowCount() == 1);
  }

  /** The workspace's sources for the debugger page, as JSON. */
  public Future<List<JsonObject>> list(UUID workspaceId) {
    return pool.preparedQuery(LIST).execute(Tuple.of(workspaceId)).map(CostSourceStates::json);
  }

  private static List<JsonObject> json(RowSet<Row> rows) {
    List<JsonObject> out = new ArrayList<>();
    for (Row row : rows) {
      out.add(new JsonObject().put("source_id", row.getString("id")).put("type", row.getString("type"))
          .put("state", row.getString("state")).put("last_poll_at", text(row.getOffsetDateTime("last_poll_at")))
          .put("last_success_at", text(row.getOffsetDateTime("last_success_at")))
          .put("next_poll_at", text(row.getOffsetDateTime("next_poll_at")))
          .put("account_zone", row.getString("account_zone")).put("account_currency", row.getString("account_currency"))
          .put("rows", row.getLong("rows"))
          .put("first_day", row.getLocalDate("first_day") == null ? null : row.getLocalDate("first_day").toString())
          .put("last_day", row.getLocalDate("last_day") == null ? null : row.getLocalDate("last_day").toString())
          .put("last_error", row.getString("last_error")));
    }
    return out;
  }

  private static String text(OffsetDateTime time) {
    return time == null ? null : time.toInstant().toString();
  }
}
