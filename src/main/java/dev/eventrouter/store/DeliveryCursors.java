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
 * Where the forwarders find new events: a cursor per integration over the stored events in the order their transactions
 * committed. A take reads the next events past each cursor of a network and holds the cursors with some to send under a
 * lease, fenced by an epoch, so one node at a time sends an integration's new events; no row is made. Each outcome
 * makes the rows of the events it ends ({@link TakenOutcomes}), so a delivery sent and accepted is written once; the
 * settle then moves the cursor past them. A node that dies holding a cursor leaves it to the next claim after the lease
 * ({@link CursorLeases#LAPSED}): what got no outcome becomes rows, due, and is sent again under the same event ids.
 */
final class DeliveryCursors {

  /**
   * How much later than its id was made an event may still commit (ids are made when an event is accepted; it is
   * stored within the request's timeout): a cursor's floor stays this far below the last event it read.
   */
  static final Duration LATE_COMMIT = Duration.ofHours(1);
  /**
   * Where a new cursor's reads start: the events of the last 8 days. Meta and TikTok take events of 7 days at most
   * ({@code NetworkApi.maxEventAge}), so none older is still owed; Snapchat's longer limit matters only to events
   * already read (retried or held), whose rows the claims keep.
   */
  static final Duration NEW_CURSOR_REACH = Duration.ofDays(8);

  /**
   * Where a take may read up to: the oldest transaction still running that may be storing events, else the next
   * transaction id to be given. Every event below it is committed (or never will be), so a read taken after this
   * statement, in its own snapshot, sees them all; one of a later transaction is read by a later take. Transactions
   * of sessions that never write events ($1) do not hold it back, so a long rollup does not stall delivery; nor do
   * those of other databases on the same server (a snapshot lists the whole server's), which cannot write ours. Any
   * role may read these three columns of any session.
   * https://www.postgresql.org/docs/current/functions-info.html#FUNCTIONS-PG-SNAPSHOT
   * https://www.postgresql.org/docs/current/monitoring-stats.html#MONITORING-PG-STAT-ACTIVITY-VIEW
   */
  static final String HORIZON = """
      SELECT coalesce((SELECT min(x) FROM pg_snapshot_xip(s) AS x
                        WHERE x::xid NOT IN (SELECT backend_xid FROM pg_stat_activity
                                              WHERE backend_xid IS NOT NULL
                                                AND (application_name = ANY($1::text[])
                                                     OR datname <> current_database()))),
                      pg_snapshot_xmax(s))::text AS horizon
        FROM pg_current_snapshot() AS s""";

  /** Cursors for the integrations of a network ($1): $2 workspaces, $3 integrations; new ones start at $4. */
  static final String ENSURE = """
      INSERT INTO delivery_cursors (network, workspace_id, integration_id, floor_id)
      SELECT $1, w, i, $4 FROM unnest($2::uuid[], $3::text[]) AS c(w, i)
      ON CONFLICT DO NOTHING""";

  /**
   * A take: for each cursor of network $1 that no take holds, the next $3 events of its workspace below the horizon $2;
   * of all those read, the first $3 in commit order (so one take returns at most $3, however many cursors). A cursor
   * whose events include some to send (they name its integration) is leased for $4 ms under a new epoch, with the last
   * event read kept as where it moves when they have their outcomes ({@link CursorLeases#SETTLE}); one whose events
   * include none moves past them at once (its floor kept $5 below). None of them has a row yet: a conversion's first
   * delivery row is made only for an event its cursor's holder took (by its outcome, the settle, or {@link
   * CursorLeases#LAPSED}, each before or as the cursor moves past it); every other row is a status change's. Returns
   * each event to send with what its payload is built from (the columns of {@link DeliveryStore#CLAIM}, delivery_id 0:
   * its row is made by its outcome) and its cursor's epoch, and, on every row and on one row even when there is none,
   * whether there may be more right behind: a cursor read a full page, or the cap left some of what was read for the
   * next take.
   */
  static final String TAKE = """
      WITH cur AS (
          SELECT workspace_id, integration_id, tx, event_id, floor_id FROM delivery_cursors
           WHERE network = $1 AND lease_until IS NULL
             FOR UPDATE SKIP LOCKED),
      read AS (
          SELECT cur.workspace_id, cur.integration_id, e.*,
                 CASE WHEN e.deliver_to -> cur.integration_id ->> 0 = $1
                      THEN e.deliver_to -> cur.integration_id ->> 1 END AS mapped_event,
                 row_number() OVER (ORDER BY e.tx, e.event_id, cur.integration_id) AS overall,
                 count(*) OVER (PARTITION BY cur.workspace_id, cur.integration_id) AS n
            FROM cur CROSS JOIN LATERAL (
                SELECT event_id, tx, deliver_to, event_name, telegram_id, session_id, user_data, received_at,
                       limited_data_use, value, currency, conversion_status
                  FROM events
                 WHERE workspace_id = cur.workspace_id AND tx IS NOT NULL AND (tx, event_id) > (cur.tx, cur.event_id)
                   AND tx < $2::text::xid8 AND event_id >= cur.floor_id
                 ORDER BY tx, event_id
                 LIMIT $3) e),
      seen AS (
          SELECT *, row_number() OVER (PARTITION BY workspace_id, integration_id ORDER BY tx DESC, event_id DESC)
                      AS from_last,
                 count(mapped_event) OVER (PARTITION BY workspace_id, integration_id) AS to_send
            FROM read WHERE overall <= $3),
      moved AS (
          UPDATE delivery_cursors c
             SET tx = CASE WHEN seen.to_send = 0 THEN seen.tx ELSE c.tx END,
                 event_id = CASE WHEN seen.to_send = 0 THEN seen.event_id ELSE c.event_id END,
                 floor_id = CASE WHEN seen.to_send = 0 THEN greatest(c.floor_id, seen.event_id - $5)
                                 ELSE c.floor_id END,
                 lease_until = CASE WHEN seen.to_send = 0 THEN NULL
                                    ELSE now() + make_interval(secs => $4::double precision / 1000) END,
                 lease_tx = seen.tx, lease_event_id = seen.event_id, epoch = c.epoch + 1, updated_at = now()
            FROM seen
           WHERE seen.from_last = 1 AND c.network = $1 AND c.workspace_id = seen.workspace_id
             AND c.integration_id = seen.integration_id
          RETURNING c.workspace_id, c.integration_id, c.epoch)
      SELECT f.more, m.epoch, 0::bigint AS delivery_id, s.event_id, s.workspace_id, s.integration_id, s.event_name,
             s.mapped_event, 0 AS attempts, s.telegram_id, s.session_id, s.user_data, s.received_at,
             s.limited_data_use, 0 AS change_seq, NULL::text AS previous_status, s.value, s.currency,
             coalesce(s.conversion_status, 'approved') AS conversion_status, $1 AS network,"""
      + DeliveryStore.CLICK_COLUMNS + """

        FROM (SELECT EXISTS (SELECT 1 FROM read WHERE overall > $3 OR n = $3) AS more) f
        LEFT JOIN (seen s
                   JOIN moved m ON m.workspace_id = s.workspace_id AND m.integration_id = s.integration_id
                   LEFT JOIN click_sessions c ON c.workspace_id = s.workspace_id AND c.session_id = s.session_id)
          ON s.mapped_event IS NOT NULL
       ORDER BY s.tx, s.event_id""";

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
   * The events to send past the network's cursors, up to {@code limit} read in all, their cursors leased for
   * {@code leaseMs}. While there may be more right behind and fewer than {@code limit} were taken, reads again (up
   * to {@code rounds} reads): a cursor far behind whose pages name none of its integration's events (a new webhook
   * in a busy workspace) catches up without waiting a scan interval per page; a leased one waits for its settle.
   */
  Future<Claim> take(Network network, int limit, long leaseMs, int rounds) {
    Claim taken = new Claim(new ArrayList<>(), new ArrayList<>(), false);
    return takeInto(taken, network, limit, leaseMs, rounds);
  }

  private Future<Claim> takeInto(Claim taken, Network network, int limit, long leaseMs, int rounds) {
    return pool.preparedQuery(HORIZON).execute(Tuple.tuple().addArrayOfString(eventFree))
        .compose(h -> pool.preparedQuery(TAKE).execute(Tuple.of(network.id, h.iterator().next().getString(0),
            limit, leaseMs, lateCommitIds())))
        .compose(rows -> {
          Claim more = collect(rows, taken);
          return more.more() && rounds > 1 && more.jobs().size() < limit
              ? takeInto(more, network, limit, leaseMs, rounds - 1) : Future.succeededFuture(more);
        });
  }

  /** Adds the events taken and their cursors' leases to {@code taken}, with whether there may be more behind. */
  private static Claim collect(RowSet<Row> rows, Claim taken) {
    boolean more = false;
    for (Row row : rows) {
      more = row.getBoolean("more");
      if (row.getLong("event_id") != null) {
        ClaimedDelivery job = ClaimedDelivery.of(row);
        taken.jobs().add(job);
        Claim.Lease lease = new Claim.Lease(job.workspaceId(), job.integrationId(), row.getLong("epoch"));
        if (!taken.leases().contains(lease)) {
          taken.leases().add(lease);
        }
      }
    }
    return new Claim(taken.jobs(), taken.leases(), more);
  }

  /** {@link #LATE_COMMIT} in event ids. */
  static long lateCommitIds() {
    return EventIds.firstIdAt(EventIds.EPOCH.plus(LATE_COMMIT));
  }
}
