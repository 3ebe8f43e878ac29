package dev.eventrouter.session;

import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;

/** Source 3: the last session any event of the user ended with, without a time limit. */
final class LastKnownSessionSource extends BatchedSessionSource {

  static final String NAME = "last_known";

  private static final String LAST_SESSION = """
      SELECT t.i, l.session_id
        FROM unnest($1::uuid[], $2::bigint[]) WITH ORDINALITY AS t(workspace_id, telegram_id, i)
        JOIN last_sessions l ON l.workspace_id = t.workspace_id AND l.telegram_id = t.telegram_id""";

  LastKnownSessionSource(Vertx vertx, Pool pool) {
    super(vertx, pool, LAST_SESSION);
  }

  @Override
  public String name() {
    return NAME;
  }
}
