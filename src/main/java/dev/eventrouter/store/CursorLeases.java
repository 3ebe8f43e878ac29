package dev.eventrouter.store;

import dev.eventrouter.config.Network;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

import java.util.List;
import java.util.UUID;

/**
 * How a take's hold on its cursors ends ({@link DeliveryCursors}): its settle, once its events have their outcomes,
 * or, when its node died or stalled past the lease, its lapse, settled by the next claim on any node.
 */
final class CursorLeases {

  /**
   * More events than one take reads past a cursor (at most a claim's limit: 4 batches of at most 1,000). The read of
   * a lapsed cursor's events is limited by it, and filtered after: without the limit, and with the filter inside,
   * PostgreSQL reads the last hour of every workspace's events by id instead (seconds, in bench/RESULTS.md).
   */
  static final int MOST_TAKEN = 10_000;

  /**
   * The cursors of network $1 whose holder's lease ran out before its settle (its node died, or stalled past the
   * lease), settled for it: each moved where that take would have moved it, under a new epoch (so the holder's late
   * settle moves nothing), and the rows of the events it took that have none yet made, due now, one claim counted.
   * They are then sent on the claim path, and a delivery whose processing kills its node every time is failed after
   * {@link DeliveryStore#MAX_CLAIMS} claims, as a row is; those with an outcome are not sent again.
   */
  static final String LAPSED = """
      WITH lapsed AS (
          SELECT workspace_id, integration_id, tx, event_id, floor_id, lease_tx, lease_event_id
            FROM delivery_cursors
           WHERE network = $1 AND lease_until <= now()
             FOR UPDATE SKIP LOCKED),
      moved AS (
          UPDATE delivery_cursors c
             SET tx = l.lease_tx, event_id = l.lease_event_id,
                 floor_id = greatest(c.floor_id, l.lease_event_id - $2), lease_until = NULL, epoch = c.epoch + 1,
                 updated_at = now()
            FROM lapsed l
           WHERE c.network = $1 AND c.workspace_id = l.workspace_id AND c.integration_id = l.integration_id)
      INSERT INTO deliveries (event_id, workspace_id, integration_id, network, mapped_event, status,
                              next_attempt_at, claims)
      SELECT e.event_id, l.workspace_id, l.integration_id, $1, e.deliver_to -> l.integration_id ->> 1, 'pending',
             now(), 1
        FROM lapsed l CROSS JOIN LATERAL (
            SELECT event_id, deliver_to FROM events
             WHERE workspace_id = l.workspace_id AND tx IS NOT NULL AND (tx, event_id) > (l.tx, l.event_id)
               AND (tx, event_id) <= (l.lease_tx, l.lease_event_id) AND event_id >= l.floor_id
             ORDER BY tx, event_id
             LIMIT %d) e
       WHERE e.deliver_to -> l.integration_id ->> 0 = $1
      ON CONFLICT DO NOTHING""".formatted(MOST_TAKEN);

  /**
   * Moves the cursors a take leased ($2 workspaces, $3 integrations, $4 epochs, of network $1) to the last event it
   * read, its floor kept $5 below, unless another take holds them now (a later epoch); and makes the row of each
   * event it took ($6 ids, $7 workspaces, $8 integrations, $9 names) that has none yet, due now, one claim counted:
   * its processing ended without an outcome, and the claims try it again, as they do a row whose lease ran out.
   */
  static final String SETTLE = """
      WITH moved AS (
          UPDATE delivery_cursors c
             SET tx = c.lease_tx, event_id = c.lease_event_id,
                 floor_id = greatest(c.floor_id, c.lease_event_id - $5), lease_until = NULL, updated_at = now()
            FROM unnest($2::uuid[], $3::text[], $4::bigint[]) AS l(workspace_id, integration_id, epoch)
           WHERE c.network = $1 AND c.workspace_id = l.workspace_id AND c.integration_id = l.integration_id
             AND c.epoch = l.epoch AND c.lease_until IS NOT NULL
          RETURNING c.workspace_id, c.integration_id)
      INSERT INTO deliveries (event_id, workspace_id, integration_id, network, mapped_event, status,
                              next_attempt_at, claims)
      SELECT j.event_id, j.workspace_id, j.integration_id, $1, j.mapped_event, 'pending', now(), 1
        FROM unnest($6::bigint[], $7::uuid[], $8::text[], $9::text[])
               AS j(event_id, workspace_id, integration_id, mapped_event)
        JOIN moved m ON m.workspace_id = j.workspace_id AND m.integration_id = j.integration_id
      ON CONFLICT DO NOTHING""";

  private final Pool pool;

  CursorLeases(Pool pool) {
    this.pool = pool;
  }

  /** Settles the cursors whose holder's lease ran out ({@link #LAPSED}). */
  Future<Void> lapsed(Network network) {
    return pool.preparedQuery(LAPSED).execute(Tuple.of(network.id, DeliveryCursors.lateCommitIds())).mapEmpty();
  }

  /**
   * Ends the leases a take holds: moves each cursor past what it took, unless another take holds it now, and makes
   * the rows of the events taken that got no outcome, {@code unsettled} (see {@link #SETTLE}).
   */
  Future<Void> settle(Network network, List<Claim.Lease> leases, List<ClaimedDelivery> unsettled) {
    if (leases.isEmpty()) {
      return Future.succeededFuture();
    }
    return pool.preparedQuery(SETTLE).execute(Tuple.of(network.id,
            leases.stream().map(Claim.Lease::workspaceId).toArray(UUID[]::new),
            leases.stream().map(Claim.Lease::integrationId).toArray(String[]::new),
            leases.stream().map(Claim.Lease::epoch).toArray(Long[]::new), DeliveryCursors.lateCommitIds())
        .addArrayOfLong(unsettled.stream().map(ClaimedDelivery::eventId).toArray(Long[]::new))
        .addArrayOfUUID(unsettled.stream().map(ClaimedDelivery::workspaceId).toArray(UUID[]::new))
        .addArrayOfString(unsettled.stream().map(ClaimedDelivery::integrationId).toArray(String[]::new))
        .addArrayOfString(unsettled.stream().map(ClaimedDelivery::mappedEvent).toArray(String[]::new)))
        .mapEmpty();
  }
}
