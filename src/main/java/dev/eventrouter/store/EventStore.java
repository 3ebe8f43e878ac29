package dev.eventrouter.store;

import dev.eventrouter.bus.IngestRequest;
import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.session.Resolution;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * SQL for the events table and its Idempotency-Key claims. A whole batch is one statement (or, when some events
 * carry an Idempotency-Key, one transaction of three), with the rows passed as one JSON array parameter.
 */
public final class EventStore {

  /**
   * An event with the id it will be stored under, its resolved session, and the deliveries to create with it.
   */
  public record Pending(long eventId, IngestRequest request, Resolution session, List<Outbox> deliveries) {}

  /** One delivery to create: the integration (of the event's workspace), its network and the mapped event name. */
  public record Outbox(String integrationId, String network, String mappedEvent) {}

  /** What became of one pending event. */
  public sealed interface Outcome permits Stored, Conflict {}

  /** Stored now, or (replayed) stored earlier under the same Idempotency-Key with the same content. */
  public record Stored(long eventId, String sessionId, boolean replayed) implements Outcome {}

  /** The Idempotency-Key was used within 24 h with different content; nothing was stored. */
  public record Conflict() implements Outcome {}

  /**
   * Stores the events and, in the same statement, moves each user's last known session forward and writes the
   * outbox rows of the events actually inserted.
   */
  static final String INSERT_EVENTS = """
      WITH inserted AS (
          INSERT INTO events (event_id, workspace_id, event_name, telegram_id, session_id, session_source, value,
                              currency, user_data, idempotency_key, status, received_at)
          SELECT event_id, workspace_id, event_name, telegram_id, session_id, session_source, value, currency,
                 user_data, idempotency_key, 'processed', received_at
            FROM jsonb_to_recordset($1::jsonb) AS t(event_id bigint, workspace_id uuid, event_name text,
                 telegram_id bigint, session_id text, session_source text, value numeric, currency text,
                 user_data jsonb, idempotency_key text, received_at timestamptz)
          RETURNING event_id, workspace_id, telegram_id, session_id, received_at),
      outbox AS (
          INSERT INTO deliveries (event_id, workspace_id, integration_id, network, mapped_event, status,
                                  next_attempt_at)
          SELECT d.event_id, i.workspace_id, d.integration_id, d.network, d.mapped_event, 'pending', now()
            FROM jsonb_to_recordset($2::jsonb) AS d(event_id bigint, integration_id text, network text,
                 mapped_event text)
            JOIN inserted i ON i.event_id = d.event_id)
      INSERT INTO last_sessions (workspace_id, telegram_id, session_id, updated_at)
      SELECT DISTINCT ON (workspace_id, telegram_id) workspace_id, telegram_id, session_id, received_at
        FROM inserted WHERE session_id IS NOT NULL
       ORDER BY workspace_id, telegram_id, received_at DESC, event_id DESC
      ON CONFLICT (workspace_id, telegram_id) DO UPDATE
         SET session_id = EXCLUDED.session_id, updated_at = EXCLUDED.updated_at
       WHERE last_sessions.updated_at <= EXCLUDED.updated_at""";

  static final String FIND_EVENT = """
      SELECT event_id, workspace_id, event_name, telegram_id, session_id, session_source, value, currency, status,
             received_at
        FROM events WHERE event_id = $1 AND workspace_id = $2""";

  /** Claims each key unless a claim younger than 24 h holds it; returns the event ids whose claim won. */
  static final String CLAIM_KEYS = """
      INSERT INTO idempotency_keys (workspace_id, idempotency_key, request_hash, event_id, created_at)
      SELECT workspace_id, idempotency_key, request_hash, event_id, now()
        FROM jsonb_to_recordset($1::jsonb) AS t(workspace_id uuid, idempotency_key text, request_hash text,
             event_id bigint)
      ON CONFLICT (workspace_id, idempotency_key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, event_id = EXCLUDED.event_id, created_at = EXCLUDED.created_at
       WHERE idempotency_keys.created_at < now() - interval '24 hours'
      RETURNING event_id""";

