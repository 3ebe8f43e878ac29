package dev.eventrouter.store;

import dev.eventrouter.event.ConversionEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The write path of the events table. A whole batch is one statement (or, when some events carry an Idempotency-Key,
 * one transaction with the key claims of {@link IdempotencyKeys}), with the rows passed column by column as typed
 * arrays ({@code unnest}): cheaper for PostgreSQL to read than one JSON array of rows. What the API reads of the
 * events is {@link EventViews}'s, on the read pool.
 */
public final class EventStore implements EventWriter {

  /**
   * A batch of events: one statement, the rows passed column by column. Each row names the integrations it is for
   * ({@code deliver_to}); the forwarders find it past their cursors and make its outbox rows then
   * ({@link DeliveryCursors}), so the ingest transaction writes the events alone. {@code tx} takes its default, the
   * transaction's id, the order those cursors read in.
   */
  static final String INSERT_EVENTS = """
      INSERT INTO events (event_id, workspace_id, event_name, telegram_id, session_id, session_source, value,
                          currency, user_data, idempotency_key, status, received_at, limited_data_use,
                          conversion_status, transaction_id, deliver_to)
      SELECT event_id, workspace_id, event_name, telegram_id, session_id, session_source, value::numeric,
             currency, user_data::jsonb, idempotency_key, 'processed', received_at, limited_data_use::boolean,
             conversion_status, transaction_id, deliver_to::jsonb
        FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[],
                    $8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::text[], $13::text[], $14::text[],
                    $15::text[])
             AS t(event_id, workspace_id, event_name, telegram_id, session_id, session_source, value, currency,
                  user_data, idempotency_key, received_at, limited_data_use, conversion_status, transaction_id,
                  deliver_to)""";

  private final Pool pool;

  public EventStore(Pool pool) {
    this.pool = pool;
  }

  /**
   * A failure caused by the data of a row rather than by the database being unavailable: SQLSTATE classes 22 (data
   * exception) and 23 (integrity constraint violation), https://www.postgresql.org/docs/current/errcodes-appendix.html.
   * Except a missing partition (also 23514): that is the server's fault, never the event's.
   */
  public static boolean isDataError(Throwable failure) {
    return failure instanceof PgException pg && pg.getSqlState() != null
        && (pg.getSqlState().startsWith("22") || pg.getSqlState().startsWith("23"))
        && !(pg.getErrorMessage() != null && pg.getErrorMessage().startsWith("no partition of relation"));
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

  /** Deletes Idempotency-Key claims older than 24 h; returns how many. */
  public Future<Integer> purgeExpiredKeys() {
    return IdempotencyKeys.purge(pool);
  }

  static Future<Void> insert(SqlClient client, List<NewEvent> batch) {
    if (batch.isEmpty()) {
      return Future.succeededFuture();
    }
    int n = batch.size();
    Long[] eventIds = new Long[n];
    UUID[] workspaceIds = new UUID[n];
    String[] names = new String[n];
    Long[] telegramIds = new Long[n];
    String[] sessionIds = new String[n];
    String[] sources = new String[n];
    // Values and user_data go as text: the client's array encoder does not take a null BigDecimal element.
    String[] values = new String[n];
    String[] currencies = new String[n];
    String[] userData = new String[n];
    String[] keys = new String[n];
    OffsetDateTime[] receivedAt = new OffsetDateTime[n];
    String[] limitedDataUse = new String[n]; // text too: null stays null, as for values
    String[] conversionStatuses = new String[n];
    String[] transactionIds = new String[n];
    String[] deliverTo = new String[n]; // jsonb as text, as user_data
    for (int i = 0; i < n; i++) {
      NewEvent e = batch.get(i);
      ConversionEvent event = e.event();
      eventIds[i] = e.eventId();
      workspaceIds[i] = event.workspaceId();
      names[i] = event.eventName();
      telegramIds[i] = event.telegramId();
      sessionIds[i] = e.session().sessionId();
      sources[i] = e.session().source();
      values[i] = event.value() == null ? null : event.value().toPlainString();
      currencies[i] = event.currency();
      userData[i] = event.userData() == null ? null : event.userData().encode();
      keys[i] = e.idempotencyKey();
      receivedAt[i] = e.receivedAt().atOffset(ZoneOffset.UTC);
      limitedDataUse[i] = event.limitedDataUse() == null ? null : event.limitedDataUse().toString();
      conversionStatuses[i] = event.conversionStatus();
      transactionIds[i] = event.transactionId();
      deliverTo[i] = deliverTo(e.deliveries());
    }
    Tuple params = Tuple.tuple().addArrayOfLong(eventIds).addArrayOfUUID(workspaceIds).addArrayOfString(names)
        .addArrayOfLong(telegramIds).addArrayOfString(sessionIds).addArrayOfString(sources)
        .addArrayOfString(values).addArrayOfString(currencies).addArrayOfString(userData)
        .addArrayOfString(keys).addArrayOfOffsetDateTime(receivedAt).addArrayOfString(limitedDataUse)
        .addArrayOfString(conversionStatuses).addArrayOfString(transactionIds).addArrayOfString(deliverTo);
    return client.preparedQuery(INSERT_EVENTS).execute(params).mapEmpty();
  }

  /** {"<integration>": ["<network>", "<mapped event>"]} of an event's deliveries, or null when it has none. */
  static String deliverTo(List<NewEvent.Delivery> deliveries) {
    if (deliveries.isEmpty()) {
      return null;
    }
    JsonObject to = new JsonObject();
    deliveries.forEach(d -> to.put(d.integrationId(), new JsonArray().add(d.network()).add(d.mappedEvent())));
    return to.encode();
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
