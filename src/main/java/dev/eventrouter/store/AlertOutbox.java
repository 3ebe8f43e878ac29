package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;

/**
 * The alerts' outbox as its senders see it: claim the due messages, then finish or retry each. Any node sends; the
 * messages were queued by the round that planned them ({@link AlertStore}).
 */
public final class AlertOutbox {

  /**
   * The due messages that head their target's queue (an older one still to send holds the rest back, so a target
   * hears "resolved" after "firing"), leased to this node.
   */
  static final String CLAIM = """
      UPDATE alert_outbox SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => $2 / 1000.0)
       WHERE alert_id IN (
             SELECT alert_id FROM alert_outbox o
              WHERE status IN ('pending', 'retrying') AND next_attempt_at <= now()
                AND NOT EXISTS (SELECT 1 FROM alert_outbox p
                                 WHERE p.workspace_id = o.workspace_id AND p.target = o.target
                                   AND p.status IN ('pending', 'retrying') AND p.alert_id < o.alert_id)
              ORDER BY alert_id LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING alert_id, workspace_id, target, message, attempts""";

  private final Pool pool;

  public AlertOutbox(Pool pool) {
    this.pool = pool;
  }

  /** Claims up to {@code limit} due messages, leased for {@code leaseMs}: a node that dies leaves them to another. */
  public Future<List<QueuedAlert>> claim(int limit, long leaseMs) {
    return pool.preparedQuery(CLAIM).execute(Tuple.of(limit, leaseMs)).map(rows -> {
      List<QueuedAlert> claimed = new ArrayList<>();
      for (Row row : rows) {
        claimed.add(new QueuedAlert(row.getLong("alert_id"), row.getUUID("workspace_id"), row.getString("target"),
            (JsonObject) row.getValue("message"), row.getInteger("attempts")));
      }
      return claimed;
    });
  }

  /**
   * Ends a message: sent, or dropped with why. Only while the claim is this one's: a node whose lease ran out, and
   * whose message another claimed, does not overwrite the newer outcome.
   */
  public Future<Void> finish(QueuedAlert alert, String status, String error) {
    return pool.preparedQuery("UPDATE alert_outbox SET status = $2, last_error = $3, done_at = now()"
            + " WHERE alert_id = $1 AND attempts = $4")
        .execute(Tuple.of(alert.alertId(), status, error, alert.attempts())).mapEmpty();
  }

  /** Tries a message again after {@code delayMs}; only while the claim is this one's, as {@link #finish}. */
  public Future<Void> retry(QueuedAlert alert, long delayMs, String error) {
    return pool.preparedQuery("UPDATE alert_outbox SET status = 'retrying', last_error = $3,"
            + " next_attempt_at = now() + make_interval(secs => $2 / 1000.0) WHERE alert_id = $1 AND attempts = $4")
        .execute(Tuple.of(alert.alertId(), delayMs, error, alert.attempts())).mapEmpty();
  }

  /** Drops messages done with more than {@code days} ago. */
  public Future<Integer> purge(int days) {
    return pool.preparedQuery("DELETE FROM alert_outbox WHERE done_at < now() - make_interval(days => $1)")
        .execute(Tuple.of(days)).map(RowSet::rowCount);
  }
}
