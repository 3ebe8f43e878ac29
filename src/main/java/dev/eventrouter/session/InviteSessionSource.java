package dev.eventrouter.session;

import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;

/** Source 1: the newest prelanding invite session the user joined through. */
final class InviteSessionSource extends BatchedSessionSource {

  static final String NAME = "invite";

  private static final String NEWEST_INVITE = """
      SELECT t.i, s.session_id
        FROM unnest($1::uuid[], $2::bigint[]) WITH ORDINALITY AS t(workspace_id, telegram_id, i)
        JOIN LATERAL (SELECT session_id FROM invite_sessions s
                       WHERE s.workspace_id = t.workspace_id AND s.telegram_id = t.telegram_id
                       ORDER BY s.created_at DESC LIMIT 1) s ON true""";

  InviteSessionSource(Vertx vertx, Pool pool) {
    super(vertx, pool, NEWEST_INVITE);
  }

  @Override
  public String name() {
    return NAME;
  }
}
