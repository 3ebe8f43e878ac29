package dev.eventrouter.store;

import dev.eventrouter.config.ConversionStatus;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * SQL for conversions whose status or value can change: the event a sender's transaction id made, each later change
 * (conversion_changes) and the deliveries each change makes. A change is written with its deliveries in one
 * transaction, under a lock on the event's row, so two reports of one conversion are applied one after the other.
 */
public final class ConversionStore {

  /** The reason of a JoinRequest conversion rejected because the subscriber left. */
  public static final String LEFT_CHANNEL = "left_channel";

  /** Where the JSON route's transaction ids live, apart from each partner's. */
  public static final String API_SOURCE = "api";

  /**
   * Takes the transaction id for a new event ($4), unless a standing one holds it; a key that only identifies the
   * conversion for a while ($5, its expiry) is taken over once it expired. Returns the event id that holds it now.
   */
  static final String TAKE_TRANSACTION = """
      INSERT INTO conversions (workspace_id, source, transaction_id, event_id, expires_at)
      VALUES ($1, $2, $3, $4, $5)
      ON CONFLICT (workspace_id, source, transaction_id) DO UPDATE
         SET event_id = EXCLUDED.event_id, created_at = now(), expires_at = EXCLUDED.expires_at
       WHERE conversions.expires_at < now()
      RETURNING event_id""";

  static final String HOLDER = """
      SELECT event_id FROM conversions WHERE workspace_id = $1 AND source = $2 AND transaction_id = $3""";

  /**
   * A transaction id whose event is gone (its day dropped by retention) is given to the new event; $4 the event
   * that held it.
   */
  static final String RETAKE = """
      UPDATE conversions SET event_id = $5, created_at = now()
       WHERE workspace_id = $1 AND source = $2 AND transaction_id = $3 AND event_id = $4""";

  /** Conversions and changes older than retention ($1 days): their events are gone with their partitions. */
  static final String PURGE_CONVERSIONS = "DELETE FROM conversions WHERE created_at < now() - make_interval(days => $1)";
  static final String PURGE_CHANGES =
      "DELETE FROM conversion_changes WHERE event_id < event_id_floor(now() - make_interval(days => $1))";

  /** The conversion as it stands, its event's row locked until the change is written. */
  static final String LOCK = """
      SELECT e.event_id, e.workspace_id, e.event_name, e.session_id, e.currency,
             coalesce(last.seq, 0) AS seq,
      """ + EventStore.NOW + """

        FROM events e
      """ + EventStore.LAST_CHANGE + """

       WHERE e.event_id = $1
         FOR UPDATE OF e""";

  static final String ADD_CHANGE = """
      INSERT INTO conversion_changes (event_id, seq, status, previous_status, value, currency, reason, origin)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)""";

  /**
   * The deliveries of one change ($3): one per candidate integration, except that an integration that sends a
   * conversion once ($7) gets none when the event has a delivery to it already. Returns their networks.
   */
  static final String CHANGE_DELIVERIES = """
      INSERT INTO deliveries (event_id, workspace_id, integration_id, network, mapped_event, status, next_attempt_at,
                              change_seq)
      SELECT $1, $2, d.integration_id, d.network, d.mapped_event, 'pending', now(), $3
        FROM unnest($4::text[], $5::text[], $6::text[], $7::boolean[]) AS d(integration_id, network, mapped_event, once)
       WHERE NOT (d.once AND EXISTS (SELECT 1 FROM deliveries x WHERE x.event_id = $1
                                                                  AND x.integration_id = d.integration_id))
      RETURNING network""";

  static final String HISTORY = """
      SELECT e.conversion_status, e.value, e.currency, e.received_at, e.session_source,
             (SELECT jsonb_agg(jsonb_build_object('seq', h.seq, 'status', h.status, 'previous_status',
                                                  h.previous_status, 'value', h.value::text, 'currency', h.currency,
                                                  'reason', h.reason, 'origin', h.origin, 'changed_at', h.changed_at)
                               ORDER BY h.seq)
                FROM conversion_changes h WHERE h.event_id = e.event_id) AS changes
        FROM events e WHERE e.event_id = $1""";

  /** The deliveries a conversion's change makes, by integration; worked out from the config by the caller. */
  public interface Plan {
    /** The integrations that take an event of this name at this status, and whether each takes it once. */
    List<Candidate> candidates(UUID workspaceId, String eventName, String status);

