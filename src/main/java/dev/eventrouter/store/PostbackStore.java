package dev.eventrouter.store;

import dev.eventrouter.event.EventIds;
import dev.eventrouter.event.Postback;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.math.BigDecimal;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

/**
 * SQL for partners' postbacks as they come: each one logged, a re-fired one answered with the first's answer, any
 * other settled by {@link PostbackMatcher} (made into a conversion, or kept unmatched until its session appears).
 */
public final class PostbackStore {

  /**
   * How long a postback without a transaction id identifies its conversion by (click id, event, value): a re-fire
   * within it is a duplicate, a new status within it a change; after it, the same report is a new conversion.
   */
  public static final int FINGERPRINT_HOURS = 24;

  static final String LOG = """
      INSERT INTO postbacks (workspace_id, source_id, received_at, method, params, outcome, detail, dedupe_key,
                             click_id, telegram_id, event_name, conversion_status, value, currency, transaction_id,
                             repairs)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
      ON CONFLICT (workspace_id, source_id, dedupe_key) WHERE outcome IN ('matched', 'unmatched') DO NOTHING
      RETURNING postback_id""";

  /** A fingerprint older than its window no longer makes a re-fire a duplicate. */
  static final String EXPIRE_FINGERPRINT = """
      UPDATE postbacks SET dedupe_key = NULL
       WHERE workspace_id = $1 AND source_id = $2 AND dedupe_key = $3 AND outcome IN ('matched', 'unmatched')
         AND received_at < now() - make_interval(hours => $4)""";

  static final String FIRST = """
      SELECT postback_id, event_id, answer FROM postbacks
       WHERE workspace_id = $1 AND source_id = $2 AND dedupe_key = $3 AND outcome IN ('matched', 'unmatched')""";

  static final String DUPLICATE = "UPDATE postbacks SET event_id = $2, answer = $3 WHERE postback_id = $1";

  static final String LIST = """
      SELECT postback_id, source_id, received_at, method, params, outcome, detail, click_id, telegram_id, event_name,
             conversion_status, value, currency, transaction_id, event_id, matched_at,
             coalesce(repairs, '[]') AS repairs
        FROM postbacks
       WHERE workspace_id = $1 AND postback_id < $2 AND ($3::text IS NULL OR outcome = $3)
       ORDER BY postback_id DESC
       LIMIT $4""";

  static final String PURGE = "DELETE FROM postbacks WHERE received_at < now() - make_interval(days => $1)";

  /**
   * What became of a postback: what it was logged as (a re-fire: duplicate, answered as the first was), the answer
   * its partner gets, and the networks whose forwarders have work.
   */
  public record Recorded(String sourceId, String outcome, JsonObject answer, List<String> networks) {}

  private final Pool pool;
  private final Pool readPool;
  private final PostbackMatcher matcher;

  /** @param matcher what settles a logged postback, in the same transaction */
  public PostbackStore(Pool pool, Pool readPool, PostbackMatcher matcher) {
    this.pool = pool;
    this.readPool = readPool;
    this.matcher = matcher;
  }

  /**
   * Logs a postback and does what it says, in one transaction: a re-fire of a logged one (same transaction id,
   * status and value; without a transaction id, same click id, event, value and status within
   * {@link #FINGERPRINT_HOURS}) is logged as a duplicate and answered as the first was; a refused one is logged;
   * any other becomes a conversion when its click id is known, and is kept unmatched when not.
   */
  public Future<Recorded> record(Postback postback, ConversionStore.Plan plan) {
    if (postback.outcome() != null) {
      return pool.preparedQuery(LOG).execute(logRow(postback, null, postback.outcome()))
          .map(rows -> new Recorded(postback.sourceId(), postback.outcome(),
              answer(rows.iterator().next().getLong(0), postback.outcome(), null, null), List.of()));
    }
    String key = dedupeKey(postback);
    Tuple keyRef = Tuple.of(postback.workspaceId(), postback.sourceId(), key);
    return pool.withTransaction(conn -> expireFingerprint(conn, postback, key)
        .compose(v -> conn.preparedQuery(LOG).execute(logRow(postback, key, Postback.UNMATCHED)))
        .compose(logged -> {
          if (logged.size() == 0) {
            return duplicate(conn, postback, keyRef);
          }
          return matcher.settle(conn, logged.iterator().next().getLong(0), postback, plan);
        }));
  }

