package dev.eventrouter.store;

import dev.eventrouter.config.ConversionStatus;
import dev.eventrouter.store.ConversionStore.Candidate;
import dev.eventrouter.store.ConversionStore.Plan;
import dev.eventrouter.store.ConversionStore.Result;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The status changes of a stored conversion (conversion_changes) and the deliveries each change makes. A change is
 * written with its deliveries in one transaction, under a lock on the event's row, so two reports of one conversion
 * are applied one after the other. The first write of a conversion is {@link ConversionStore}'s.
 */
public final class ConversionChanges {

  /** The reason of a JoinRequest conversion rejected because the subscriber left. */
  public static final String LEFT_CHANNEL = "left_channel";

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

  /** The conversion as it stands, its event's row locked until the change is written. */
  static final String LOCK = """
      SELECT e.event_id, e.workspace_id, e.event_name, e.session_id, e.currency,
             coalesce(last.seq, 0) AS seq,
      """ + NOW + """

        FROM events e
      """ + LAST_CHANGE + """

       WHERE e.event_id = $1
         FOR UPDATE OF e""";

  static final String ADD_CHANGE = """
      INSERT INTO conversion_changes (event_id, seq, status, previous_status, value, currency, reason, origin)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8)""";

  /**
   * The deliveries of one change ($3): one per candidate integration, except that an integration that sends a
   * conversion once ($7) gets none when the event has a delivery to it already: made, or named by the event for its
   * forwarder to make ({@code deliver_to}, {@link DeliveryCursors}). Returns their networks.
   */
  static final String CHANGE_DELIVERIES = """
      INSERT INTO deliveries (event_id, workspace_id, integration_id, network, mapped_event, status, next_attempt_at,
                              change_seq)
      SELECT $1, $2, d.integration_id, d.network,
             CASE WHEN d.corrects AND had.any THEN d.mapped_event || ':' || $11 ELSE d.mapped_event END,
             'pending', now(), $3
        FROM unnest($4::text[], $5::text[], $6::text[], $7::boolean[], $8::boolean[], $9::boolean[])
             AS d(integration_id, network, mapped_event, once, sends, corrects)
       CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM deliveries x WHERE x.event_id = $1
                                                                       AND x.integration_id = d.integration_id)
                                  OR EXISTS (SELECT 1 FROM events e WHERE e.event_id = $1
                                                                      AND e.deliver_to ? d.integration_id) AS any) had
       WHERE CASE WHEN d.corrects THEN (d.sends AND NOT had.any) OR ($10 AND had.any)
                  ELSE d.sends AND NOT (d.once AND had.any) END
      RETURNING network""";

  /** A change that corrects what a network took once: its retraction, or its restatement at a new value. */
  static final String RETRACTION = "RETRACTION";
  static final String RESTATEMENT = "RESTATEMENT";

  /** The JoinRequest a user's join through a per-visitor link recorded ($2), newest, within $3 days. */
  static final String JOIN = """
      SELECT event_id FROM events
       WHERE workspace_id = $1 AND telegram_id = $2 AND event_name = $4 AND session_id IS NOT NULL
         AND received_at > now() - make_interval(days => $3)
       ORDER BY received_at DESC LIMIT 1""";

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

  private final Pool pool;

  public ConversionChanges(Pool pool) {
    this.pool = pool;
  }

  /** The event a transaction id names no longer exists: retention dropped its day. */
  static final class EventGone extends RuntimeException {
    EventGone() {
      super("the conversion's event is past retention", null, false, false);
    }
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
      boolean retracts = ConversionStatus.REJECTED.equals(change.status())
          || ConversionStatus.CHARGEBACK.equals(change.status());
      boolean corrects = retracts || !sameValue(valueBefore, value);
      return conn.preparedQuery(ADD_CHANGE).execute(Tuple.of(eventId, seq, change.status(), before,
              value, currency, change.reason(),
              change.origin()))
          .compose(v -> candidates.isEmpty() ? Future.succeededFuture(List.<String>of())
              : conn.preparedQuery(CHANGE_DELIVERIES).execute(Tuple.of(eventId, workspaceId, seq)
                      .addArrayOfString(candidates.stream().map(Candidate::integrationId).toArray(String[]::new))
                      .addArrayOfString(candidates.stream().map(Candidate::network).toArray(String[]::new))
                      .addArrayOfString(candidates.stream().map(Candidate::mappedEvent).toArray(String[]::new))
                      .addArrayOfBoolean(candidates.stream().map(Candidate::once).toArray(Boolean[]::new))
                      .addArrayOfBoolean(candidates.stream().map(Candidate::sends).toArray(Boolean[]::new))
                      .addArrayOfBoolean(candidates.stream().map(Candidate::corrects).toArray(Boolean[]::new))
                      .addBoolean(corrects).addString(retracts ? RETRACTION : RESTATEMENT))
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

  private static boolean sameValue(BigDecimal a, BigDecimal b) {
    return a == null ? b == null : b != null && a.compareTo(b) == 0;
  }
}
