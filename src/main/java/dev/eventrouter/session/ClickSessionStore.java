package dev.eventrouter.session;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.time.ZoneOffset;
import java.util.Optional;
import java.util.UUID;

/** SQL for click sessions and invite sessions. */
public final class ClickSessionStore {

  /** A repeated registration keeps the first click time and fills only what was empty. */
  static final String UPSERT_CLICK = """
      INSERT INTO click_sessions (workspace_id, session_id, fbclid, fbc, fbp, ttclid, ttp, client_ip, user_agent,
                                  landing_url, clicked_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
      ON CONFLICT (workspace_id, session_id) DO UPDATE SET
          fbclid      = COALESCE(click_sessions.fbclid, EXCLUDED.fbclid),
          fbc         = COALESCE(click_sessions.fbc, EXCLUDED.fbc),
          fbp         = COALESCE(click_sessions.fbp, EXCLUDED.fbp),
          ttclid      = COALESCE(click_sessions.ttclid, EXCLUDED.ttclid),
          ttp         = COALESCE(click_sessions.ttp, EXCLUDED.ttp),
          client_ip   = COALESCE(click_sessions.client_ip, EXCLUDED.client_ip),
          user_agent  = COALESCE(click_sessions.user_agent, EXCLUDED.user_agent),
          landing_url = COALESCE(click_sessions.landing_url, EXCLUDED.landing_url)""";

  static final String UPSERT_INVITE = """
      INSERT INTO invite_sessions (workspace_id, telegram_id, session_id, invite_link)
      VALUES ($1, $2, $3, $4)
      ON CONFLICT (workspace_id, telegram_id, session_id) DO UPDATE SET
          invite_link = COALESCE(invite_sessions.invite_link, EXCLUDED.invite_link)""";

  static final String FIND_CLICK = """
      SELECT workspace_id, session_id, fbclid, fbc, fbp, ttclid, ttp, client_ip, user_agent, landing_url, clicked_at
        FROM click_sessions WHERE workspace_id = $1 AND session_id = $2""";

  private final Pool pool;

  public ClickSessionStore(Pool pool) {
    this.pool = pool;
  }

  public Future<Void> save(ClickSession click) {
    return pool.preparedQuery(UPSERT_CLICK).execute(Tuple.from(new Object[] {
        click.workspaceId(), click.sessionId(), click.fbclid(), click.fbc(), click.fbp(), click.ttclid(),
        click.ttp(), click.clientIp(), click.userAgent(), click.landingUrl(),
        click.clickedAt().atOffset(ZoneOffset.UTC)})).mapEmpty();
  }

  public Future<Void> save(InviteSession invite) {
    return pool.preparedQuery(UPSERT_INVITE).execute(Tuple.of(invite.workspaceId(), invite.telegramId(),
        invite.sessionId(), invite.inviteLink())).mapEmpty();
  }

  /** The captured click of a session, if the prelanding page registered one. */
  public Future<Optional<ClickSession>> find(UUID workspaceId, String sessionId) {
    return pool.preparedQuery(FIND_CLICK).execute(Tuple.of(workspaceId, sessionId)).map(rows -> {
      if (rows.size() == 0) {
        return Optional.empty();
      }
      Row row = rows.iterator().next();
      return Optional.of(new ClickSession(row.getUUID("workspace_id"), row.getString("session_id"),
          row.getString("fbclid"), row.getString("fbc"), row.getString("fbp"), row.getString("ttclid"),
          row.getString("ttp"), row.getString("client_ip"), row.getString("user_agent"),
          row.getString("landing_url"), row.getOffsetDateTime("clicked_at").toInstant()));
    });
  }

  /** The click data an event linked to this session carries to the forwarders. */
  public Future<Optional<ClickData>> clickData(UUID workspaceId, String sessionId) {
    return find(workspaceId, sessionId).map(click -> click.map(ClickData::of));
  }
}