  /** A page of a workspace's postbacks, newest first, below {@code beforeId}; of one outcome, or all. */
  public Future<JsonArray> list(UUID workspaceId, long beforeId, String outcome, int limit) {
    return readPool.preparedQuery(LIST).execute(Tuple.of(workspaceId, beforeId, outcome, limit)).map(rows -> {
      JsonArray list = new JsonArray();
      for (Row row : rows) {
        BigDecimal value = row.getBigDecimal("value");
        Long eventId = row.getLong("event_id");
        list.add(new JsonObject().put("postback_id", String.valueOf(row.getLong("postback_id")))
            .put("source_id", row.getString("source_id"))
            .put("received_at", DeliveryViews.instant(row, "received_at"))
            .put("method", row.getString("method"))
            .put("params", row.getJson("params"))
            .put("outcome", row.getString("outcome"))
            .put("detail", row.getString("detail"))
            .put("repairs", row.getJsonArray("repairs"))
            .put("click_id", row.getString("click_id"))
            .put("telegram_id", row.getLong("telegram_id"))
            .put("event_name", row.getString("event_name"))
            .put("conversion_status", row.getString("conversion_status"))
            .put("value", value == null ? null : value.toPlainString())
            .put("currency", row.getString("currency"))
            .put("transaction_id", row.getString("transaction_id"))
            .put("event_id", eventId == null ? null : EventIds.format(eventId))
            .put("matched_at", DeliveryViews.instant(row, "matched_at")));
      }
      return list;
    });
  }

  /** Deletes postbacks logged more than {@code days} ago; returns how many. */
  public Future<Integer> purge(int days) {
    return pool.preparedQuery(PURGE).execute(Tuple.of(days)).map(rows -> rows.rowCount());
  }

  private static Future<Void> expireFingerprint(SqlClient conn, Postback postback, String key) {
    if (postback.transactionId() != null) {
      return Future.succeededFuture();
    }
    return conn.preparedQuery(EXPIRE_FINGERPRINT)
        .execute(Tuple.of(postback.workspaceId(), postback.sourceId(), key, FINGERPRINT_HOURS)).mapEmpty();
  }

  /** Logs a re-fire as a duplicate of the first, and answers as the first was answered. */
  private static Future<Recorded> duplicate(SqlClient conn, Postback postback, Tuple keyRef) {
    return conn.preparedQuery(FIRST).execute(keyRef).compose(rows -> {
      Row first = rows.iterator().next();
      JsonObject answer = (JsonObject) first.getJson("answer");
      return conn.preparedQuery(LOG).execute(logRow(postback, null, Postback.DUPLICATE))
          .compose(logged -> conn.preparedQuery(DUPLICATE).execute(Tuple.of(logged.iterator().next().getLong(0),
              first.getLong("event_id"), answer)))
          .map(v -> new Recorded(postback.sourceId(), Postback.DUPLICATE, answer, List.of()));
    });
  }

  /** The short answer a partner gets: 200 with this, matched or not. */
  static JsonObject answer(long postbackId, String outcome, Long eventId, String status) {
    return new JsonObject().put("postback_id", String.valueOf(postbackId)).put("outcome", outcome)
        .put("event_id", eventId == null ? null : EventIds.format(eventId)).put("conversion_status", status);
  }

  /**
   * What makes a re-fire the same postback: its transaction id with the status and value it reports; without one,
   * its click id, event, value and status.
   */
  static String dedupeKey(Postback p) {
    return p.transactionId() != null ? "t:" + p.transactionId() + "|" + p.status() + "|" + plain(p.value())
        : "f:" + p.clickId() + "|" + p.eventName() + "|" + plain(p.value()) + "|" + p.status();
  }

  static String plain(BigDecimal value) {
    return value == null ? "" : value.stripTrailingZeros().toPlainString();
  }

  /** @param outcome what it is logged as: unmatched until it is settled, or why it was not taken */
  private static Tuple logRow(Postback p, String key, String outcome) {
    return Tuple.of(p.workspaceId(), p.sourceId(), p.receivedAt().atOffset(ZoneOffset.UTC), p.method(), p.params(),
            outcome, p.detail(), key)
        .addValue(p.clickId()).addValue(p.telegramId()).addValue(p.eventName()).addValue(p.status())
        .addValue(p.value()).addValue(p.currency())
        .addValue(p.transactionId()).addValue(p.repairs().isEmpty() ? null : new JsonArray(p.repairs()));
  }
}