  /** The standing claims of keys that lost; a separate statement, so it sees claims committed meanwhile. */
  static final String EXISTING_CLAIMS = """
      SELECT k.workspace_id, k.idempotency_key, k.request_hash, k.event_id, e.session_id
        FROM jsonb_to_recordset($1::jsonb) AS t(workspace_id uuid, idempotency_key text)
        JOIN idempotency_keys k USING (workspace_id, idempotency_key)
        JOIN events e ON e.event_id = k.event_id""";

  static final String PURGE_KEYS = "DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours'";

  private final Pool pool;
  private final Pool readPool;

  public EventStore(Pool pool, Pool readPool) {
    this.pool = pool;
    this.readPool = readPool;
  }

  /**
   * A failure caused by the data of a row rather than by the database being unavailable: SQLSTATE classes 22 (data
   * exception) and 23 (integrity constraint violation), https://www.postgresql.org/docs/current/errcodes-appendix.html
   */
  public static boolean isDataError(Throwable failure) {
    return failure instanceof PgException pg && pg.getSqlState() != null
        && (pg.getSqlState().startsWith("22") || pg.getSqlState().startsWith("23"));
  }

  public Future<List<Outcome>> insertBatch(List<Pending> batch) {
    boolean anyKey = batch.stream().anyMatch(p -> p.request().idempotencyKey() != null);
    if (!anyKey) {
      return insert(pool, batch).map(v -> outcomes(batch, Map.of(), Set.of()));
    }
    return retryOnce(() -> pool.withTransaction(conn -> insertWithKeys(conn, batch)));
  }

  /** The stored event as the status endpoint shows it, if it exists in that workspace. */
  public Future<Optional<JsonObject>> find(UUID workspaceId, long eventId) {
    return readPool.preparedQuery(FIND_EVENT).execute(Tuple.of(eventId, workspaceId)).map(rows -> {
      if (rows.size() == 0) {
        return Optional.empty();
      }
      Row row = rows.iterator().next();
      BigDecimal value = row.getBigDecimal("value");
      return Optional.of(new JsonObject()
          .put("event_id", EventIds.format(row.getLong("event_id")))
          .put("workspace_id", row.getUUID("workspace_id").toString())
          .put("event_name", row.getString("event_name"))
          .put("telegram_id", row.getLong("telegram_id"))
          .put("session_id", row.getString("session_id"))
          .put("session_source", row.getString("session_source"))
          .put("value", value == null ? null : value.toPlainString())
          .put("currency", row.getString("currency"))
          .put("status", row.getString("status"))
          .put("received_at", row.getOffsetDateTime("received_at").toInstant().toString()));
    });
  }

  /** Deletes Idempotency-Key claims older than 24 h; returns how many. */
  public Future<Integer> purgeExpiredKeys() {
    return pool.query(PURGE_KEYS).execute().map(rows -> rows.rowCount());
  }

  private Future<List<Outcome>> insertWithKeys(SqlClient conn, List<Pending> batch) {
    // One claim per (workspace, key): the first event with a key leads; later ones in the batch share its fate.
    // Claims go in one order everywhere, so two batches never wait on each other's keys crosswise.
    Map<KeyRef, Pending> leaders = new TreeMap<>(KeyRef.ORDER);
    for (Pending p : batch) {
      KeyRef ref = KeyRef.of(p);
      if (ref != null) {
        leaders.putIfAbsent(ref, p);
      }
    }
    return claim(conn, leaders).compose(won -> standingClaims(conn, leaders, won).compose(claims -> {
      List<Pending> toInsert = batch.stream().filter(p -> KeyRef.of(p) == null || won.contains(p.eventId())).toList();
      return insert(conn, toInsert).map(v -> outcomes(batch, claims, won));
    }));
  }

  /** Claims the leaders' keys; returns the event ids whose claim won. */
  private static Future<Set<Long>> claim(SqlClient conn, Map<KeyRef, Pending> leaders) {
    JsonArray claims = new JsonArray();
    leaders.forEach((ref, p) -> claims.add(ref.toJson()
        .put("request_hash", p.request().requestHash())
        .put("event_id", p.eventId())));
    return conn.preparedQuery(CLAIM_KEYS).execute(Tuple.of(claims)).map(rows -> {
      Set<Long> won = new HashSet<>();
      rows.forEach(row -> won.add(row.getLong(0)));
      return won;
    });
  }

