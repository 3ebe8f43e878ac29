package dev.eventrouter.store;

import dev.eventrouter.config.Network;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

/**
 * What one network still has to send: how many pending (its cursors' events not yet read among them, see
 * {@link DeliveryCursors}) and retrying, claimed ones under lease included, and how long the longest-waiting due one
 * has been due, in seconds (zero when none is).
 */
public record DeliveryBacklog(long pending, long retrying, double oldestDueSeconds) {

  /**
   * Events past a cursor read for the backlog, at most: the count stays a read of tens of milliseconds however far
   * behind the cursor is (with 100,000 it took a tenth of PostgreSQL's time behind (c)'s backlog in bench/RESULTS.md);
   * past it, the oldest due's age tells how far behind a network is.
   */
  static final int COUNT_CAP = 10_000;

  /**
   * A network's backlog: its pending and retrying rows, and the events past its cursors that name one of its
   * integrations (counted as pending: their rows are not made yet), among the next $2 of each cursor. The events are
   * read in the cursor's order and limited before they are filtered: with the filter inside, PostgreSQL cannot
   * estimate it and reads the last hour of every workspace's events by id instead (seconds, in bench/RESULTS.md).
   */
  private static final String BACKLOG = """
      WITH made AS (
          SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
                 count(*) FILTER (WHERE status = 'retrying') AS retrying,
                 min(next_attempt_at) FILTER (WHERE next_attempt_at <= now()) AS oldest
            FROM deliveries
           WHERE network = $1 AND status IN ('pending', 'retrying')),
      ahead AS (
          SELECT count(*) AS pending, min(e.received_at) AS oldest
            FROM delivery_cursors c CROSS JOIN LATERAL (
                SELECT received_at, deliver_to FROM events
                 WHERE workspace_id = c.workspace_id AND tx IS NOT NULL AND (tx, event_id) > (c.tx, c.event_id)
                   AND event_id >= c.floor_id
                 ORDER BY tx, event_id
                 LIMIT $2) e
           WHERE c.network = $1 AND e.deliver_to -> c.integration_id ->> 0 = $1)
      SELECT made.pending + ahead.pending AS pending, made.retrying,
             coalesce(EXTRACT(EPOCH FROM now() - least(made.oldest, ahead.oldest)), 0)::float8 AS overdue_s
        FROM made, ahead""";

  static Future<DeliveryBacklog> read(Pool readPool, Network network) {
    return readPool.preparedQuery(BACKLOG).execute(Tuple.of(network.id, COUNT_CAP)).map(rows -> {
      Row row = rows.iterator().next();
      return new DeliveryBacklog(row.getLong("pending"), row.getLong("retrying"), row.getDouble("overdue_s"));
    });
  }
}
