package dev.eventrouter.store;

import dev.eventrouter.store.ConversionChanges.Change;
import dev.eventrouter.store.ConversionChanges.EventGone;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

/**
 * SQL for conversions whose status or value can change, as reported under a sender's transaction id: the first report
 * takes the id for a new event; a later one is a change of the event that holds it ({@link ConversionChanges}).
 */
public final class ConversionStore {

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
  static final String PURGE_CONVERSIONS =
      "DELETE FROM conversions WHERE created_at < now() - make_interval(days => $1)";
  static final String PURGE_CHANGES =
      "DELETE FROM conversion_changes WHERE event_id < event_id_floor(now() - make_interval(days => $1))";

  /** The deliveries a conversion's change makes, by integration; worked out from the config by the caller. */
  public interface Plan {
    /** The integrations that take an event of this name at this status, and whether each takes it once. */
    List<Candidate> candidates(UUID workspaceId, String eventName, String status);

    /** The deliveries of a new event: every candidate that sends at its status, each made with it. */
    default List<NewEvent.Delivery> deliveries(UUID workspaceId, String eventName, String status) {
      return candidates(workspaceId, eventName, status).stream()
          .filter(Candidate::sends)
          .map(c -> new NewEvent.Delivery(c.integrationId(), c.network(), c.mappedEvent()))
          .toList();
    }
  }

  /**
   * One integration a change may go to.
   *
   * @param once     it takes each conversion once (an ad network), else every change (a webhook)
   * @param sends    it sends at this status ({@code send_on})
   * @param corrects what it took once is corrected after (Google Ads): a change to rejected or chargeback, or of the
   *                 value, goes to it whatever its {@code send_on}, as a retraction or restatement
   */
  public record Candidate(String integrationId, String network, String mappedEvent, boolean once, boolean sends,
                          boolean corrects) {}

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

  private final Pool pool;

  public ConversionStore(Pool pool) {
    this.pool = pool;
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
            return ConversionChanges.change(conn, holder, new Change(event.event().status(), event.event().value(),
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

  /** Deletes the conversions and changes of events past retention; returns how many rows. */
  public Future<Integer> purge(int retentionDays) {
    return pool.preparedQuery(PURGE_CONVERSIONS).execute(Tuple.of(retentionDays))
        .compose(a -> pool.preparedQuery(PURGE_CHANGES).execute(Tuple.of(retentionDays))
            .map(b -> a.rowCount() + b.rowCount()));
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
}