  /** The claim that stands for each key after this batch: the leader's own if it won, otherwise the earlier one. */
  private static Future<Map<KeyRef, Claim>> standingClaims(SqlClient conn, Map<KeyRef, Pending> leaders,
                                                           Set<Long> won) {
    Map<KeyRef, Claim> claims = new HashMap<>();
    JsonArray lost = new JsonArray();
    leaders.forEach((ref, p) -> {
      if (won.contains(p.eventId())) {
        claims.put(ref, new Claim(p.request().requestHash(), p.eventId(), p.session().sessionId()));
      } else {
        lost.add(ref.toJson());
      }
    });
    if (lost.isEmpty()) {
      return Future.succeededFuture(claims);
    }
    return conn.preparedQuery(EXISTING_CLAIMS).execute(Tuple.of(lost)).map(rows -> {
      for (Row row : rows) {
        claims.put(new KeyRef(row.getUUID(0), row.getString(1)),
            new Claim(row.getString(2), row.getLong(3), row.getString(4)));
      }
      return claims;
    });
  }

  private static List<Outcome> outcomes(List<Pending> batch, Map<KeyRef, Claim> claims, Set<Long> won) {
    List<Outcome> outcomes = new ArrayList<>(batch.size());
    for (Pending p : batch) {
      KeyRef ref = KeyRef.of(p);
      if (ref == null) {
        outcomes.add(new Stored(p.eventId(), p.session().sessionId(), false));
        continue;
      }
      Claim claim = claims.get(ref);
      if (claim == null) {
        // The claim vanished between the two statements (purged at the 24 h edge): fail, so the client retries.
        throw new IllegalStateException("idempotency claim disappeared");
      }
      if (!claim.requestHash().equals(p.request().requestHash())) {
        outcomes.add(new Conflict());
      } else {
        outcomes.add(new Stored(claim.eventId(), claim.sessionId(), !won.contains(p.eventId())));
      }
    }
    return outcomes;
  }

  private static Future<Void> insert(SqlClient client, List<Pending> batch) {
    if (batch.isEmpty()) {
      return Future.succeededFuture();
    }
    JsonArray rows = new JsonArray();
    JsonArray deliveries = new JsonArray();
    for (Pending p : batch) {
      p.deliveries().forEach(d -> deliveries.add(new JsonObject().put("event_id", p.eventId())
          .put("integration_id", d.integrationId()).put("network", d.network()).put("mapped_event", d.mappedEvent())));
      ConversionEvent event = p.request().event();
      rows.add(new JsonObject()
          .put("event_id", p.eventId())
          .put("workspace_id", event.workspaceId().toString())
          .put("event_name", event.eventName())
          .put("telegram_id", event.telegramId())
          .put("session_id", p.session().sessionId())
          .put("session_source", p.session().source())
          .put("value", event.value())
          .put("currency", event.currency())
          .put("user_data", event.userData())
          .put("idempotency_key", p.request().idempotencyKey())
          .put("received_at", p.request().receivedAt().toString()));
    }
    return client.preparedQuery(INSERT_EVENTS).execute(Tuple.of(rows, deliveries)).mapEmpty();
  }

  /** Two batches claiming overlapping keys can still deadlock at the edges; PostgreSQL breaks it, we try again. */
  private static <T> Future<T> retryOnce(Supplier<Future<T>> attempt) {
    return attempt.get().recover(e -> {
      if (e instanceof PgException pg && ("40P01".equals(pg.getSqlState()) || "40001".equals(pg.getSqlState()))) {
        return attempt.get();
      }
      return Future.failedFuture(e);
    });
  }

  private record Claim(String requestHash, long eventId, String sessionId) {}

  private record KeyRef(UUID workspaceId, String key) {
    static final Comparator<KeyRef> ORDER =
        Comparator.comparing(KeyRef::workspaceId).thenComparing(KeyRef::key);

    static KeyRef of(Pending p) {
      String key = p.request().idempotencyKey();
      return key == null ? null : new KeyRef(p.request().event().workspaceId(), key);
    }

    JsonObject toJson() {
      return new JsonObject().put("workspace_id", workspaceId.toString()).put("idempotency_key", key);
    }
  }
}
