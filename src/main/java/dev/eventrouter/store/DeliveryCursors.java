package dev.eventrouter.store;

import dev.eventrouter.config.Network;
import dev.eventrouter.event.EventIds;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Where the forwarders find new events: a cursor per integration over the stored events in the order their
 * transactions committed. A take reads the next events past each cursor of a network, makes the outbox rows of those
 * that name the integration, already claimed (leased, as {@link DeliveryStore#CLAIM} leaves a row), and moves the
 * cursor past them, all in one statement: a crash before it commits leaves nothing done, one after leaves claimed
 * rows that come due by themselves. A delivery is so written twice (made, then its outcome) where an outbox row made
 * with its event was written three times (made, claimed, outcome), and none of it in the ingest transaction.
 */
final class DeliveryCursors {

  /**
   * How much later than its id was made an event may still commit (ids are made when an event is accepted; it is
   * stored within the request's timeout): a cursor's floor stays this far below the last event it read.
   */
  static final Duration LATE_COMMIT = Duration.ofHours(1);
  /**
   * Where a new cursor's reads start: the events of the last 8 days. A network takes events of 7 days at most
   * ({@code ClaimDispatcher.MAX_EVENT_AGE}), so none older is still owed.
   */
  static final Duration NEW_CURSOR_REACH = Duration.ofDays(8);

  /**
   * Where a take may read up to: the oldest transaction still running that may be storing events, else the next
   * transaction id to be given. Every event below it is committed (or never will be), so a read taken after this
   * statement, in its own snapshot, sees them all; one of a later transaction is read by a later take. Transactions
   * of sessions that never write events ($1) do not hold it back, so a long rollup does not stall delivery.
   * https://www.postgresql.org/docs/current/functions-info.html#FUNCTIONS-PG-SNAPSHOT
   */
  static final String HORIZON = """
      SELECT coalesce((SELECT min(x) FROM pg_snapshot_xip(s) AS x
                        WHERE x::xid NOT IN (SELECT backend_xid FROM pg_stat_activity
                                              WHERE backend_xid IS NOT NULL AND application_name = ANY($1::text[]))),
                      pg_snapshot_xmax(s))::text AS horizon
        FROM pg_current_snapshot() AS s""";

  /** Cursors for the integrations of a network ($1): $2 workspaces, $3 integrations; new ones start at $4. */
  static final String ENSURE = """
      INSERT INTO delivery_cursors (network, workspace_id, integration_id, floor_id)
      SELECT $1, w, i, $4 FROM unnest($2::uuid[], $3::text[]) AS c(w, i)
      ON CONFLICT DO NOTHING""";

  /**
   * A take: for each cursor of network $1 no other take holds, the next $3 events of its workspace below the horizon
   * $2; of all those read, the first $3 in commit order (so one take makes at most $3 rows, however many cursors);
   * the rows of those that name the cursor's integration made, leased for $4 ms; and each cursor moved past what it
   * kept (its floor kept $5 below). Returns each row made with what its payload is built from (the columns of
   * {@link DeliveryStore#CLAIM}), and, on every row and on one row even when none was made, whether there may be
   * more right behind: a cursor read a full page, or the cap left some of what was read for the next take.
   */
  static final String TAKE = """
      WITH cur AS (
          SELECT workspace_id, integration_id, tx, event_id, floor_id FROM delivery_cursors
           WHERE network = $1
             FOR UPDATE SKIP LOCKED),
      read AS (
          SELECT cur.workspace_id, cur.integration_id, e.event_id, e.tx,
                 CASE WHEN e.deliver_to -> cur.integration_id ->> 0 = $1
                      THEN e.deliver_to -> cur.integration_id ->> 1 END AS mapped_event,
                 row_number() OVER (ORDER BY e.tx, e.event_id, cur.integration_id) AS overall,
                 count(*) OVER (PARTITION BY cur.workspace_id, cur.integration_id) AS n
            FROM cur CROSS JOIN LATERAL (
                SELECT event_id, tx, deliver_to FROM events
                 WHERE workspace_id = cur.workspace_id AND tx IS NOT NULL AND (tx, event_id) > (cur.tx, cur.event_id)
                   AND tx < $2::text::xid8 AND event_id >= cur.floor_id
                 ORDER BY tx, event_id
                 LIMIT $3) e),
      seen AS (
          SELECT *, row_number() OVER (PARTITION BY workspace_id, integration_id ORDER BY tx DESC, event_id DESC)
                      AS from_last
            FROM read WHERE overall <= $3),
      moved AS (
          UPDATE delivery_cursors c SET tx = seen.tx, event_id = seen.event_id,
                 floor_id = greatest(c.floor_id, seen.event_id - $5), updated_at = now()
            FROM seen
           WHERE seen.from_last = 1 AND c.network = $1 AND c.workspace_id = seen.workspace_id
             AND c.integration_id = seen.integration_id),
      made AS (
          INSERT INTO deliveries (event_id, workspace_id, integration_id, network, mapped_event, status,
                                  next_attempt_at, claims)
          SELECT event_id, workspace_id, integration_id, $1, mapped_event, 'pending',
                 now() + make_interval(secs => $4::double precision / 1000), 1
            FROM seen WHERE mapped_event IS NOT NULL
          ON CONFLICT DO NOTHING
          RETURNING delivery_id, event_id, workspace_id, integration_id, mapped_event)
      SELECT f.more, d.delivery_id, d.event_id, d.workspace_id, d.integration_id, e.event_name, d.mapped_event,
             0 AS attempts, e.telegram_id, e.session_id, e.user_data, e.received_at, e.limited_data_use,
             0 AS change_seq, NULL::text AS previous_status, e.value, e.currency,
             coalesce(e.conversion_status, 'approved') AS conversion_status,""" + DeliveryStore.CLICK_COLUMNS + """

        FROM (SELECT EXISTS (SELECT 1 FROM read WHERE overall > $3 OR n = $3) AS more) f
        LEFT JOIN (made d
                   JOIN events e ON e.event_id = d.event_id
                   LEFT JOIN click_sessions c ON c.workspace_id = e.workspace_id AND c.session_id = e.session_id)
          ON true""";

  private final Pool pool;
  /** The application_name of the sessions that never store events: the only transactions a take does not wait on. */
  private final String[] eventFree;

  DeliveryCursors(Pool pool, List<String> eventFree) {
    this.pool = pool;
    this.eventFree = eventFree.toArray(String[]::new);
  }

  /** Makes sure each of the network's integrations (workspace and id, in the same order) has a cursor. */
  Future<Void> ensure(Network network, List<UUID> workspaces, List<String> integrations) {
    if (workspaces.isEmpty()) {
      return Future.succeededFuture();
    }
    return pool.preparedQuery(ENSURE).execute(Tuple.of(network.id, workspaces.toArray(UUID[]::new),
            integrations.toArray(String[]::new), EventIds.firstIdAt(Instant.now().minus(NEW_CURSOR_REACH))))
        .mapEmpty();
  }

  /**
   * The deliveries of the events past the network's cursors, up to {@code limit} events read in all, made and
   * claimed. While there may be more right behind and fewer than {@code limit} rows were made, reads again (up to
   * {@code rounds} reads), so a cursor that starts far behind (a new integration in a busy workspace) catches up
   * without waiting a scan interval per page.
   */
  Future<List<ClaimedDelivery>> take(Network network, int limit, long leaseMs, int rounds) {
    List<ClaimedDelivery> jobs = new ArrayList<>();
    return takeInto(jobs, network, limit, leaseMs, rounds).map(v -> jobs);
  }

  private Future<Void> takeInto(List<ClaimedDelivery> jobs, Network network, int limit, long leaseMs, int rounds) {
    return pool.preparedQuery(HORIZON).execute(Tuple.tuple().addArrayOfString(eventFree))
        .compose(h -> pool.preparedQuery(TAKE).execute(Tuple.of(network.id, h.iterator().next().getString(0),
            limit, leaseMs, lateCommitIds())))
        .compose(rows -> {
          boolean more = collect(rows, jobs);
          return more && rounds > 1 && jobs.size() < limit
              ? takeInto(jobs, network, limit, leaseMs, rounds - 1) : Future.succeededFuture();
        });
  }

  /** Adds the rows made to {@code jobs}; returns whether there may be more right behind. */
  private static boolean collect(RowSet<Row> rows, List<ClaimedDelivery> jobs) {
    boolean more = false;
    for (Row row : rows) {
      more = row.getBoolean("more");
      if (row.getLong("delivery_id") != null) {
        jobs.add(DeliveryStore.job(row));
      }
    }
    return more;
  }

  /** {@link #LATE_COMMIT} in event ids. */
  static long lateCommitIds() {
    return EventIds.firstIdAt(EventIds.EPOCH.plus(LATE_COMMIT));
  }
}
