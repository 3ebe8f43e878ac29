package dev.eventrouter.store;

import dev.eventrouter.config.Network;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * SQL of the deliveries outbox as the forwarders work it: claims, the pauses they read and end, and the backlog. What
 * becomes of a claimed delivery is {@link DeliveryOutcomeStore}'s, passed on from here; what the API shows of the
 * outbox, {@link DeliveryViews}'.
 */
public final class DeliveryStore implements DeliveryQueue {

  /**
   * How many claims of a delivery in a row may end without an outcome (its processing failed, or its node died)
   * before the next claim fails it instead of sending it again (poison-row quarantine): a lease's expiry while the
   * first claim still works, or a crash, comes back once or twice; a row that fails its forwarder every time, forever.
   */
  public static final int MAX_CLAIMS = 5;
  /** The last_error of a delivery failed so. */
  static final String QUARANTINED = "could not be processed: " + MAX_CLAIMS
      + " claims of it in a row ended without an outcome";

  /**
   * The click session's columns {@link ClaimedDelivery#of} reads, last in every statement that claims rows (c:
   * click_sessions).
   */
  static final String CLICK_COLUMNS = """
                c.session_id AS click_session, c.fbclid, c.fbc, c.fbp, c.ttclid, c.ttp, c.client_ip, c.user_agent,
                c.landing_url, c.clicked_at, c.gclid, c.gbraid, c.wbraid, c.sccid, c.scid""";

  /**
   * The lease a claim takes on the rows of {@code due} (each with its {@code claims}), returning what the payload is
   * built from; not on a row past {@link #MAX_CLAIMS}.
   */
  private static final String LEASE = """
      UPDATE deliveries d
         SET next_attempt_at = now() + make_interval(secs => $3::double precision / 1000), claims = d.claims + 1,
             updated_at = now()
        FROM due
        JOIN events e ON e.event_id = due.event_id
        LEFT JOIN click_sessions c ON c.workspace_id = e.workspace_id AND c.session_id = e.session_id
        LEFT JOIN conversion_changes h ON h.event_id = due.event_id AND h.seq = due.change_seq
       WHERE d.event_id = due.event_id AND d.delivery_id = due.delivery_id AND due.claims < %d
      RETURNING d.delivery_id, d.event_id, d.workspace_id, d.integration_id, d.network, e.event_name, d.mapped_event,
                d.attempts, e.telegram_id, e.session_id, e.user_data, e.received_at, e.limited_data_use,
                d.change_seq, h.previous_status,
                CASE WHEN h.seq IS NULL THEN e.value ELSE h.value END AS value,
                CASE WHEN h.seq IS NULL THEN e.currency ELSE h.currency END AS currency,
                CASE WHEN h.seq IS NULL THEN coalesce(e.conversion_status, 'approved') ELSE h.status END
                  AS conversion_status,
      """.formatted(MAX_CLAIMS) + CLICK_COLUMNS;

  /**
   * Claims due deliveries of one network: SKIP LOCKED, so nodes claiming at once never take the same row, and a
   * lease (next_attempt_at moved forward) instead of a lock held while sending, so the work of a node that dies
   * comes due again by itself. Returns what the payload is built from, click data included. A due row whose last
   * {@link #MAX_CLAIMS} claims all ended without an outcome is failed instead, and not returned.
   */
  static final String CLAIM = """
      WITH due AS (
          SELECT delivery_id, event_id, claims, change_seq FROM deliveries
           WHERE network = $1 AND status IN ('pending', 'retrying') AND next_attempt_at <= now()
           ORDER BY next_attempt_at
           LIMIT $2
           FOR UPDATE SKIP LOCKED),
      quarantined AS (
          UPDATE deliveries d SET status = 'failed', claims = 0, last_error = '%s', updated_at = now()
            FROM due
           WHERE d.event_id = due.event_id AND d.delivery_id = due.delivery_id AND due.claims >= %d)
      """.formatted(QUARANTINED, MAX_CLAIMS) + LEASE;

  /** One held delivery of a paused integration ($4 workspace, $5 integration), the oldest, for a probe. */
  static final String CLAIM_HELD = """
      WITH due AS (
          SELECT delivery_id, event_id, 0 AS claims, change_seq FROM deliveries
           WHERE workspace_id = $4 AND integration_id = $5 AND network = $1 AND status = 'paused'
             AND next_attempt_at <= now()
           ORDER BY event_id
           LIMIT $2
           FOR UPDATE SKIP LOCKED)
      """ + LEASE;

  static final String PAUSES = """
      SELECT network, workspace_id, integration_id, reason, token_sha256, paused_at
        FROM integration_pauses WHERE network = $1""";

  /**
   * Ends a pause ($1 network, $2 workspace, $3 integration): its held rows are due now. Returns 1 if it ended it.
   * With $4 true, only when it holds no row (a probe found none due: none is held, unless another node's probe has
   * one in flight).
   */
  static final String RESUME = """
      WITH ended AS (
          DELETE FROM integration_pauses WHERE network = $1 AND workspace_id = $2 AND integration_id = $3
             AND (NOT $4 OR NOT EXISTS (SELECT 1 FROM deliveries WHERE workspace_id = $2 AND integration_id = $3
                                         AND network = $1 AND status = 'paused'))
          RETURNING 1),
      released AS (
          UPDATE deliveries SET status = 'pending', next_attempt_at = now(), last_error = NULL, updated_at = now()
           WHERE workspace_id = $2 AND integration_id = $3 AND network = $1 AND status = 'paused'
             AND EXISTS (SELECT 1 FROM ended))
      SELECT count(*) FROM ended""";

