package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.util.UUID;

/** The audit log: who did what to which target, with what outcome, per workspace, newest first. */
public final class AuditLog {

  /** The action a config applied is recorded as. */
  public static final String CONFIG_RELOAD = "config.reload";

  /**
   * One entry. A config reload is recorded once per workspace and config (its digest the target) however many nodes
   * applied it within the hour: each node of a cluster reads the same file. They may apply it at the same moment, so
   * a reload's insert runs under a lock of its (workspace, digest) ({@link #ONE_AT_A_TIME}), and sees the other's
   * row once it has the lock.
   */
  static final String RECORD = """
      INSERT INTO audit_log (workspace_id, key_name, action, target, outcome)
      SELECT $1, $2, $3, $4, $5
       WHERE $3 <> '%s' OR NOT EXISTS (
             SELECT 1 FROM audit_log WHERE workspace_id = $1 AND action = $3 AND target = $4
                AND at > now() - interval '1 hour')""".formatted(CONFIG_RELOAD);

  /** Held until the transaction ends: one reload's entry of a workspace is written at a time. */
  static final String ONE_AT_A_TIME = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))";

  /** A page of a workspace's entries below an id ($2, null for the newest), at most $3. */
  static final String LIST = """
      SELECT id, at, key_name, action, target, outcome FROM audit_log
       WHERE workspace_id = $1 AND ($2::bigint IS NULL OR id < $2)
       ORDER BY id DESC LIMIT $3""";

  private final Pool pool;

  public AuditLog(Pool pool) {
    this.pool = pool;
  }

  public Future<Void> record(UUID workspaceId, String keyName, String action, String target, String outcome) {
    Tuple entry = Tuple.of(workspaceId, keyName, action, target, outcome);
    if (!CONFIG_RELOAD.equals(action)) {
      return pool.preparedQuery(RECORD).execute(entry).mapEmpty();
    }
    return pool.withTransaction(conn -> conn.preparedQuery(ONE_AT_A_TIME)
        .execute(Tuple.of("audit " + workspaceId + " " + target))
        .compose(locked -> conn.preparedQuery(RECORD).execute(entry))).mapEmpty();
  }

  public Future<JsonArray> list(UUID workspaceId, Long before, int limit) {
    return pool.preparedQuery(LIST).execute(Tuple.of(workspaceId, before, limit)).map(rows -> {
      JsonArray entries = new JsonArray();
      for (Row row : rows) {
        entries.add(new JsonObject().put("id", row.getLong("id"))
            .put("at", row.getOffsetDateTime("at").toInstant().toString())
            .put("key_name", row.getString("key_name")).put("action", row.getString("action"))
            .put("target", row.getString("target")).put("outcome", row.getString("outcome")));
      }
      return entries;
    });
  }
}
