package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** SQL for the Telegram connector: the invite-link pool and the outbox of what updates leave to do. */
public final class TelegramStore {

  /** What an update leaves to do, claimed from the outbox. */
  /** @param bot the bot's key: "" for the workspace's default bot, else its name */
  public record Job(UUID workspaceId, String bot, long updateId, String kind, String body, int attempts,
                    Instant receivedAt) {}

  public static final String PASS_THROUGH = "pass_through";
  public static final String APPROVE = "approve";

  /**
   * The session's own link if it has one, else the oldest free link of the channel, bound to it now; a new link only
   * while more than $4 free ones are left (the reserve an anonymous capture may not take).
   */
  static final String CLAIM_LINK = """
      WITH own AS (
          SELECT invite_link FROM telegram_invite_links WHERE workspace_id = $1 AND session_id = $3),
      claimed AS (
          UPDATE telegram_invite_links SET session_id = $3, bound_at = now()
          WHERE NOT EXISTS (SELECT 1 FROM own) AND (workspace_id, invite_link) = (
              SELECT workspace_id, invite_link FROM telegram_invite_links
              WHERE workspace_id = $1 AND chat_id = $2 AND session_id IS NULL
                AND expires_at > now() + interval '1 hour'
                AND $4 < (SELECT count(*) FROM telegram_invite_links
                          WHERE workspace_id = $1 AND chat_id = $2 AND session_id IS NULL
                            AND expires_at > now() + interval '1 hour')
              ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING invite_link)
      SELECT invite_link FROM own UNION ALL SELECT invite_link FROM claimed""";

  static final String CLAIM_JOBS = """
      UPDATE telegram_outbox SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => $2 / 1000.0)
      WHERE (workspace_id, bot, update_id, kind) IN (
          SELECT workspace_id, bot, update_id, kind FROM telegram_outbox
          WHERE status IN ('pending', 'retrying') AND next_attempt_at <= now()
          ORDER BY next_attempt_at, update_id LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING workspace_id, bot, update_id, kind, body, attempts, received_at""";

  private final Pool pool;

  public TelegramStore(Pool pool) {
    this.pool = pool;
  }

  /**
   * The invite link of a session: the one it already has, or a free one of the channel bound to it now; null when
   * the pool is empty, or down to {@code reserve} free links.
   */
  public Future<String> claimLink(UUID workspaceId, String chatId, String sessionId, int reserve) {
    Tuple claim = Tuple.of(workspaceId, chatId, sessionId, reserve);
    return firstString(CLAIM_LINK, claim)
        // The same session captured twice at once: both claimed a link, the unique index kept the first.
        .recover(failure -> failure instanceof PgException pg && "23505".equals(pg.getSqlState())
            ? firstString(CLAIM_LINK, claim) : Future.failedFuture(failure));
  }

  /** The channel's links not yet handed out, and not about to expire. */
  public Future<Integer> freeLinks(UUID workspaceId, String chatId) {
    return pool.preparedQuery("SELECT count(*) FROM telegram_invite_links WHERE workspace_id = $1 AND chat_id = $2"
            + " AND session_id IS NULL AND expires_at > now() + interval '1 hour'")
        .execute(Tuple.of(workspaceId, chatId)).map(rows -> rows.iterator().next().getInteger(0));
  }

  public Future<Void> addLink(UUID workspaceId, String chatId, String inviteLink, Instant expiresAt) {
    return pool.preparedQuery("INSERT INTO telegram_invite_links (workspace_id, chat_id, invite_link, expires_at)"
            + " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING")
        .execute(Tuple.of(workspaceId, chatId, inviteLink, expiresAt.atOffset(ZoneOffset.UTC))).mapEmpty();
  }

  /** The session a link was handed to, or null when it is not one of the pool's. */
  public Future<String> boundSession(UUID workspaceId, String inviteLink) {
    return firstString("SELECT session_id FROM telegram_invite_links WHERE workspace_id = $1 AND invite_link = $2",
        Tuple.of(workspaceId, inviteLink));
  }

  /** The first column of the query's first row; null without a row. */
  private Future<String> firstString(String sql, Tuple params) {
    return pool.preparedQuery(sql).execute(params)
        .map(rows -> rows.size() == 0 ? null : rows.iterator().next().getString(0));
  }

  /** Queues what an update leaves to do, each kind once per update however often Telegram sends it. */
  public Future<Void> queue(UUID workspaceId, String bot, long updateId, List<String> kinds, List<String> bodies) {
    if (kinds.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Tuple> rows = new ArrayList<>();
    for (int i = 0; i < kinds.size(); i++) {
      rows.add(Tuple.of(workspaceId, bot, updateId, kinds.get(i), bodies.get(i)));
    }
    return pool.preparedQuery("INSERT INTO telegram_outbox (workspace_id, bot, update_id, kind, body)"
        + " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING").executeBatch(rows).mapEmpty();
  }

  /** Claims up to {@code limit} due jobs, leased for {@code leaseMs}: a node that dies leaves them to another. */
  public Future<List<Job>> claim(int limit, long leaseMs) {
    return pool.preparedQuery(CLAIM_JOBS).execute(Tuple.of(limit, leaseMs)).map(rows -> {
      List<Job> jobs = new ArrayList<>();
      for (Row row : rows) {
        jobs.add(new Job(row.getUUID("workspace_id"), row.getString("bot"), row.getLong("update_id"),
            row.getString("kind"),
            row.getString("body"), row.getInteger("attempts"),
            row.getOffsetDateTime("received_at").toInstant()));
      }
      return jobs;
    });
  }

  /**
   * Ends a job: delivered, or failed for good with the other side's words. Only while the claim is this one's (the
   * attempt it made): a worker whose lease ran out and was claimed again does not overwrite the newer outcome.
   */
  public Future<Void> finish(Job job, String status, String error) {
    return pool.preparedQuery("UPDATE telegram_outbox SET status = $4, last_error = $5, done_at = now()"
            + " WHERE workspace_id = $1 AND update_id = $2 AND kind = $3 AND attempts = $6 AND bot = $7")
        .execute(Tuple.of(job.workspaceId(), job.updateId(), job.kind(), status, error, job.attempts(), job.bot()))
        .mapEmpty();
  }

  /** Tries a job again after {@code delayMs}; only while the claim is this one's, as {@link #finish}. */
  public Future<Void> retry(Job job, long delayMs, String error) {
    return pool.preparedQuery("UPDATE telegram_outbox SET status = 'retrying', last_error = $5,"
            + " next_attempt_at = now() + make_interval(secs => $4 / 1000.0)"
            + " WHERE workspace_id = $1 AND update_id = $2 AND kind = $3 AND attempts = $6 AND bot = $7")
        .execute(Tuple.of(job.workspaceId(), job.updateId(), job.kind(), delayMs, error, job.attempts(), job.bot()))
        .mapEmpty();
  }

  /** Drops finished jobs older than {@code days}, and the links Telegram expired. */
  public Future<Integer> purge(int days) {
    return pool.preparedQuery("DELETE FROM telegram_outbox WHERE done_at < now() - make_interval(days => $1)")
        .execute(Tuple.of(days)).map(rows -> rows.rowCount())
        .compose(jobs -> pool.query("DELETE FROM telegram_invite_links WHERE expires_at < now()").execute()
            .map(rows -> jobs + rows.rowCount()));
  }
}
