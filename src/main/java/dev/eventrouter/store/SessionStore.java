package dev.eventrouter.store;

import dev.eventrouter.event.ClickSession;
import dev.eventrouter.event.InviteSession;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/** SQL for click sessions and invite sessions, and the purge of both session tables. */
public final class SessionStore {

  /** A repeated registration keeps the first click time and fills only what was empty. */
  static final String UPSERT_CLICK = """
      INSERT INTO click_sessions (workspace_id, session_id, fbclid, fbc, fbp, ttclid, ttp, client_ip, user_agent,
                                  landing_url, clicked_at, utm, ad, bot, channel, country, gclid, gbraid, wbraid,
                                  sccid, scid)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
      ON CONFLICT (workspace_id, session_id) DO UPDATE SET
          fbclid      = COALESCE(click_sessions.fbclid, EXCLUDED.fbclid),
          fbc         = COALESCE(click_sessions.fbc, EXCLUDED.fbc),
          fbp         = COALESCE(click_sessions.fbp, EXCLUDED.fbp),
          ttclid      = COALESCE(click_sessions.ttclid, EXCLUDED.ttclid),
          ttp         = COALESCE(click_sessions.ttp, EXCLUDED.ttp),
          client_ip   = COALESCE(click_sessions.client_ip, EXCLUDED.client_ip),
          user_agent  = COALESCE(click_sessions.user_agent, EXCLUDED.user_agent),
          landing_url = COALESCE(click_sessions.landing_url, EXCLUDED.landing_url),
          utm         = COALESCE(click_sessions.utm, EXCLUDED.utm),
          ad          = COALESCE(click_sessions.ad, EXCLUDED.ad),
          bot         = COALESCE(click_sessions.bot, EXCLUDED.bot),
          channel     = COALESCE(click_sessions.channel, EXCLUDED.channel),
          country     = COALESCE(click_sessions.country, EXCLUDED.country),
          gclid       = COALESCE(click_sessions.gclid, EXCLUDED.gclid),
          gbraid      = COALESCE(click_sessions.gbraid, EXCLUDED.gbraid),
          wbraid      = COALESCE(click_sessions.wbraid, EXCLUDED.wbraid),
          sccid       = COALESCE(click_sessions.sccid, EXCLUDED.sccid),
          scid        = COALESCE(click_sessions.scid, EXCLUDED.scid)""";

  /**
   * One row per user, session and step; the click of the session learns the bot and channel it went through, when
   * its capture did not name them, so its later events are reported under them too.
   */
  static final String UPSERT_INVITE = """
      WITH click AS (
          UPDATE click_sessions SET bot = COALESCE(bot, $6), channel = COALESCE(channel, $7)
           WHERE workspace_id = $1 AND session_id = $3
             AND (bot IS NULL AND $6::text IS NOT NULL OR channel IS NULL AND $7::text IS NOT NULL))
      INSERT INTO invite_sessions (workspace_id, telegram_id, session_id, invite_link, via, bot, channel)
      VALUES ($1, $2, $3, $4, $5, $6, $7)
      ON CONFLICT (workspace_id, telegram_id, session_id, via) DO UPDATE SET
          invite_link = COALESCE(invite_sessions.invite_link, EXCLUDED.invite_link)""";

  /**
   * Days a session is kept past its workspace's attribution window: an event attributed on the window's last day is
   * still retried for 7 days, as long as Meta takes an event
   * (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/server-event, event_time), and
   * its delivery reads the click session then.
   */
  public static final int DELIVERY_WINDOW_DAYS = 7;

  /** Rows deleted per statement: each statement is short, so a large backlog never holds locks for long. */
  static final int PURGE_BATCH = 5000;

  /**
   * The session tables and the column that says how old a row is: a click's capture, an invite's join.
   */
  static final Map<String, String> AGED = Map.of("click_sessions", "created_at", "invite_sessions", "created_at");

