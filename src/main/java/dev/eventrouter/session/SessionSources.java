package dev.eventrouter.session;

import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

import java.util.List;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.ToIntFunction;

/**
 * The three places a session is looked for when an event comes without one, in the order they are asked, as data: a
 * name (stored as the event's session_source) and one query each. Each query takes the users as parallel arrays
 * ($1 workspace ids, $2 telegram ids) and returns (1-based position, session_id).
 */
final class SessionSources {

  /** The newest prelanding invite session the user joined through. */
  private static final String NEWEST_INVITE = """
      SELECT t.i, s.session_id
        FROM unnest($1::uuid[], $2::bigint[]) WITH ORDINALITY AS t(workspace_id, telegram_id, i)
        JOIN LATERAL (SELECT session_id FROM invite_sessions s
                       WHERE s.workspace_id = t.workspace_id AND s.telegram_id = t.telegram_id
                       ORDER BY s.created_at DESC LIMIT 1) s ON true""";

  /**
   * The newest stored event of the user that carries a session, within the workspace's attribution window ($3). The
   * same bound on the event id (time-ordered) lets PostgreSQL skip the day partitions before the window.
   */
  private static final String NEWEST_EVENT_WITH_SESSION = """
      SELECT t.i, e.session_id
        FROM unnest($1::uuid[], $2::bigint[], $3::int[]) WITH ORDINALITY AS t(workspace_id, telegram_id, days, i)
        JOIN LATERAL (SELECT session_id FROM events e
                       WHERE e.workspace_id = t.workspace_id AND e.telegram_id = t.telegram_id
                         AND e.session_id IS NOT NULL
                         AND e.received_at >= now() - make_interval(days => t.days)
                         AND e.event_id >= event_id_floor(now() - make_interval(days => t.days))
                       ORDER BY e.received_at DESC LIMIT 1) e ON true""";

  /**
   * The newest stored event of the user that carries a session from before the attribution window ($3), as far back
   * as events are kept. The bound on the event id (an hour past the window, so no event received before it is missed)
   * leaves out the partitions the analytics source has just read.
   */
  private static final String LAST_SESSION = """
      SELECT t.i, e.session_id
        FROM unnest($1::uuid[], $2::bigint[], $3::int[]) WITH ORDINALITY AS t(workspace_id, telegram_id, days, i)
        JOIN LATERAL (SELECT session_id FROM events e
                       WHERE e.workspace_id = t.workspace_id AND e.telegram_id = t.telegram_id
                         AND e.session_id IS NOT NULL
                         AND e.received_at < now() - make_interval(days => t.days)
                         AND e.event_id < event_id_floor(now() - make_interval(days => t.days, hours => -1))
                       ORDER BY e.received_at DESC LIMIT 1) e ON true""";

  private SessionSources() {}

  /** @param windowDays each workspace's attribution window, read when a lookup is made (so it follows reloads) */
  static List<SessionSource> inOrder(Vertx vertx, Pool pool, ToIntFunction<UUID> windowDays) {
    BiConsumer<Tuple, List<BatchedSessionSource.User>> windows = (params, users) -> params.addArrayOfInteger(
        users.stream().map(u -> windowDays.applyAsInt(u.workspaceId())).toArray(Integer[]::new));
    return List.of(
        new BatchedSessionSource(vertx, pool, "invite", NEWEST_INVITE, (params, users) -> {}),
        new BatchedSessionSource(vertx, pool, "analytics", NEWEST_EVENT_WITH_SESSION, windows),
        new BatchedSessionSource(vertx, pool, "last_known", LAST_SESSION, windows));
  }
}
