package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The outcomes of deliveries taken past a cursor ({@link ClaimedDelivery#rowless}): each makes their rows in the
 * state it leaves them, so a delivery sent in order and accepted is written once. {@link DeliveryOutcomeStore} runs
 * each outcome through {@link #both}, which splits a batch into the rows to update and those to make.
 */
final class TakenOutcomes {

  /**
   * Makes the rows of deliveries taken past a cursor in an outcome's state ($6 status, $7 attempts, $8 last_error,
   * $9 due, else now), with $10 the payload and $11 the match keys of each where given: $1 event ids, $2 workspaces,
   * $3 integrations, $4 networks, $5 names. A row made meanwhile (another node took the cursor after this one's
   * lease ran out and sent it too, under the same event_id) is kept.
   */
  static final String MADE = """
      INSERT INTO deliveries (event_id, workspace_id, integration_id, network, mapped_event, status, attempts,
                              last_error, next_attempt_at, delivered_at, match_keys, payload, claims)
      SELECT j.event_id, j.workspace_id, j.integration_id, j.network, j.mapped_event, $6, $7, $8,
             coalesce($9, now()), CASE WHEN $6 = 'delivered' THEN now() END, j.match_keys, j.payload, 0
        FROM unnest($1::bigint[], $2::uuid[], $3::text[], $4::text[], $5::text[], $10::jsonb[], $11::int[])
               AS j(event_id, workspace_id, integration_id, network, mapped_event, payload, match_keys)
      ON CONFLICT DO NOTHING""";

  /** A taken delivery, as its row is keyed (its change is 0). */
  private record Key(long eventId, String integrationId) {
    static Key of(ClaimedDelivery job) {
      return new Key(job.eventId(), job.integrationId());
    }
  }

  private final Pool pool;
  /**
   * The taken deliveries whose outcome made their row, until their claim's settle, which then makes rows only for
   * the others ({@link #withoutOutcome}). A row made but not noted here (the answer to the insert was lost) is only
   * made again with ON CONFLICT DO NOTHING, which keeps it.
   */
  private final Set<Key> made = ConcurrentHashMap.newKeySet();

  TakenOutcomes(Pool pool) {
    this.pool = pool;
  }

  /** Of a claim's taken deliveries, those no outcome made a row for; forgets them all. */
  List<ClaimedDelivery> withoutOutcome(List<ClaimedDelivery> taken) {
    List<ClaimedDelivery> without = new ArrayList<>();
    for (ClaimedDelivery job : taken) {
      if (!made.remove(Key.of(job))) {
        without.add(job);
      }
    }
    return without;
  }

  /** One outcome: the update of the claimed rows among {@code jobs}, and the making of the others' rows. */
  static Future<Void> both(List<ClaimedDelivery> jobs, Function<List<ClaimedDelivery>, Future<?>> update,
                           Function<List<ClaimedDelivery>, Future<?>> make) {
    List<ClaimedDelivery> rows = jobs.stream().filter(job -> !job.rowless()).toList();
    List<ClaimedDelivery> taken = jobs.stream().filter(ClaimedDelivery::rowless).toList();
    Future<?> updated = rows.isEmpty() ? Future.succeededFuture() : update.apply(rows);
    Future<?> inserted = taken.isEmpty() ? Future.succeededFuture() : make.apply(taken);
    return Future.all(updated, inserted).mapEmpty();
  }

  /** {@link #MADE}: {@code payloads} and {@code matchKeys} in the order of {@code jobs}, or empty. */
  Future<?> make(List<ClaimedDelivery> jobs, String status, int attempts, String error, Instant due,
                 List<JsonObject> payloads, List<Integer> matchKeys) {
    return pool.preparedQuery(MADE).execute(Tuple.tuple()
        .addArrayOfLong(jobs.stream().map(ClaimedDelivery::eventId).toArray(Long[]::new))
        .addArrayOfUUID(jobs.stream().map(ClaimedDelivery::workspaceId).toArray(UUID[]::new))
        .addArrayOfString(jobs.stream().map(ClaimedDelivery::integrationId).toArray(String[]::new))
        .addArrayOfString(jobs.stream().map(ClaimedDelivery::network).toArray(String[]::new))
        .addArrayOfString(jobs.stream().map(ClaimedDelivery::mappedEvent).toArray(String[]::new))
        .addString(status).addInteger(attempts).addString(error)
        .addOffsetDateTime(due == null ? null : due.atOffset(ZoneOffset.UTC))
        .addArrayOfJsonObject(payloads.toArray(JsonObject[]::new))
        .addArrayOfInteger(matchKeys.toArray(Integer[]::new)))
        .onSuccess(rows -> jobs.forEach(job -> made.add(Key.of(job))));
  }

  /** The items of {@code values} (in the order of {@code all}) that belong to {@code some}, in their order. */
  static <T> List<T> pick(List<ClaimedDelivery> all, List<ClaimedDelivery> some, List<T> values) {
    if (some.size() == all.size()) {
      return values;
    }
    Map<ClaimedDelivery, Integer> at = new IdentityHashMap<>();
    for (int i = 0; i < all.size(); i++) {
      at.put(all.get(i), i);
    }
    List<T> picked = new ArrayList<>(some.size());
    some.forEach(job -> picked.add(values.get(at.get(job))));
    return picked;
  }
}