  /**
   * One batch of a table's rows older than their workspace's days ($1 workspace ids, $2 their days; $4 for any other
   * workspace). $3, the fewest days of all, lets the index on the age column find the candidates.
   */
  static String purgeBatch(String table, String column) {
    return """
        DELETE FROM %1$s WHERE ctid IN (
            SELECT s.ctid FROM %1$s s
              LEFT JOIN unnest($1::uuid[], $2::int[]) AS w(workspace_id, days) ON w.workspace_id = s.workspace_id
             WHERE s.%2$s < now() - make_interval(days => $3)
               AND s.%2$s < now() - make_interval(days => COALESCE(w.days, $4))
             LIMIT $5)""".formatted(table, column);
  }

  private final Pool pool;

  public SessionStore(Pool pool) {
    this.pool = pool;
  }

  public Future<Void> save(ClickSession click) {
    Tuple params = Tuple.from(new Object[] {
        click.workspaceId(), click.sessionId(), click.fbclid(), click.fbc(), click.fbp(), click.ttclid(),
        click.ttp(), click.clientIp(), click.userAgent(), click.landingUrl(),
        click.clickedAt().atOffset(ZoneOffset.UTC), click.utm(), click.origin().ad(), click.origin().bot(),
        click.origin().channel(), click.origin().country()});
    click.ids().values().forEach(params::addValue);
    return pool.preparedQuery(UPSERT_CLICK).execute(params).mapEmpty();
  }

  public Future<Void> save(InviteSession invite) {
    return pool.preparedQuery(UPSERT_INVITE).execute(Tuple.of(invite.workspaceId(), invite.telegramId(),
        invite.sessionId(), invite.inviteLink(), invite.via() == null ? InviteSession.API : invite.via(),
        invite.bot(), invite.channel())).mapEmpty();
  }

  /**
   * How long each workspace's sessions are kept: its attribution window plus {@link #DELIVERY_WINDOW_DAYS}. A
   * workspace no longer configured keeps them for the longest of all (or the default window, if longer), so taking
   * one out of the configuration for a while loses nothing.
   *
   * @param windows each configured workspace's attribution window, in days
   */
  public record Retention(Map<UUID, Integer> keepDays, int otherDays) {

    public static Retention of(Map<UUID, Integer> windows, int defaultWindow) {
      Map<UUID, Integer> keep = new HashMap<>();
      windows.forEach((workspace, days) -> keep.put(workspace, days + DELIVERY_WINDOW_DAYS));
      int longest = windows.values().stream().mapToInt(Integer::intValue).max().orElse(0);
      return new Retention(Map.copyOf(keep), Math.max(longest, defaultWindow) + DELIVERY_WINDOW_DAYS);
    }

    /** The shortest retention of any workspace: no row younger than it is ever deleted. */
    int fewestDays() {
      return Math.min(otherDays, keepDays.values().stream().mapToInt(Integer::intValue).min().orElse(otherDays));
    }
  }

  /**
   * Deletes the click, invite and last sessions older than their workspace's retention, in batches of
   * {@link #PURGE_BATCH} until none is left; the number deleted.
   */
  public Future<Integer> purge(Retention retention) {
    return purge(retention, PURGE_BATCH);
  }

  Future<Integer> purge(Retention retention, int batch) {
    UUID[] workspaces = retention.keepDays().keySet().toArray(UUID[]::new);
    Integer[] days = new Integer[workspaces.length];
    for (int i = 0; i < workspaces.length; i++) {
      days[i] = retention.keepDays().get(workspaces[i]);
    }
    Tuple params = Tuple.of(workspaces, days, retention.fewestDays(), retention.otherDays(), batch);
    Future<Integer> total = Future.succeededFuture(0);
    for (Map.Entry<String, String> table : AGED.entrySet()) {
      String sql = purgeBatch(table.getKey(), table.getValue());
      total = total.compose(sum -> drain(sql, params, batch, sum));
    }
    return total;
  }

  /** Runs one batch after another while each deletes a full batch. */
  private Future<Integer> drain(String sql, Tuple params, int batch, int deleted) {
    return pool.preparedQuery(sql).execute(params).compose(rows -> rows.rowCount() < batch
        ? Future.succeededFuture(deleted + rows.rowCount())
        : drain(sql, params, batch, deleted + rows.rowCount()));
  }
}
