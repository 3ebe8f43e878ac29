package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * SQL of what becomes of claimed deliveries: each outcome one statement over a batch of them, updating the rows of
 * those claimed as rows and making the rows of those taken past a cursor ({@link ClaimedDelivery#rowless}), in the
 * state the outcome leaves them: a delivery sent in order and accepted is written once. The forwarders reach it
 * through {@link DeliveryStore}.
 */
final class DeliveryOutcomeStore implements DeliveryOutcomes {

  /**
   * The claimed rows an outcome applies to, $1 their event ids and $2 their delivery ids: a delivery is addressed by
   * both, so PostgreSQL reads only the partition of its event's day.
   */
  private static final String CLAIMED_ROWS = """
        FROM unnest($1::bigint[], $2::bigint[]) AS j(event_id, delivery_id)
       WHERE d.event_id = j.event_id AND d.delivery_id = j.delivery_id""";

  /**
   * The sent rows an outcome applies to: $1 event ids, $2 delivery ids (see CLAIMED_ROWS) and $3 the payload each
   * was sent with.
   */
  private static final String SENT_ROWS = """
        FROM unnest($1::bigint[], $2::bigint[], $3::jsonb[]) AS j(event_id, delivery_id, payload)
       WHERE d.event_id = j.event_id AND d.delivery_id = j.delivery_id""";

  /** $4: the match keys each carried, in the order of $1 and $2. */
  static final String DELIVERED = """
      UPDATE deliveries d SET status = 'delivered', attempts = attempts + 1, delivered_at = now(), last_error = NULL,
             match_keys = j.match_keys, payload = j.payload, claims = 0, updated_at = now()
        FROM unnest($1::bigint[], $2::bigint[], $3::jsonb[], $4::int[]) AS j(event_id, delivery_id, payload, match_keys)
       WHERE d.event_id = j.event_id AND d.delivery_id = j.delivery_id""";

  static final String RETRY = """
      UPDATE deliveries d SET status = 'retrying', attempts = attempts + 1, last_error = $4, next_attempt_at = $5,
             payload = j.payload, claims = 0, updated_at = now()
      """ + SENT_ROWS;

  static final String FAILED = answered("failed");

  static final String UNCONFIRMED = answered("unconfirmed");

  /** Ends without a request: expired, or no longer configured. Attempts are not spent. */
  static final String CLOSED = """
      UPDATE deliveries d SET status = $3, last_error = $4, claims = 0, updated_at = now()
      """ + CLAIMED_ROWS;

  /** Stores the payloads that would have been sent, one per delivery, in one statement. */
  static final String DRY_RUN = """
      UPDATE deliveries d SET status = 'dry_run', payload = p.payload, claims = 0, updated_at = now()
        FROM jsonb_to_recordset($1::jsonb) AS p(event_id bigint, delivery_id bigint, payload jsonb)
       WHERE d.event_id = p.event_id AND d.delivery_id = p.delivery_id""";

  /** Waits (breaker open) without spending an attempt. */
  static final String DEFER = """
      UPDATE deliveries d SET next_attempt_at = $3, claims = 0, updated_at = now()
      """ + CLAIMED_ROWS;

  /**
   * Pauses an integration ($3 network, $4 workspace, $5 integration, $6 reason, $7 token digest) unless it is
   * paused already, and holds the claimed rows ($1, $2) and every other row of it still to send. Returns 1 when
   * this call paused it.
   */
  static final String PAUSE = """
      WITH paused AS (
          INSERT INTO integration_pauses (network, workspace_id, integration_id, reason, token_sha256)
          VALUES ($3, $4, $5, $6, $7)
          ON CONFLICT (network, workspace_id, integration_id) DO NOTHING
          RETURNING 1),
      held AS (
          UPDATE deliveries d SET status = 'paused', last_error = $6, claims = 0, next_attempt_at = now(),
                 updated_at = now()
           WHERE d.network = $3 AND d.workspace_id = $4 AND d.integration_id = $5
             AND (d.status IN ('pending', 'retrying')
                  OR (d.event_id, d.delivery_id) IN (SELECT * FROM unnest($1::bigint[], $2::bigint[]))))
      SELECT count(*) FROM paused""";

  // A held row is due at once (its claim's lease dropped), so the next probe finds it: a probe that found none would
  // end the pause, and every held row would go out in one refused request.
  static final String HOLD = """
      UPDATE deliveries d SET status = 'paused', last_error = $3, claims = 0, next_attempt_at = now(),
             updated_at = now()
      """ + CLAIMED_ROWS;

  private final Pool pool;
  private final TakenOutcomes takenRows;

  /** An attempt the network answered for good: refused ('failed'), or acknowledged only in part ('unconfirmed'). */
  private static String answered(String status) {
    return "UPDATE deliveries d SET status = '" + status + "', attempts = attempts + 1, last_error = $4, "
        + "payload = j.payload, claims = 0, updated_at = now()\n" + SENT_ROWS;
  }

  DeliveryOutcomeStore(Pool pool) {
    this.pool = pool;
    this.takenRows = new TakenOutcomes(pool);
  }

  @Override
  public Future<Void> delivered(List<ClaimedDelivery> jobs, List<JsonObject> payloads, int[] matchKeys) {
    Integer[] keys = Arrays.stream(matchKeys).boxed().toArray(Integer[]::new);
    return TakenOutcomes.both(jobs,
        rows -> pool.preparedQuery(DELIVERED).execute(sent(rows, TakenOutcomes.pick(jobs, rows, payloads))
            .addArrayOfInteger(TakenOutcomes.pick(jobs, rows, Arrays.asList(keys)).toArray(Integer[]::new))),
        taken -> takenRows.make(taken, "delivered", 1, null, null, TakenOutcomes.pick(jobs, taken, payloads),
            TakenOutcomes.pick(jobs, taken, Arrays.asList(keys))));
  }

  @Override
  public Future<Void> retry(List<ClaimedDelivery> jobs, List<JsonObject> payloads, String error,
                            Instant nextAttempt) {
    return TakenOutcomes.both(jobs,
        rows -> pool.preparedQuery(RETRY).execute(sent(rows, TakenOutcomes.pick(jobs, rows, payloads))
            .addString(error).addOffsetDateTime(nextAttempt.atOffset(ZoneOffset.UTC))),
        taken -> takenRows.make(taken, "retrying", 1, error, nextAttempt, TakenOutcomes.pick(jobs, taken, payloads),
            List.of()));
  }

  @Override
  public Future<Void> failed(List<ClaimedDelivery> jobs, List<JsonObject> payloads, String error) {
    return answered(FAILED, "failed", jobs, payloads, error);
  }

  @Override
  public Future<Void> unconfirmed(List<ClaimedDelivery> jobs, List<JsonObject> payloads, String reason) {
    return answered(UNCONFIRMED, "unconfirmed", jobs, payloads, reason);
  }

  private Future<Void> answered(String update, String status, List<ClaimedDelivery> jobs, List<JsonObject> payloads,
                                String error) {
    return TakenOutcomes.both(jobs,
        rows -> pool.preparedQuery(update).execute(sent(rows, TakenOutcomes.pick(jobs, rows, payloads))
            .addString(error)),
        taken -> takenRows.make(taken, status, 1, error, null, TakenOutcomes.pick(jobs, taken, payloads), List.of()));
  }

  /** {@link DeliveryQueue#end}: like an outcome, but without a request. */
  Future<Void> end(List<ClaimedDelivery> jobs, String status, String reason) {
    return TakenOutcomes.both(jobs,
        rows -> pool.preparedQuery(CLOSED).execute(claimed(rows).addString(status).addString(reason)),
        taken -> takenRows.make(taken, status, 0, reason, null, List.of(), List.of()));
  }

  /** {@link DeliveryQueue#dryRun}: like an outcome, but without a request. */
  Future<Void> dryRun(Map<ClaimedDelivery, JsonObject> payloads) {
    List<ClaimedDelivery> jobs = List.copyOf(payloads.keySet());
    return TakenOutcomes.both(jobs, rows -> {
      JsonArray json = new JsonArray();
      rows.forEach(job -> json.add(new JsonObject().put("event_id", job.eventId())
          .put("delivery_id", job.deliveryId()).put("payload", payloads.get(job))));
      return pool.preparedQuery(DRY_RUN).execute(Tuple.of(json));
    }, taken -> takenRows.make(taken, "dry_run", 0, null, null, taken.stream().map(payloads::get).toList(),
        List.of()));
  }

  @Override
  public Future<Void> defer(List<ClaimedDelivery> jobs, Instant until) {
    return TakenOutcomes.both(jobs,
        rows -> pool.preparedQuery(DEFER).execute(claimed(rows).addOffsetDateTime(until.atOffset(ZoneOffset.UTC))),
        taken -> takenRows.make(taken, "pending", 0, null, until, List.of(), List.of()));
  }

  @Override
  public Future<Boolean> pause(Pause pause, List<ClaimedDelivery> jobs) {
    List<ClaimedDelivery> rows = jobs.stream().filter(job -> !job.rowless()).toList();
    List<ClaimedDelivery> taken = jobs.stream().filter(ClaimedDelivery::rowless).toList();
    return pool.preparedQuery(PAUSE).execute(claimed(rows).addString(pause.network())
            .addUUID(pause.workspaceId()).addString(pause.integrationId()).addString(pause.reason())
            .addString(pause.tokenSha256()))
        .map(result -> result.iterator().next().getLong(0) > 0)
        .compose(paused -> taken.isEmpty() ? Future.succeededFuture(paused)
            : takenRows.make(taken, "paused", 0, pause.reason(), null, List.of(), List.of()).map(paused));
  }

  @Override
  public Future<Void> hold(List<ClaimedDelivery> jobs, String reason) {
    return TakenOutcomes.both(jobs, rows -> pool.preparedQuery(HOLD).execute(claimed(rows).addString(reason)),
        taken -> takenRows.make(taken, "paused", 0, reason, null, List.of(), List.of()));
  }

  /** Of a claim's deliveries taken past a cursor, those no outcome made a row for (see {@link TakenOutcomes}). */
  List<ClaimedDelivery> withoutOutcome(List<ClaimedDelivery> taken) {
    return takenRows.withoutOutcome(taken);
  }

  /** $1 and $2 of {@link #CLAIMED_ROWS}. */
  private static Tuple claimed(List<ClaimedDelivery> jobs) {
    return Tuple.tuple()
        .addArrayOfLong(jobs.stream().map(ClaimedDelivery::eventId).toArray(Long[]::new))
        .addArrayOfLong(jobs.stream().map(ClaimedDelivery::deliveryId).toArray(Long[]::new));
  }

  /** The claimed rows and, in their order, the payload each was sent with. */
  private static Tuple sent(List<ClaimedDelivery> jobs, List<JsonObject> payloads) {
    return claimed(jobs).addArrayOfJsonObject(payloads.toArray(JsonObject[]::new));
  }
}
