package dev.eventrouter.store;

import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.EventFilter;
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
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * SQL for the events table. A whole batch is one statement (or, when some events carry an Idempotency-Key, one
 * transaction with the key claims of {@link IdempotencyKeys}), with the rows passed column by column as typed arrays
 * ({@code unnest}): cheaper for PostgreSQL to read than one JSON array of rows.
 */
public final class EventStore implements EventWriter {

  /** A batch none of whose events has a delivery to make (no integration takes them): the events rows alone. */
  static final String INSERT_EVENTS = """
      INSERT INTO events (event_id, workspace_id, event_name, telegram_id, session_id, session_source, value,
                          currency, user_data, idempotency_key, status, received_at, limited_data_use,
                          conversion_status, transaction_id)
      SELECT event_id, workspace_id, event_name, telegram_id, session_id, session_source, value::numeric,
             currency, user_data::jsonb, idempotency_key, 'processed', received_at, limited_data_use::boolean,
             conversion_status, transaction_id
        FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[],
                    $8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::text[], $13::text[], $14::text[])
             AS t(event_id, workspace_id, event_name, telegram_id, session_id, session_source, value, currency,
                  user_data, idempotency_key, received_at, limited_data_use, conversion_status, transaction_id)""";

  /** A batch with deliveries: the events and, in the same statement, the outbox rows of the events inserted. */
  static final String INSERT_EVENTS_WITH_OUTBOX = "WITH inserted AS (\n" + INSERT_EVENTS + """

          RETURNING event_id, workspace_id)
      INSERT INTO deliveries (event_id, workspace_id, integration_id, network, mapped_event, status, next_attempt_at)
      SELECT d.event_id, i.workspace_id, d.integration_id, d.network, d.mapped_event, 'pending', now()
        FROM unnest($15::bigint[], $16::text[], $17::text[], $18::text[])
             AS d(event_id, integration_id, network, mapped_event)
        JOIN inserted i ON i.event_id = d.event_id""";

  /**
   * A conversion as it stands now: its last change (status, value), if it has one. The event row keeps what was
   * first received.
   */
  static final String LAST_CHANGE = """
        LEFT JOIN LATERAL (SELECT h.seq, h.status, h.value FROM conversion_changes h WHERE h.event_id = e.event_id
                            ORDER BY h.seq DESC LIMIT 1) last ON true""";

  /** The columns of a conversion now: its last change's status and value, else those it was received with. */
  static final String NOW = """
      coalesce(last.status, e.conversion_status, 'approved') AS current_status,
             CASE WHEN last.status IS NULL THEN e.value ELSE last.value END AS current_value""";

  /** One event, with the click its session captured, if any. */
  static final String FIND_EVENT = """
      SELECT e.event_id, e.workspace_id, e.event_name, e.telegram_id, e.session_id, e.session_source, e.value,
             e.currency, e.status, e.received_at, e.conversion_status, e.transaction_id, c.session_id AS click_session,
             c.fbclid, c.fbc, c.fbp, c.ttclid, c.ttp, c.client_ip, c.user_agent, c.landing_url, c.clicked_at, c.utm,
      """ + NOW + """

        FROM events e
        LEFT JOIN click_sessions c ON c.workspace_id = e.workspace_id AND c.session_id = e.session_id
      """ + LAST_CHANGE + """

       WHERE e.event_id = $1 AND e.workspace_id = $2""";

  /**
   * A page of a workspace's events, newest first, each with its deliveries' states: read down the
   * (workspace_id, event_id) index of the range's day partitions, the deliveries by their event's key.
   */
  private static final String LIST = """
      SELECT e.event_id, e.event_name, e.telegram_id, e.session_id, e.session_source, e.value, e.currency, e.status,
             e.received_at, e.conversion_status, e.transaction_id,
      """ + NOW + """
      ,
             coalesce((SELECT jsonb_agg(jsonb_build_object('integration_id', d.integration_id, 'network', d.network,
                                        'event_name', d.mapped_event, 'status', d.status, 'attempts', d.attempts)
                                        ORDER BY d.network, d.integration_id)
                         FROM deliveries d WHERE d.event_id = e.event_id), '[]'::jsonb) AS deliveries
        FROM events e
      """ + LAST_CHANGE + """

       WHERE e.workspace_id = $1 AND e.event_id >= $2 AND e.event_id < $3
         AND ($4::text IS NULL OR e.event_name = $4)
         AND ($5::text IS NULL OR e.session_source = $5)
         AND ($6::bigint IS NULL OR e.telegram_id = $6)
         AND (($7::text IS NULL AND $8::text[] IS NULL) OR EXISTS (
               SELECT 1 FROM deliveries d
                WHERE d.event_id = e.event_id AND ($7::text IS NULL OR d.integration_id = $7)
                  AND ($8::text[] IS NULL OR d.status = ANY($8))))
       ORDER BY e.event_id %s
       LIMIT $9""";

  static final String LIST_NEWEST_FIRST = LIST.replace("%s", "DESC");
  static final String LIST_OLDEST_FIRST = LIST.replace("%s", "ASC");

