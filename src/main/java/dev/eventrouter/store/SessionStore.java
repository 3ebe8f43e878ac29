package dev.eventrouter.store;

import dev.eventrouter.event.ClickSession;
import dev.eventrouter.event.InviteSession;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

import java.time.ZoneOffset;

/** SQL for click sessions and invite sessions. */
public final class SessionStore {

  /** A repeated registration keeps the first click time and fills only what was empty. */
  static final String UPSERT_CLICK = """
      INSERT INTO click_sessions (workspace_id, session_id, fbclid, fbc, fbp, ttclid, ttp, client_ip, user_agent,
                                  landing_url, clicked_at, utm)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
      ON CONFLICT (workspace_id, session_id) DO UPDATE SET
          fbclid      = COALESCE(click_sessions.fbclid, EXCLUDED.fbclid),
          fbc         = COALESCE(click_sessions.fbc, EXCLUDED.fbc),
          fbp         = COALESCE(click_sessions.fbp, EXCLUDED.fbp),
          ttclid      = COALESCE(click_sessions.ttclid, EXCLUDED.ttclid),
          ttp         = COALESCE(click_sessions.ttp, EXCLUDED.ttp),
          client_ip   = COALESCE(click_sessions.client_ip, EXCLUDED.client_ip),
          user_agent  = COALESCE(click_sessions.user_agent, EXCLUDED.user_agent),
          landing_url = COALESCE(click_sessions.landing_url, EXCLUDED.landing_url),
          utm         = COALESCE(click_sessions.utm, EXCLUDED.utm)""";

  static final String UPSERT_INVITE = """
      INSERT INTO invite_sessions (workspace_id, telegram_id, session_id, invite_link)
      VALUES ($1, $2, $3, $4)
      ON CONFLICT (workspace_id, telegram_id, session_id) DO UPDATE SET
          invite_link = COALESCE(invite_sessions.invite_link, EXCLUDED.invite_link)""";

  private final Pool pool;

  public SessionStore(Pool pool) {
    this.pool = pool;
  }

  public Future<Void> save(ClickSession click) {
    return pool.preparedQuery(UPSERT_CLICK).execute(Tuple.from(new Object[] {
        click.workspaceId(), click.sessionId(), click.fbclid(), click.fbc(), click.fbp(), click.ttclid(),
        click.ttp(), click.clientIp(), click.userAgent(), click.landingUrl(),
        click.clickedAt().atOffset(ZoneOffset.UTC), click.utm()})).mapEmpty();
  }

  public Future<Void> save(InviteSession invite) {
    return pool.preparedQuery(UPSERT_INVITE).execute(Tuple.of(invite.workspaceId(), invite.telegramId(),
        invite.sessionId(), invite.inviteLink())).mapEmpty();
  }
}