  /** How many pages a claim reads past cursors that keep reading full pages (see {@link DeliveryCursors#take}). */
  static final int TAKE_ROUNDS = 8;

  private final Pool pool;
  private final Pool readPool;
  private final DeliveryOutcomeStore outcomes;
  private final DeliveryCursors cursors;
  private final CursorLeases leases;

  /**
   * @param eventFree the application_name of the database sessions that never store events (the read pools', the
   *                  background work's): the cursors do not wait for their transactions to end
   */
  public DeliveryStore(Pool pool, Pool readPool, List<String> eventFree) {
    this.pool = pool;
    this.readPool = readPool;
    this.outcomes = new DeliveryOutcomeStore(pool);
    this.cursors = new DeliveryCursors(pool, eventFree);
    this.leases = new CursorLeases(pool);
  }

  /**
   * The due rows (retries, held rows released, status changes, redeliveries, work a stopped node left, the events
   * of a cursor whose holder died), then the new events past the network's cursors, the cursors leased
   * ({@link DeliveryCursors}): up to {@code limit} of each, so a steady stream of new events never keeps a retry
   * waiting.
   */
  @Override
  public Future<Claim> claim(Network network, int limit, long leaseMs) {
    return leases.lapsed(network)
        .compose(v -> claimed(CLAIM, Tuple.of(network.id, limit, leaseMs)))
        .compose(due -> cursors.take(network, limit, leaseMs, TAKE_ROUNDS).map(taken -> {
          List<ClaimedDelivery> jobs = new ArrayList<>(due);
          jobs.addAll(taken.jobs());
          return new Claim(jobs, taken.leases(), taken.more() || due.size() >= limit);
        }));
  }

  @Override
  public Future<Void> settle(Network network, Claim claim) {
    return leases.settle(network, claim.leases(),
        outcomes.withoutOutcome(claim.jobs().stream().filter(ClaimedDelivery::rowless).toList()));
  }

  @Override
  public Future<Void> follow(Network network, List<UUID> workspaces, List<String> integrations) {
    return cursors.ensure(network, workspaces, integrations);
  }

  private Future<List<ClaimedDelivery>> claimed(String claim, Tuple params) {
    return pool.preparedQuery(claim).execute(params).map(rows -> {
      List<ClaimedDelivery> jobs = new ArrayList<>();
      for (Row row : rows) {
        jobs.add(ClaimedDelivery.of(row));
      }
      return jobs;
    });
  }

  @Override
  public Future<Void> delivered(List<ClaimedDelivery> jobs, List<JsonObject> payloads, int[] matchKeys) {
    return outcomes.delivered(jobs, payloads, matchKeys);
  }

  @Override
  public Future<Void> retry(List<ClaimedDelivery> jobs, List<JsonObject> payloads, String error,
                            Instant nextAttempt) {
    return outcomes.retry(jobs, payloads, error, nextAttempt);
  }

  @Override
  public Future<Void> failed(List<ClaimedDelivery> jobs, List<JsonObject> payloads, String error) {
    return outcomes.failed(jobs, payloads, error);
  }

  @Override
  public Future<Void> unconfirmed(List<ClaimedDelivery> jobs, List<JsonObject> payloads, String reason) {
    return outcomes.unconfirmed(jobs, payloads, reason);
  }

  @Override
  public Future<Void> end(List<ClaimedDelivery> jobs, String status, String reason) {
    return outcomes.end(jobs, status, reason);
  }

  @Override
  public Future<Void> dryRun(Map<ClaimedDelivery, JsonObject> payloads) {
    return outcomes.dryRun(payloads);
  }

  @Override
  public Future<Void> defer(List<ClaimedDelivery> jobs, Instant until) {
    return outcomes.defer(jobs, until);
  }

  @Override
  public Future<Boolean> pause(Pause pause, List<ClaimedDelivery> jobs) {
    return outcomes.pause(pause, jobs);
  }

  @Override
  public Future<Void> hold(List<ClaimedDelivery> jobs, String reason) {
    return outcomes.hold(jobs, reason);
  }

  @Override
  public Future<List<Pause>> pauses(Network network) {
    return pool.preparedQuery(PAUSES).execute(Tuple.of(network.id)).map(Pause::of);
  }

  @Override
  public Future<Boolean> resume(Pause pause, boolean onlyIfNoneHeld) {
    return pool.preparedQuery(RESUME)
        .execute(Tuple.of(pause.network(), pause.workspaceId(), pause.integrationId(), onlyIfNoneHeld))
        .map(rows -> rows.iterator().next().getLong(0) > 0);
  }

  @Override
  public Future<List<ClaimedDelivery>> claimHeld(Pause pause, long leaseMs) {
    return claimed(CLAIM_HELD, Tuple.of(pause.network(), 1, leaseMs, pause.workspaceId(), pause.integrationId()));
  }

  /** What one network still has to send ({@link DeliveryBacklog}). */
  public Future<DeliveryBacklog> backlog(Network network) {
    return DeliveryBacklog.read(readPool, network);
  }
}