    /** The deliveries of a new event: every candidate, each made with it. */
    default List<NewEvent.Delivery> deliveries(UUID workspaceId, String eventName, String status) {
      return candidates(workspaceId, eventName, status).stream()
          .map(c -> new NewEvent.Delivery(c.integrationId(), c.network(), c.mappedEvent()))
          .toList();
    }
  }

  /** One integration a change may go to. */
  public record Candidate(String integrationId, String network, String mappedEvent, boolean once) {}

  /**
   * What a report did to its conversion.
   *
   * @param eventId   the conversion's event
   * @param sessionId that event's session
   * @param status    its status now
   * @param networks  the networks of the deliveries it made, to wake their forwarders
   */
  public record Result(long eventId, String sessionId, String status, List<String> networks) {}

  /** The JSON route's report: what the client is answered, and the networks whose forwarders have work. */
  public record Reported(WriteResult result, List<String> networks) {}

  /**
   * A change to apply to a stored conversion: the new status and value, why, and who said so.
   *
   * @param keepsValue whether the value stays what it is (a change of status alone), whatever {@code value} says
   */
  public record Change(String status, BigDecimal value, String currency, String reason, String origin,
                       boolean keepsValue) {

    /** A change of status alone. */
    public static Change status(String status, String reason, String origin) {
      return new Change(status, null, null, reason, origin, true);
    }
  }

  /** The JoinRequest a user's join through a per-visitor link recorded ($2), newest, within $3 days. */
  static final String JOIN = """
      SELECT event_id FROM events
       WHERE workspace_id = $1 AND telegram_id = $2 AND event_name = $4 AND session_id IS NOT NULL
         AND received_at > now() - make_interval(days => $3)
       ORDER BY received_at DESC LIMIT 1""";

  private final Pool pool;
  private final Pool readPool;

  public ConversionStore(Pool pool, Pool readPool) {
    this.pool = pool;
    this.readPool = readPool;
  }

  /**
   * A report of a conversion under its sender's transaction id: a new event (with the deliveries {@code event}
   * carries) when the id is new, else a change of the event that holds it. Within the caller's transaction.
   *
   * @param source       {@link #API_SOURCE} or a partner's {@code postback:<id>}
   * @param transactionId the sender's id of the conversion, or a key made from what identifies it
   * @param expiresAfterHours for a key that only identifies the conversion for a while, how long; 0 for a real id
   */
  static Future<Result> report(SqlClient conn, NewEvent event, String source, String transactionId,
                               int expiresAfterHours, Plan plan) {
    Tuple take = Tuple.of(event.event().workspaceId(), source, transactionId, event.eventId(),
        expiresAfterHours == 0 ? null : OffsetDateTime.now(ZoneOffset.UTC).plusHours(expiresAfterHours));
    return conn.preparedQuery(TAKE_TRANSACTION).execute(take).compose(taken -> {
      if (taken.size() > 0) {
        return insertNew(conn, event);
      }
      return conn.preparedQuery(HOLDER).execute(Tuple.of(event.event().workspaceId(), source, transactionId))
          .compose(held -> {
            long holder = held.iterator().next().getLong("event_id");
            return change(conn, holder, new Change(event.event().status(), event.event().value(),
                    event.event().currency(), null, source, false), plan)
                .recover(failure -> failure instanceof EventGone
                    ? conn.preparedQuery(RETAKE).execute(Tuple.of(event.event().workspaceId(), source,
                            transactionId, holder, event.eventId()))
                        .compose(v -> insertNew(conn, event))
                    : Future.failedFuture(failure));
          });
    });
  }

  private static Future<Result> insertNew(SqlClient conn, NewEvent event) {
    List<String> networks = event.deliveries().stream().map(NewEvent.Delivery::network).toList();
    return EventStore.insert(conn, List.of(event)).map(v -> new Result(event.eventId(),
        event.session().sessionId(), event.event().status(), networks));
  }

  /** The event a transaction id names no longer exists: retention dropped its day. */
  static final class EventGone extends RuntimeException {
    EventGone() {
      super("the conversion's event is past retention", null, false, false);
    }
  }

  /** Deletes the conversions and changes of events past retention; returns how many rows. */
  public Future<Integer> purge(int retentionDays) {
    return pool.preparedQuery(PURGE_CONVERSIONS).execute(Tuple.of(retentionDays))
        .compose(a -> pool.preparedQuery(PURGE_CHANGES).execute(Tuple.of(retentionDays))
            .map(b -> a.rowCount() + b.rowCount()));
  }

