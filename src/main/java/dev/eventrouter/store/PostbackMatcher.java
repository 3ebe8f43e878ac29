package dev.eventrouter.store;

import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.PostbackSource;
import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.Postback;
import dev.eventrouter.event.Resolution;
import dev.eventrouter.store.PostbackStore.Recorded;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.LongSupplier;

import static dev.eventrouter.store.PostbackStore.FINGERPRINT_HOURS;
import static dev.eventrouter.store.PostbackStore.answer;
import static dev.eventrouter.store.PostbackStore.plain;

/**
 * Matches a logged postback's click id to a session and makes its conversion (a new event, or a change of the one its
 * transaction id made); one whose session is unknown stays unmatched, and is matched again when its session appears.
 */
public final class PostbackMatcher {

  /** The session a postback's event is linked through, as its session_source says. */
  public static final String SESSION_SOURCE = "postback";

  static final String SETTLE = """
      UPDATE postbacks SET outcome = $2, event_id = $3, answer = $4,
             matched_at = CASE WHEN $2 = 'matched' THEN now() END
       WHERE postback_id = $1""";

  /** A click id that is a session: known when captured or when a Telegram user came through it. */
  static final String BY_SESSION = """
      SELECT EXISTS (SELECT 1 FROM click_sessions WHERE workspace_id = $1 AND session_id = $2) AS clicked,
             (SELECT telegram_id FROM invite_sessions WHERE workspace_id = $1 AND session_id = $2
               ORDER BY created_at DESC LIMIT 1) AS telegram_id""";

  /** A click id that is a Telegram user: the session of its newest invite, else of its newest event with one. */
  static final String BY_USER = """
      SELECT coalesce(
               (SELECT session_id FROM invite_sessions WHERE workspace_id = $1 AND telegram_id = $2
                 ORDER BY created_at DESC LIMIT 1),
               (SELECT session_id FROM events WHERE workspace_id = $1 AND telegram_id = $2 AND session_id IS NOT NULL
                 ORDER BY received_at DESC LIMIT 1)) AS session_id""";

  /** Unmatched postbacks of a workspace ($1), of one click id ($2, or all), within the window ($3 days). */
  static final String UNMATCHED = """
      SELECT postback_id, source_id, click_id, telegram_id, event_name, conversion_status, value, currency,
             transaction_id, received_at
        FROM postbacks
       WHERE workspace_id = $1 AND outcome = 'unmatched' AND ($2::text IS NULL OR click_id = $2)
         AND received_at > now() - make_interval(days => $3)
       ORDER BY postback_id
       LIMIT $4
         FOR UPDATE SKIP LOCKED""";

  private final Pool pool;
  private final LongSupplier ids;

  /** @param ids the ids of the events postbacks make */
  public PostbackMatcher(Pool pool, LongSupplier ids) {
    this.pool = pool;
    this.ids = ids;
  }

  /**
   * Matches the unmatched postbacks of a workspace whose session is now known: of one click id, or (null) all
   * within the window. Each is made into its conversion as if it had just come, and logged as matched.
   */
  public Future<List<Recorded>> rematch(UUID workspaceId, String clickId, int windowDays, ConversionStore.Plan plan) {
    return pool.withTransaction(conn -> conn.preparedQuery(UNMATCHED)
        .execute(Tuple.of(workspaceId, clickId, windowDays, 500))
        .compose(rows -> {
          List<Row> pending = new ArrayList<>();
          rows.forEach(pending::add);
          List<Recorded> done = new ArrayList<>();
          Future<Void> chain = Future.succeededFuture();
          for (Row row : pending) {
            Postback postback = fromRow(workspaceId, row);
            chain = chain.compose(v -> settle(conn, row.getLong("postback_id"), postback, plan)
                .map(recorded -> {
                  if (Postback.MATCHED.equals(recorded.outcome())) {
                    done.add(recorded);
                  }
                  return null;
                }));
          }
          return chain.map(v -> done);
        }));
  }

  /** Matches a logged postback's click id; makes its conversion when it matches; logs the outcome and answer. */
  Future<Recorded> settle(SqlClient conn, long postbackId, Postback postback, ConversionStore.Plan plan) {
    return match(conn, postback).compose(session -> {
      if (session == null) {
        JsonObject answer = answer(postbackId, Postback.UNMATCHED, null, postback.status());
        return conn.preparedQuery(SETTLE).execute(Tuple.of(postbackId, Postback.UNMATCHED, null, answer))
            .map(v -> new Recorded(postback.sourceId(), Postback.UNMATCHED, answer, List.of()));
      }
      NewEvent event = newEvent(postback, session, plan);
      String conversionKey = postback.transactionId() != null ? postback.transactionId()
          : "~" + Sha256.hex(postback.clickId() + "|" + postback.eventName() + "|" + plain(postback.value()));
      return ConversionStore.report(conn, event, "postback:" + postback.sourceId(), conversionKey,
              postback.transactionId() != null ? 0 : FINGERPRINT_HOURS, plan)
          .compose(result -> {
            JsonObject answer = answer(postbackId, Postback.MATCHED, result.eventId(), result.status());
            return conn.preparedQuery(SETTLE).execute(Tuple.of(postbackId, Postback.MATCHED, result.eventId(), answer))
                .map(v -> new Recorded(postback.sourceId(), Postback.MATCHED, answer, result.networks()));
          });
    });
  }

  /** The session and user a postback's click id leads to, or null when it leads nowhere yet. */
  private static Future<Matched> match(SqlClient conn, Postback postback) {
    if (PostbackSource.TELEGRAM_ID.equals(postback.clickIdHolds())) {
      long user = Long.parseLong(postback.clickId());
      return conn.preparedQuery(BY_USER).execute(Tuple.of(postback.workspaceId(), user))
          .map(rows -> new Matched(rows.iterator().next().getString("session_id"), user));
    }
    return conn.preparedQuery(BY_SESSION).execute(Tuple.of(postback.workspaceId(), postback.clickId())).map(rows -> {
      Row row = rows.iterator().next();
      Long user = row.getLong("telegram_id");
      if (!row.getBoolean("clicked") && user == null) {
        return null;
      }
      return new Matched(postback.clickId(), user != null ? user : postback.telegramId());
    });
  }

  /** @param telegramId the user, or null when neither the session nor the partner tells */
  private record Matched(String sessionId, Long telegramId) {}

  private NewEvent newEvent(Postback postback, Matched session, ConversionStore.Plan plan) {
    ConversionEvent event = new ConversionEvent(postback.workspaceId(), postback.eventName(), session.telegramId(),
        session.sessionId(), postback.value(), postback.currency(), null, null, postback.status(),
        postback.transactionId());
    List<NewEvent.Delivery> deliveries = plan.deliveries(postback.workspaceId(), postback.eventName(),
        postback.status());
    return new NewEvent(ids.getAsLong(), event, postback.receivedAt(), null, null,
        new Resolution(session.sessionId(), SESSION_SOURCE), deliveries);
  }

  /** A logged unmatched postback: its click id is a session (one that names a Telegram user always matches). */
  private static Postback fromRow(UUID workspaceId, Row row) {
    return new Postback(workspaceId, row.getString("source_id"), null, null, row.getString("click_id"),
        PostbackSource.SESSION_ID,
        row.getLong("telegram_id"), row.getString("event_name"), row.getString("conversion_status"),
        row.getBigDecimal("value"), row.getString("currency"), row.getString("transaction_id"),
        row.getOffsetDateTime("received_at").toInstant(), null, null, null);
  }
}
