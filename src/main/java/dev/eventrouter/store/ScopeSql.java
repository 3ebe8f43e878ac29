package dev.eventrouter.store;

/** SQL of a buyer's scope: an event is in it when its session's click names one of the scope's campaigns. */
final class ScopeSql {

  private ScopeSql() {}

  /** The condition on the events aliased {@code alias}; the campaigns are the text[] {@code $param} (null: all). */
  static String events(String alias, int param) {
    return ("($%2$d::text[] IS NULL OR EXISTS (SELECT 1 FROM click_sessions sc"
        + " WHERE sc.workspace_id = %1$s.workspace_id AND sc.session_id = %1$s.session_id"
        + " AND sc.ad->>'campaign_id' = ANY($%2$d::text[])))").formatted(alias, param);
  }
}