  /**
   * Applies a change to a stored conversion, within the caller's transaction: nothing when its status and value are
   * what they are already; otherwise the change is recorded, and the deliveries the plan names for its status made.
   */
  static Future<Result> change(SqlClient conn, long eventId, Change change, Plan plan) {
    return conn.preparedQuery(LOCK).execute(Tuple.of(eventId)).compose(rows -> {
      if (rows.size() == 0) {
        return Future.failedFuture(new EventGone());
      }
      Row row = rows.iterator().next();
      String before = row.getString("current_status");
      BigDecimal valueBefore = row.getBigDecimal("current_value");
      BigDecimal value = change.keepsValue() ? valueBefore : change.value();
      String sessionId = row.getString("session_id");
      if (before.equals(change.status()) && sameValue(valueBefore, value)) {
        return Future.succeededFuture(new Result(eventId, sessionId, before, List.of()));
      }
      int seq = row.getInteger("seq") + 1;
      UUID workspaceId = row.getUUID("workspace_id");
      String currency = change.currency() == null ? row.getString("currency") : change.currency();
      List<Candidate> candidates = plan.candidates(workspaceId, row.getString("event_name"), change.status());
      return conn.preparedQuery(ADD_CHANGE).execute(Tuple.of(eventId, seq, change.status(), before,
              value, currency, change.reason(),
              change.origin()))
          .compose(v -> candidates.isEmpty() ? Future.succeededFuture(List.<String>of())
              : conn.preparedQuery(CHANGE_DELIVERIES).execute(Tuple.of(eventId, workspaceId, seq)
                      .addArrayOfString(candidates.stream().map(Candidate::integrationId).toArray(String[]::new))
                      .addArrayOfString(candidates.stream().map(Candidate::network).toArray(String[]::new))
                      .addArrayOfString(candidates.stream().map(Candidate::mappedEvent).toArray(String[]::new))
                      .addArrayOfBoolean(candidates.stream().map(Candidate::once).toArray(Boolean[]::new)))
                  .map(DeliveryViews::networks))
          .map(networks -> new Result(eventId, sessionId, change.status(), networks));
    });
  }

  /**
   * A subscriber left the channel: the JoinRequest conversion their join through a per-visitor link recorded within
   * the last {@code windowDays} turns rejected, with reason {@code left_channel}. Empty when there is none.
   */
  public Future<Optional<Result>> leftChannel(UUID workspaceId, long telegramId, int windowDays,
                                                          String joinEvent, Plan plan) {
    return pool.withTransaction(conn -> conn.preparedQuery(JOIN)
        .execute(Tuple.of(workspaceId, telegramId, windowDays, joinEvent))
        .compose(rows -> rows.size() == 0 ? Future.succeededFuture(Optional.<Result>empty())
            : change(conn, rows.iterator().next().getLong(0),
                Change.status(ConversionStatus.REJECTED, LEFT_CHANNEL, "telegram"), plan)
                .map(Optional::of)));
  }

  /**
   * The JSON route's event that names a transaction id: its Idempotency-Key claimed as for any event (a replay
   * answers the first request, a reuse with another body conflicts), then reported. One transaction.
   */
  public Future<Reported> reportEvent(NewEvent event, Plan plan) {
    return pool.withTransaction(conn -> (event.idempotencyKey() == null
            ? Future.succeededFuture(IdempotencyKeys.Claims.NONE)
            : IdempotencyKeys.claim(conn, List.of(event)))
        .compose(claims -> {
          if (event.idempotencyKey() != null && !claims.won().contains(event.eventId())) {
            return Future.succeededFuture(new Reported(claims.results(List.of(event)).get(0), List.of()));
          }
          return report(conn, event, API_SOURCE, event.event().transactionId(), 0, plan).compose(result -> {
            Future<Void> keyMoved = event.idempotencyKey() == null || result.eventId() == event.eventId()
                ? Future.succeededFuture()
                // The key's claim names the event its replay answers: the conversion's, not an id never stored.
                : IdempotencyKeys.repoint(conn, event.event().workspaceId(), event.idempotencyKey(),
                    result.eventId());
            return keyMoved.map(v -> new Reported(new WriteResult.Stored(result.eventId(), result.sessionId(),
                false), result.networks()));
          });
        }));
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

  private static boolean sameValue(BigDecimal a, BigDecimal b) {
    return a == null ? b == null : b != null && a.compareTo(b) == 0;
  }
}