  /** A workspace's events since an event id ($2), counted by how their session was found. */
  static final String BY_SESSION_SOURCE = """
      SELECT session_source, count(*) AS n FROM events
       WHERE workspace_id = $1 AND event_id >= $2
       GROUP BY session_source""";

  private final Pool pool;
  private final Pool readPool;

  public EventStore(Pool pool, Pool readPool) {
    this.pool = pool;
    this.readPool = readPool;
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

  /** The stored event as the status endpoint shows it, if it exists in that workspace. */
  public Future<Optional<JsonObject>> find(UUID workspaceId, long eventId) {
    return readPool.preparedQuery(FIND_EVENT).execute(Tuple.of(eventId, workspaceId)).map(rows -> {
      if (rows.size() == 0) {
        return Optional.empty();
      }
      Row row = rows.iterator().next();
      return Optional.of(event(row).put("workspace_id", row.getUUID("workspace_id").toString())
          .put("click", click(row)));
    });
  }

  /** A page of the events a filter names, in its order, each with its deliveries' states. */
  public Future<JsonArray> list(EventFilter filter) {
    Tuple params = Tuple.of(filter.workspaceId(), filter.fromEventId(), filter.toEventId(), filter.eventName(),
        filter.sessionSource(), filter.telegramId(), filter.integrationId(),
        filter.deliveryStatuses() == null ? null : filter.deliveryStatuses().toArray(String[]::new))
        .addInteger(filter.limit());
    return readPool.preparedQuery(filter.oldestFirst() ? LIST_OLDEST_FIRST : LIST_NEWEST_FIRST).execute(params).map(rows -> {
      JsonArray events = new JsonArray();
      for (Row row : rows) {
        events.add(event(row).put("deliveries", row.getJsonArray("deliveries")));
      }
      return events;
    });
  }

  /** A workspace's events since an event id, counted by session source (sources without events left out). */
  public Future<JsonObject> countBySessionSource(UUID workspaceId, long fromEventId) {
    return readPool.preparedQuery(BY_SESSION_SOURCE).execute(Tuple.of(workspaceId, fromEventId)).map(rows -> {
      JsonObject counts = new JsonObject();
      rows.forEach(row -> counts.put(row.getString("session_source"), row.getLong("n")));
      return counts;
    });
  }

  /** The click the event's session captured, as captured, or null when it has none. */
  private static JsonObject click(Row row) {
    if (row.getString("click_session") == null) {
      return null;
    }
    JsonObject click = new JsonObject();
    for (String column : List.of("fbclid", "fbc", "fbp", "ttclid", "ttp", "client_ip", "user_agent", "landing_url")) {
      click.put(column, row.getString(column));
    }
    return click.put("clicked_at", row.getOffsetDateTime("clicked_at").toInstant().toString())
        .put("utm", row.getJson("utm"));
  }

  /** An event row as the API shows it. */
  private static JsonObject event(Row row) {
    BigDecimal value = row.getBigDecimal("current_value");
    return new JsonObject()
        .put("event_id", EventIds.format(row.getLong("event_id")))
        .put("event_name", row.getString("event_name"))
        .put("telegram_id", row.getLong("telegram_id"))
        .put("session_id", row.getString("session_id"))
        .put("session_source", row.getString("session_source"))
        .put("value", value == null ? null : value.toPlainString())
        .put("currency", row.getString("currency"))
        .put("status", row.getString("status"))
        .put("conversion_status", row.getString("current_status"))
        .put("transaction_id", row.getString("transaction_id"))
        .put("received_at", row.getOffsetDateTime("received_at").toInstant().toString());
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
    List<Long> deliveryEvents = new ArrayList<>();
    List<String> integrations = new ArrayList<>();
    List<String> networks = new ArrayList<>();
    List<String> mappedEvents = new ArrayList<>();
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
      for (NewEvent.Delivery d : e.deliveries()) {
        deliveryEvents.add(e.eventId());
        integrations.add(d.integrationId());
        networks.add(d.network());
        mappedEvents.add(d.mappedEvent());
      }
    }
    Tuple params = Tuple.tuple().addArrayOfLong(eventIds).addArrayOfUUID(workspaceIds).addArrayOfString(names)
        .addArrayOfLong(telegramIds).addArrayOfString(sessionIds).addArrayOfString(sources)
        .addArrayOfString(values).addArrayOfString(currencies).addArrayOfString(userData)
        .addArrayOfString(keys).addArrayOfOffsetDateTime(receivedAt).addArrayOfString(limitedDataUse)
        .addArrayOfString(conversionStatuses).addArrayOfString(transactionIds);
    if (deliveryEvents.isEmpty()) { // no outbox to write: the plain insert, cheaper for PostgreSQL to run
      return client.preparedQuery(INSERT_EVENTS).execute(params).mapEmpty();
    }
    params.addArrayOfLong(deliveryEvents.toArray(Long[]::new)).addArrayOfString(integrations.toArray(String[]::new))
        .addArrayOfString(networks.toArray(String[]::new)).addArrayOfString(mappedEvents.toArray(String[]::new));
    return client.preparedQuery(INSERT_EVENTS_WITH_OUTBOX).execute(params).mapEmpty();
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
