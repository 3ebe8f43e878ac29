package dev.eventrouter.session;

import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

import java.util.List;
import java.util.UUID;
import java.util.function.ToIntFunction;

/** Source 2: the newest stored event of the user that carries a session, within the workspace's attribution window. */
final class AnalyticsSessionSource extends BatchedSessionSource {

  static final String NAME = "analytics";

  private static final String NEWEST_EVENT_WITH_SESSION = """
      SELECT t.i, e.session_id
        FROM unnest($1::uuid[], $2::bigint[], $3::int[]) WITH ORDINALITY AS t(workspace_id, telegram_id, days, i)
        JOIN LATERAL (SELECT session_id FROM events e
                       WHERE e.workspace_id = t.workspace_id AND e.telegram_id = t.telegram_id
                         AND e.session_id IS NOT NULL
                         AND e.received_at >= now() - make_interval(days => t.days)
                       ORDER BY e.received_at DESC LIMIT 1) e ON true""";

  private final ToIntFunction<UUID> windowDays;

  AnalyticsSessionSource(Vertx vertx, Pool pool, ToIntFunction<UUID> windowDays) {
    super(vertx, pool, NEWEST_EVENT_WITH_SESSION);
    this.windowDays = windowDays;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  protected void addParameters(Tuple params, List<User> users) {
    params.addArrayOfInteger(users.stream().map(u -> windowDays.applyAsInt(u.workspaceId())).toArray(Integer[]::new));
  }
}
