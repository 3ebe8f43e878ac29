package dev.eventrouter.store;

import dev.eventrouter.config.Network;
import dev.eventrouter.event.ClickData;
import dev.eventrouter.event.ClickSession;
import dev.eventrouter.event.DeliveryFilter;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.event.MatchKeys;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** SQL for the deliveries outbox. */
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
      RETURNING d.delivery_id, d.event_id, d.workspace_id, d.integration_id, e.event_name, d.mapped_event,
                d.attempts, e.telegram_id, e.session_id, e.user_data, e.received_at, e.limited_data_use,
                d.change_seq, h.previous_status,
                CASE WHEN h.seq IS NULL THEN e.value ELSE h.value END AS value,
                CASE WHEN h.seq IS NULL THEN e.currency ELSE h.currency END AS currency,
                CASE WHEN h.seq IS NULL THEN coalesce(e.conversion_status, 'approved') ELSE h.status END
                  AS conversion_status,
                c.session_id AS click_session, c.fbclid, c.fbc, c.fbp, c.ttclid, c.ttp, c.client_ip, c.user_agent,
                c.landing_url, c.clicked_at""".formatted(MAX_CLAIMS);

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

  private static final String BACKLOG = """
      SELECT count(*) FILTER (WHERE status = 'pending') AS pending,
             count(*) FILTER (WHERE status = 'retrying') AS retrying,
             coalesce(EXTRACT(EPOCH FROM now() - min(next_attempt_at) FILTER (WHERE next_attempt_at <= now())), 0)
               ::float8 AS overdue_s
        FROM deliveries
       WHERE network = $1 AND status IN ('pending', 'retrying')""";

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

  /**
   * The deliveries of one workspace ($1) that a {@link DeliveryFilter} names: events $2 <= id < $3, integration $4,
   * states $5, the bot's event name $6, after ($7, $8), at most $9. NULL matches all.
   */
  private static final String MATCHING = """
        FROM deliveries d JOIN events e ON e.event_id = d.event_id
       WHERE d.workspace_id = $1 AND d.event_id >= $2 AND d.event_id < $3
         AND ($4::text IS NULL OR d.integration_id = $4)
         AND d.status = ANY($5::text[])
         AND ($6::text IS NULL OR e.event_name = $6)
         AND (d.event_id, d.delivery_id) > ($7, $8)
       ORDER BY d.event_id, d.delivery_id
       LIMIT $9""";

  static final String LIST = """
      SELECT d.event_id, d.delivery_id, d.integration_id, d.network, e.event_name, d.mapped_event, d.status,
             d.attempts, d.last_error, d.delivered_at, d.updated_at
      """ + MATCHING;

  /** Re-queues the matching rows ($5: failed, expired or unconfirmed ones only), skipping any another call holds. */
  static final String REQUEUE_MATCHING = """
      WITH picked AS (
          SELECT d.event_id, d.delivery_id
      """ + MATCHING + """

             FOR UPDATE OF d SKIP LOCKED)
      UPDATE deliveries d SET status = 'pending', next_attempt_at = now(), claims = 0, updated_at = now()
        FROM picked
       WHERE d.event_id = picked.event_id AND d.delivery_id = picked.delivery_id
      RETURNING d.network""";

  static final String FOR_EVENT = """
      SELECT integration_id, network, mapped_event, status, attempts, last_error, delivered_at, payload,
             next_attempt_at, change_seq
        FROM deliveries WHERE event_id = $1 ORDER BY network, integration_id, change_seq""";

  static final String REQUEUE = """
      UPDATE deliveries SET status = 'pending', next_attempt_at = now(), claims = 0, updated_at = now()
       WHERE event_id = $1 AND workspace_id = $2 AND status IN ('failed', 'expired', 'unconfirmed')
      RETURNING network""";

  /** The most match keys a network has (bits counted by SUMMARY). */
  private static final int MATCH_KEY_BITS = MatchKeys.BY_NETWORK.values().stream().mapToInt(List::size).max()
      .orElse(0);

  /**
   * A workspace's deliveries of events since an event id ($2), by integration and state, with how many of them carry
   * match keys (the delivered, since match keys were stored) and how many carried each key (k0, k1, ...).
   */
  static final String SUMMARY = "SELECT integration_id, network, status, count(*) AS n, count(match_keys) AS keyed"
      + IntStream.range(0, MATCH_KEY_BITS)
          .mapToObj(bit -> ", count(*) FILTER (WHERE match_keys & " + (1 << bit) + " <> 0) AS k" + bit)
          .collect(Collectors.joining())
      + " FROM deliveries WHERE workspace_id = $1 AND event_id >= $2 GROUP BY integration_id, network, status";

  static final String WORKSPACE_PAUSES = """
      SELECT integration_id, reason, paused_at FROM integration_pauses WHERE workspace_id = $1""";

  /** The states whose next_attempt_at is a time something will happen (for the others it is a leftover). */
  private static final Set<String> WAITING = Set.of("pending", "retrying");

  private final Pool pool;
  private final Pool readPool;

  /** An attempt the network answered for good: refused ('failed'), or acknowledged only in part ('unconfirmed'). */
  private static String answered(String status) {
    return "UPDATE deliveries d SET status = '" + status + "', attempts = attempts + 1, last_error = $4, "
        + "payload = j.payload, claims = 0, updated_at = now()\n" + SENT_ROWS;
  }

  public DeliveryStore(Pool pool, Pool readPool) {
    this.pool = pool;
    this.readPool = readPool;
  }

  @Override
  public Future<List<ClaimedDelivery>> claim(Network network, int limit, long leaseMs) {
    return claimed(CLAIM, Tuple.of(network.id, limit, leaseMs));
  }

  private Future<List<ClaimedDelivery>> claimed(String claim, Tuple params) {
    return pool.preparedQuery(claim).execute(params).map(rows -> {
      List<ClaimedDelivery> jobs = new ArrayList<>();
      for (Row row : rows) {
        jobs.add(job(row));
      }
      return jobs;
    });
  }

  private static ClaimedDelivery job(Row row) {
    ClickData click = null;
    if (row.getString("click_session") != null) {
      click = ClickData.of(new ClickSession(row.getUUID("workspace_id"), row.getString("click_session"),
          row.getString("fbclid"), row.getString("fbc"), row.getString("fbp"), row.getString("ttclid"),
          row.getString("ttp"), row.getString("client_ip"), row.getString("user_agent"),
          row.getString("landing_url"), row.getOffsetDateTime("clicked_at").toInstant(), null));
    }
    Object userData = row.getJson("user_data");
    return new ClaimedDelivery(row.getLong("delivery_id"), row.getLong("event_id"), row.getUUID("workspace_id"),
        row.getString("integration_id"), row.getString("event_name"), row.getString("mapped_event"),
        row.getInteger("attempts"), row.getLong("telegram_id"), row.getString("session_id"),
        row.getBigDecimal("value"), row.getString("currency"),
        userData instanceof JsonObject json ? json : null, row.getOffsetDateTime("received_at").toInstant(), click,
        row.getBoolean("limited_data_use"), row.getString("conversion_status"), row.getString("previous_status"),
        row.getInteger("change_seq"));
  }

  @Override
  public Future<Void> delivered(List<ClaimedDelivery> jobs, List<JsonObject> payloads, int[] matchKeys) {
    return pool.preparedQuery(DELIVERED).execute(sent(jobs, payloads)
        .addArrayOfInteger(Arrays.stream(matchKeys).boxed().toArray(Integer[]::new))).mapEmpty();
  }

  @Override
  public Future<Void> retry(List<ClaimedDelivery> jobs, List<JsonObject> payloads, String error,
                            Instant nextAttempt) {
    return pool.preparedQuery(RETRY).execute(sent(jobs, payloads).addString(error)
        .addOffsetDateTime(nextAttempt.atOffset(ZoneOffset.UTC))).mapEmpty();
  }

  @Override
  public Future<Void> failed(List<ClaimedDelivery> jobs, List<JsonObject> payloads, String error) {
    return pool.preparedQuery(FAILED).execute(sent(jobs, payloads).addString(error)).mapEmpty();
  }

  @Override
  public Future<Void> unconfirmed(List<ClaimedDelivery> jobs, List<JsonObject> payloads, String reason) {
    return pool.preparedQuery(UNCONFIRMED).execute(sent(jobs, payloads).addString(reason)).mapEmpty();
  }

  @Override
  public Future<Void> end(List<ClaimedDelivery> jobs, String status, String reason) {
    return pool.preparedQuery(CLOSED).execute(claimed(jobs).addString(status).addString(reason)).mapEmpty();
  }

  @Override
  public Future<Void> dryRun(Map<ClaimedDelivery, JsonObject> payloads) {
    JsonArray rows = new JsonArray();
    payloads.forEach((job, payload) -> rows.add(new JsonObject().put("event_id", job.eventId())
        .put("delivery_id", job.deliveryId()).put("payload", payload)));
    return pool.preparedQuery(DRY_RUN).execute(Tuple.of(rows)).mapEmpty();
  }

  @Override
  public Future<Void> defer(List<ClaimedDelivery> jobs, Instant until) {
    return pool.preparedQuery(DEFER).execute(claimed(jobs).addOffsetDateTime(until.atOffset(ZoneOffset.UTC)))
        .mapEmpty();
  }

  @Override
  public Future<Boolean> pause(Pause pause, List<ClaimedDelivery> jobs) {
    return pool.preparedQuery(PAUSE).execute(claimed(jobs).addString(pause.network())
            .addUUID(pause.workspaceId()).addString(pause.integrationId()).addString(pause.reason())
            .addString(pause.tokenSha256()))
        .map(rows -> rows.iterator().next().getLong(0) > 0);
  }

  @Override
  public Future<Void> hold(List<ClaimedDelivery> jobs, String reason) {
    return pool.preparedQuery(HOLD).execute(claimed(jobs).addString(reason)).mapEmpty();
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

  /** The deliveries of an event, as the status endpoint shows them. */
  public Future<JsonArray> forEvent(long eventId) {
    return readPool.preparedQuery(FOR_EVENT).execute(Tuple.of(eventId)).map(rows -> {
      JsonArray deliveries = new JsonArray();
      for (Row row : rows) {
        // The payload of its last request (dry run: of the request it would have been), null before any.
        deliveries.add(state(row).put("event_name", row.getString("mapped_event"))
            .put("next_attempt_at", WAITING.contains(row.getString("status")) ? instant(row, "next_attempt_at") : null)
            .put("change", row.getInteger("change_seq"))
            .put("payload", row.getJson("payload")));
      }
      return deliveries;
    });
  }

  /** Re-queues the failed, expired and unconfirmed deliveries of an event; returns the networks to wake. */
  public Future<List<String>> requeue(UUID workspaceId, long eventId) {
    return pool.preparedQuery(REQUEUE).execute(Tuple.of(eventId, workspaceId)).map(DeliveryStore::networks);
  }

  /** The network of each row a statement returned (re-queued, or made). */
  static List<String> networks(RowSet<Row> rows) {
    List<String> networks = new ArrayList<>();
    rows.forEach(row -> networks.add(row.getString(0)));
    return networks;
  }

  /** What the API shows of any delivery: where it goes and how it stands. */
  private static JsonObject state(Row row) {
    return new JsonObject()
        .put("integration_id", row.getString("integration_id"))
        .put("network", row.getString("network"))
        .put("status", row.getString("status"))
        .put("attempts", row.getInteger("attempts"))
        .put("last_error", row.getString("last_error"))
        .put("delivered_at", instant(row, "delivered_at"));
  }

  /** The deliveries a filter names, in event order. */
  public Future<JsonArray> list(DeliveryFilter filter) {
    return readPool.preparedQuery(LIST).execute(matching(filter)).map(rows -> {
      JsonArray deliveries = new JsonArray();
      for (Row row : rows) {
        deliveries.add(state(row)
            .put("event_id", EventIds.format(row.getLong("event_id")))
            .put("delivery_id", row.getLong("delivery_id"))
            .put("event_name", row.getString("event_name"))
            .put("mapped_event", row.getString("mapped_event"))
            .put("updated_at", instant(row, "updated_at")));
      }
      return deliveries;
    });
  }

  /**
   * A workspace's integrations as their deliveries since {@code fromEventId} show them:
   * {@code {"integrations": {id: {"deliveries": {state: n}, "match_keys": {"deliveries": n, "share": {key: 0..1}}}},
   * "paused": {id: {"reason", "paused_at"}}}}; match keys only for networks that have them.
   */
  public Future<JsonObject> summary(UUID workspaceId, long fromEventId) {
    Future<RowSet<Row>> counts = readPool.preparedQuery(SUMMARY).execute(Tuple.of(workspaceId, fromEventId));
    Future<RowSet<Row>> pauses = readPool.preparedQuery(WORKSPACE_PAUSES).execute(Tuple.of(workspaceId));
    return Future.all(counts, pauses).map(v -> {
      JsonObject integrations = new JsonObject();
      for (Row row : counts.result()) {
        JsonObject integration = integrations.getJsonObject(row.getString("integration_id"));
        if (integration == null) {
          integration = new JsonObject().put("deliveries", new JsonObject());
          integrations.put(row.getString("integration_id"), integration);
        }
        integration.getJsonObject("deliveries").put(row.getString("status"), row.getLong("n"));
        addMatchKeys(integration, Network.valueOf(row.getString("network").toUpperCase(Locale.ROOT)), row);
      }
      JsonObject paused = new JsonObject();
      for (Row row : pauses.result()) {
        paused.put(row.getString("integration_id"), new JsonObject().put("reason", row.getString("reason"))
            .put("paused_at", instant(row, "paused_at")));
      }
      return new JsonObject().put("integrations", integrations).put("paused", paused);
    });
  }

  /** Adds this row's match-key counts to the integration's, and its shares of them. */
  private static void addMatchKeys(JsonObject integration, Network network, Row row) {
    List<String> keys = MatchKeys.BY_NETWORK.get(network);
    if (keys.isEmpty()) {
      return;
    }
    JsonObject coverage = integration.getJsonObject("match_keys", new JsonObject().put("deliveries", 0L)
        .put("carried", new JsonObject()));
    long keyed = coverage.getLong("deliveries") + row.getLong("keyed");
    JsonObject carried = coverage.getJsonObject("carried");
    JsonObject share = new JsonObject();
    for (int bit = 0; bit < keys.size(); bit++) {
      long n = carried.getLong(keys.get(bit), 0L) + row.getLong("k" + bit);
      carried.put(keys.get(bit), n);
      share.put(keys.get(bit), keyed == 0 ? null : Math.round(n * 1000.0 / keyed) / 1000.0);
    }
    integration.put("match_keys", coverage.put("deliveries", keyed).put("share", share));
  }

  /**
   * Re-queues the failed, expired or unconfirmed deliveries a filter names, at most its limit; returns their
   * networks.
   */
  public Future<List<String>> requeue(DeliveryFilter filter) {
    return pool.preparedQuery(REQUEUE_MATCHING).execute(matching(filter)).map(DeliveryStore::networks);
  }

  private static Tuple matching(DeliveryFilter filter) {
    return Tuple.of(filter.workspaceId(), filter.fromEventId(), filter.toEventId(), filter.integrationId(),
            filter.statuses().toArray(String[]::new), filter.eventName(), filter.afterEventId())
        .addLong(filter.afterDelivery()).addInteger(filter.limit());
  }

  /** A timestamp column as the API shows it (ISO-8601, UTC), or null. */
  static String instant(Row row, String column) {
    return row.getOffsetDateTime(column) == null ? null : row.getOffsetDateTime(column).toInstant().toString();
  }

  /**
   * What one network still has to send, from the partial index of due deliveries: how many pending and retrying,
   * and how long the longest-waiting due one has been due (zero when none is).
   */
  public Future<Backlog> backlog(Network network) {
    return readPool.preparedQuery(BACKLOG).execute(Tuple.of(network.id)).map(rows -> {
      Row row = rows.iterator().next();
      return new Backlog(row.getLong("pending"), row.getLong("retrying"), row.getDouble("overdue_s"));
    });
  }

  /** Deliveries to send (claimed ones under lease included), and the longest wait of a due one, in seconds. */
  public record Backlog(long pending, long retrying, double oldestDueSeconds) {}

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
