package dev.eventrouter.store;

import dev.eventrouter.config.ConversionStatus;
import dev.eventrouter.event.ClickIds;
import dev.eventrouter.event.EventFilter;
import dev.eventrouter.event.EventIds;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The events as the API and the debugger read them: one with its click and its status history, a page of them,
 * counts by session source. All on the read pool, so a long read never keeps {@link EventStore}'s writes waiting.
 */
public final class EventViews {

  /** One event, with the click its session captured, if any. */
  static final String FIND_EVENT = """
      SELECT e.event_id, e.workspace_id, e.event_name, e.telegram_id, e.session_id, e.session_source, e.value,
             e.currency, e.status, e.received_at, e.conversion_status, e.transaction_id, c.session_id AS click_session,
             c.fbclid, c.fbc, c.fbp, c.ttclid, c.ttp, c.client_ip, c.user_agent, c.landing_url, c.clicked_at, c.utm,
             c.gclid, c.gbraid, c.wbraid, c.sccid, c.scid,
      """ + ConversionChanges.NOW + """

        FROM events e
        LEFT JOIN click_sessions c ON c.workspace_id = e.workspace_id AND c.session_id = e.session_id
      """ + ConversionChanges.LAST_CHANGE + """

       WHERE e.event_id = $1 AND e.workspace_id = $2
         AND ($3::text[] IS NULL OR c.ad->>'campaign_id' = ANY($3::text[]))""";

  /**
   * A page of a workspace's events, newest first, each with its deliveries' states: read down the
   * (workspace_id, event_id) index of the range's day partitions, the deliveries by their event's key.
   */
  private static final String LIST = """
      SELECT e.event_id, e.event_name, e.telegram_id, e.session_id, e.session_source, e.value, e.currency, e.status,
             e.received_at, e.conversion_status, e.transaction_id,
      """ + ConversionChanges.NOW + """
      ,
             coalesce((SELECT jsonb_agg(jsonb_build_object('integration_id', d.integration_id, 'network', d.network,
                                        'event_name', d.mapped_event, 'status', d.status, 'attempts', d.attempts)
                                        ORDER BY d.network, d.integration_id)
                         FROM deliveries d WHERE d.event_id = e.event_id), '[]'::jsonb) AS deliveries
        FROM events e
      """ + ConversionChanges.LAST_CHANGE + """

       WHERE e.workspace_id = $1 AND e.event_id >= $2 AND e.event_id < $3
         AND ($4::text IS NULL OR e.event_name = $4)
         AND ($5::text IS NULL OR e.session_source = $5)
         AND ($6::bigint IS NULL OR e.telegram_id = $6)
         AND (($7::text IS NULL AND $8::text[] IS NULL) OR EXISTS (
               SELECT 1 FROM deliveries d
                WHERE d.event_id = e.event_id AND ($7::text IS NULL OR d.integration_id = $7)
                  AND ($8::text[] IS NULL OR d.status = ANY($8))))
         AND """ + ScopeSql.events("e", 10) + """
       ORDER BY e.event_id %s
       LIMIT $9""";

  static final String LIST_NEWEST_FIRST = LIST.replace("%s", "DESC");
  static final String LIST_OLDEST_FIRST = LIST.replace("%s", "ASC");

  /** A workspace's events since an event id ($2), counted by how their session was found. */
  static final String BY_SESSION_SOURCE = """
      SELECT session_source, count(*) AS n FROM events
       WHERE workspace_id = $1 AND event_id >= $2
       GROUP BY session_source""";

  /** An event's conversion as first received, with every change since. */
  static final String HISTORY = """
      SELECT e.conversion_status, e.value, e.currency, e.received_at, e.session_source,
             (SELECT jsonb_agg(jsonb_build_object('seq', h.seq, 'status', h.status, 'previous_status',
                                                  h.previous_status, 'value', h.value::text, 'currency', h.currency,
                                                  'reason', h.reason, 'origin', h.origin, 'changed_at', h.changed_at)
                               ORDER BY h.seq)
                FROM conversion_changes h WHERE h.event_id = e.event_id) AS changes
        FROM events e WHERE e.event_id = $1""";

  private final Pool readPool;

  public EventViews(Pool readPool) {
    this.readPool = readPool;
  }

  /**
   * The stored event as the status endpoint shows it, if it exists in that workspace (and, for a buyer, its click
   * names one of {@code campaigns}; null: any).
   */
  public Future<Optional<JsonObject>> find(UUID workspaceId, long eventId, String[] campaigns) {
    return readPool.preparedQuery(FIND_EVENT).execute(Tuple.of(eventId, workspaceId, campaigns)).map(rows -> {
      if (rows.size() == 0) {
        return Optional.empty();
      }
      Row row = rows.iterator().next();
      return Optional.of(event(row).put("workspace_id", row.getUUID("workspace_id").toString())
          .put("click", click(row)));
    });
  }

  /**
   * A page of the events a filter names (of sessions whose click names one of {@code campaigns}; null: any), in its
   * order, each with its deliveries' states.
   */
  public Future<JsonArray> list(EventFilter filter, String[] campaigns) {
    Tuple params = Tuple.of(filter.workspaceId(), filter.fromEventId(), filter.toEventId(), filter.eventName(),
        filter.sessionSource(), filter.telegramId(), filter.integrationId(),
        filter.deliveryStatuses() == null ? null : filter.deliveryStatuses().toArray(String[]::new))
        .addInteger(filter.limit()).addArrayOfString(campaigns);
    String list = filter.oldestFirst() ? LIST_OLDEST_FIRST : LIST_NEWEST_FIRST;
    return readPool.preparedQuery(list).execute(params).map(rows -> {
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

  /**
   * The conversion's history: as first received, then each change. Empty when the event does not exist; the
   * caller has checked its workspace.
   */
  public Future<JsonArray> history(long eventId) {
    return readPool.preparedQuery(HISTORY).execute(Tuple.of(eventId)).map(rows -> {
      JsonArray history = new JsonArray();
      if (rows.size() == 0) {
        return history;
      }
      Row row = rows.iterator().next();
      BigDecimal value = row.getBigDecimal("value");
      history.add(new JsonObject().put("seq", 0)
          .put("status", ConversionStatus.orApproved(row.getString("conversion_status")))
          .put("previous_status", null)
          .put("value", value == null ? null : value.toPlainString()).put("currency", row.getString("currency"))
          .put("reason", null).put("origin", row.getString("session_source").equals("postback") ? "postback" : "api")
          .put("changed_at", row.getOffsetDateTime("received_at").toInstant().toString()));
      Object changes = row.getJson("changes");
      if (changes instanceof JsonArray list) {
        list.forEach(history::add);
      }
      return history;
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
    for (String column : ClickIds.NAMES) {
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
}
