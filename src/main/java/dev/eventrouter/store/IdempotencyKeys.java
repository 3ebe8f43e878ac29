package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The Idempotency-Key protocol: within one transaction with the insert, each key is claimed by a unique constraint
 * (never read-then-write), so racing requests with one key store exactly one event and all get its answer.
 */
final class IdempotencyKeys {

  /** Claims each key unless a claim younger than 24 h holds it; returns the event ids whose claim won. */
  static final String CLAIM_KEYS = """
      INSERT INTO idempotency_keys (workspace_id, idempotency_key, request_hash, event_id, created_at)
      SELECT workspace_id, idempotency_key, request_hash, event_id, now()
        FROM jsonb_to_recordset($1::jsonb) AS t(workspace_id uuid, idempotency_key text, request_hash text,
             event_id bigint)
      ON CONFLICT (workspace_id, idempotency_key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, event_id = EXCLUDED.event_id, created_at = EXCLUDED.created_at
       WHERE idempotency_keys.created_at < now() - interval '24 hours'
      RETURNING event_id""";

  /** The standing claims of keys that lost; a separate statement, so it sees claims committed meanwhile. */
  static final String EXISTING_CLAIMS = """
      SELECT k.workspace_id, k.idempotency_key, k.request_hash, k.event_id, e.session_id
        FROM jsonb_to_recordset($1::jsonb) AS t(workspace_id uuid, idempotency_key text)
        JOIN idempotency_keys k USING (workspace_id, idempotency_key)
        JOIN events e ON e.event_id = k.event_id""";

  static final String REPOINT = """
      UPDATE idempotency_keys SET event_id = $3 WHERE workspace_id = $1 AND idempotency_key = $2""";

  static final String PURGE_KEYS = "DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours'";

  private IdempotencyKeys() {}

  /** Who holds each key after this batch's claims, and which of this batch's events won theirs. */
  record Claims(Map<KeyRef, Claim> standing, Set<Long> won) {

    static final Claims NONE = new Claims(Map.of(), Set.of());

    /** The events to insert: those without a key, and those whose claim won. */
    List<NewEvent> toInsert(List<NewEvent> batch) {
      return batch.stream().filter(e -> KeyRef.of(e) == null || won.contains(e.eventId())).toList();
    }

    List<WriteResult> results(List<NewEvent> batch) {
      List<WriteResult> results = new ArrayList<>(batch.size());
      for (NewEvent e : batch) {
        KeyRef ref = KeyRef.of(e);
        if (ref == null) {
          results.add(new WriteResult.Stored(e.eventId(), e.session().sessionId(), false));
          continue;
        }
        Claim claim = standing.get(ref);
        if (claim == null) {
          // The claim vanished between the two statements (purged at the 24 h edge): fail, so the client retries.
          throw new IllegalStateException("idempotency claim disappeared");
        }
        if (!claim.requestHash().equals(e.requestHash())) {
          results.add(new WriteResult.Conflict());
        } else {
          results.add(new WriteResult.Stored(claim.eventId(), claim.sessionId(), !won.contains(e.eventId())));
        }
      }
      return results;
    }
  }

  static Future<Claims> claim(SqlClient conn, List<NewEvent> batch) {
    // One claim per (workspace, key): the first event with a key leads; later ones in the batch share its fate.
    // Claims go in one order everywhere, so two batches never wait on each other's keys crosswise.
    Map<KeyRef, NewEvent> leaders = new TreeMap<>(KeyRef.ORDER);
    for (NewEvent e : batch) {
      KeyRef ref = KeyRef.of(e);
      if (ref != null) {
        leaders.putIfAbsent(ref, e);
      }
    }
    return claimLeaders(conn, leaders)
        .compose(won -> standingClaims(conn, leaders, won).map(standing -> new Claims(standing, won)));
  }

  /** Points a key claimed in this transaction at another event: the one its request turned out to update. */
  static Future<Void> repoint(SqlClient conn, UUID workspaceId, String key, long eventId) {
    return conn.preparedQuery(REPOINT).execute(Tuple.of(workspaceId, key, eventId)).mapEmpty();
  }

  static Future<Integer> purge(Pool pool) {
    return pool.query(PURGE_KEYS).execute().map(rows -> rows.rowCount());
  }

  /** Claims the leaders' keys; returns the event ids whose claim won. */
  private static Future<Set<Long>> claimLeaders(SqlClient conn, Map<KeyRef, NewEvent> leaders) {
    JsonArray claims = new JsonArray();
    leaders.forEach((ref, e) -> claims.add(ref.toJson()
        .put("request_hash", e.requestHash())
        .put("event_id", e.eventId())));
    return conn.preparedQuery(CLAIM_KEYS).execute(Tuple.of(claims)).map(rows -> {
      Set<Long> won = new HashSet<>();
      rows.forEach(row -> won.add(row.getLong(0)));
      return won;
    });
  }

  /** The claim that stands for each key after this batch: the leader's own if it won, otherwise the earlier one. */
  private static Future<Map<KeyRef, Claim>> standingClaims(SqlClient conn, Map<KeyRef, NewEvent> leaders,
                                                           Set<Long> won) {
    Map<KeyRef, Claim> claims = new HashMap<>();
    JsonArray lost = new JsonArray();
    leaders.forEach((ref, e) -> {
      if (won.contains(e.eventId())) {
        claims.put(ref, new Claim(e.requestHash(), e.eventId(), e.session().sessionId()));
      } else {
        lost.add(ref.toJson());
      }
    });
    if (lost.isEmpty()) {
      return Future.succeededFuture(claims);
    }
    return conn.preparedQuery(EXISTING_CLAIMS).execute(Tuple.of(lost)).map(rows -> {
      for (Row row : rows) {
        claims.put(new KeyRef(row.getUUID(0), row.getString(1)),
            new Claim(row.getString(2), row.getLong(3), row.getString(4)));
      }
      return claims;
    });
  }

  record Claim(String requestHash, long eventId, String sessionId) {}

  record KeyRef(UUID workspaceId, String key) {
    static final Comparator<KeyRef> ORDER =
        Comparator.comparing(KeyRef::workspaceId).thenComparing(KeyRef::key);

    static KeyRef of(NewEvent e) {
      return e.idempotencyKey() == null ? null : new KeyRef(e.event().workspaceId(), e.idempotencyKey());
    }

    JsonObject toJson() {
      return new JsonObject().put("workspace_id", workspaceId.toString()).put("idempotency_key", key);
    }
  }
}
