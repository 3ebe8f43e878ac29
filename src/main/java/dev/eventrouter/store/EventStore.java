package dev.eventrouter.store;

import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.EventIds;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * SQL for the events table. A whole batch is one statement (or, when some events carry an Idempotency-Key, one
 * transaction with the key claims of {@link IdempotencyKeys}), with the rows passed as one JSON array parameter.
 */
public final class EventStore implements EventWriter {

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

  @Override
  public Future<List<WriteResult>> insertBatch(List<NewEvent> batch) {
    boolean anyKey = batch.stream().anyMatch(e -> e.idempotencyKey() != null);
    if (!anyKey) {
      return insert(pool, batch).map(v -> IdempotencyKeys.Claims.NONE.results(batch));
    }
    return retryOnce(() -> pool.withTransaction(conn -> IdempotencyKeys.claim(conn, batch)
        .compose(claims -> insert(conn, claims.toInsert(batch)).map(v -> claims.results(batch)))));
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
    return IdempotencyKeys.purge(pool);
  }

  private static Future<Void> insert(SqlClient client, List<NewEvent> batch) {
    if (batch.isEmpty()) {
      return Future.succeededFuture();
    }
    JsonArray rows = new JsonArray();
    JsonArray deliveries = new JsonArray();
    for (NewEvent e : batch) {
      e.deliveries().forEach(d -> deliveries.add(new JsonObject().put("event_id", e.eventId())
          .put("integration_id", d.integrationId()).put("network", d.network()).put("mapped_event", d.mappedEvent())));
      ConversionEvent event = e.event();
      rows.add(new JsonObject()
          .put("event_id", e.eventId())
          .put("workspace_id", event.workspaceId().toString())
          .put("event_name", event.eventName())
          .put("telegram_id", event.telegramId())
          .put("session_id", e.session().sessionId())
          .put("session_source", e.session().source())
          .put("value", event.value())
          .put("currency", event.currency())
          .put("user_data", event.userData())
          .put("idempotency_key", e.idempotencyKey())
          .put("received_at", e.receivedAt().toString()));
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
}
