package dev.eventrouter.store;

import dev.eventrouter.config.Network;
import dev.eventrouter.event.DeliveryFilter;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.event.MatchKeys;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * SQL of the deliveries outbox as the API shows it (an event's deliveries, filtered lists, the integrations'
 * summary) and of the redeliveries it asks for, which select the same rows. The forwarders' side is
 * {@link DeliveryStore}'s.
 */
public final class DeliveryViews {

  /**
   * The deliveries of one workspace ($1) that a {@link DeliveryFilter} names: events $2 <= id < $3, integration $4,
   * states $5, the bot's event name $6, after ($7, $8), at most $9, a buyer's campaigns $10. NULL matches all.
   */
  private static final String MATCHING = """
        FROM deliveries d JOIN events e ON e.event_id = d.event_id
       WHERE d.workspace_id = $1 AND d.event_id >= $2 AND d.event_id < $3
         AND ($4::text IS NULL OR d.integration_id = $4)
         AND d.status = ANY($5::text[])
         AND ($6::text IS NULL OR e.event_name = $6)
         AND (d.event_id, d.delivery_id) > ($7, $8)
         AND """ + ScopeSql.events("e", 10) + """
       ORDER BY d.event_id, d.delivery_id
       LIMIT $9""";

  static final String LIST = """
      SELECT d.event_id, d.delivery_id, d.integration_id, d.network, e.event_name, d.mapped_event, d.status,
             d.attempts, d.last_error, d.delivered_at, d.updated_at
      """ + MATCHING;

  /** Re-queues the matching rows ($5: failed, expired or unconfirmed ones only), skipping any another call holds. */
  static final String REQUEUE_MATCHING = """
      WITH picked AS (
          SELECT d.event_id, d.delivery_id
      """ + MATCHING + """

             FOR UPDATE OF d SKIP LOCKED)
      UPDATE deliveries d SET status = 'pending', next_attempt_at = now(), claims = 0, updated_at = now()
        FROM picked
       WHERE d.event_id = picked.event_id AND d.delivery_id = picked.delivery_id
      RETURNING d.network""";

  /**
   * An event's deliveries: its rows, and a pending one for each integration the event names whose forwarder has not
   * reached it yet (no row made, {@link DeliveryCursors}).
   */
  static final String FOR_EVENT = """
      SELECT integration_id, network, mapped_event, status, attempts, last_error, delivered_at, payload,
             next_attempt_at, change_seq
        FROM deliveries WHERE event_id = $1
      UNION ALL
      SELECT t.key, t.value ->> 0, t.value ->> 1, 'pending', 0, NULL, NULL, NULL, e.received_at, 0
        FROM events e CROSS JOIN LATERAL jsonb_each(e.deliver_to) AS t
       WHERE e.event_id = $1
         AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = $1 AND d.integration_id = t.key
                                                      AND d.change_seq = 0)
       ORDER BY network, integration_id, change_seq""";

  static final String REQUEUE = """
      UPDATE deliveries SET status = 'pending', next_attempt_at = now(), claims = 0, updated_at = now()
       WHERE event_id = $1 AND workspace_id = $2 AND status IN ('failed', 'expired', 'unconfirmed')
      RETURNING network""";

  /** The most match keys a network has (bits counted by SUMMARY). */
  private static final int MATCH_KEY_BITS = MatchKeys.BY_NETWORK.values().stream().mapToInt(List::size).max()
      .orElse(0);

  /**
   * A workspace's deliveries of events since an event id ($2), by integration and state, with how many of them carry
   * match keys (the delivered, since match keys were stored) and how many carried each key (k0, k1, ...).
   */
  static final String SUMMARY = "SELECT integration_id, network, status, count(*) AS n, count(match_keys) AS keyed"
      + IntStream.range(0, MATCH_KEY_BITS)
          .mapToObj(bit -> ", count(*) FILTER (WHERE match_keys & " + (1 << bit) + " <> 0) AS k" + bit)
          .collect(Collectors.joining())
      + " FROM deliveries WHERE workspace_id = $1 AND event_id >= $2 GROUP BY integration_id, network, status";

  static final String WORKSPACE_PAUSES = """
      SELECT integration_id, reason, paused_at FROM integration_pauses WHERE workspace_id = $1""";

  /** The states whose next_attempt_at is a time something will happen (for the others it is a leftover). */
  private static final Set<String> WAITING = Set.of("pending", "retrying");

  private final Pool pool;
  private final Pool readPool;

  public DeliveryViews(Pool pool, Pool readPool) {
    this.pool = pool;
    this.readPool = readPool;
  }

  /** The deliveries of an event, as the status endpoint shows them. */
  public Future<JsonArray> forEvent(long eventId) {
    return readPool.preparedQuery(FOR_EVENT).execute(Tuple.of(eventId)).map(rows -> {
      JsonArray deliveries = new JsonArray();
      for (Row row : rows) {
        // The payload of its last request (dry run: of the request it would have been), null before any.
        deliveries.add(state(row).put("event_name", row.getString("mapped_event"))
            .put("next_attempt_at", WAITING.contains(row.getString("status")) ? instant(row, "next_attempt_at") : null)
            .put("change", row.getInteger("change_seq"))
            .put("payload", row.getJson("payload")));
      }
      return deliveries;
    });
  }

  /** Re-queues the failed, expired and unconfirmed deliveries of an event; returns the networks to wake. */
  public Future<List<String>> requeue(UUID workspaceId, long eventId) {
    return pool.preparedQuery(REQUEUE).execute(Tuple.of(eventId, workspaceId)).map(DeliveryViews::networks);
  }

  /** The network of each row a statement returned (re-queued, or made). */
  static List<String> networks(RowSet<Row> rows) {
    List<String> networks = new ArrayList<>();
    rows.forEach(row -> networks.add(row.getString(0)));
    return networks;
  }

  /** What the API shows of any delivery: where it goes and how it stands. */
  private static JsonObject state(Row row) {
    return new JsonObject()
        .put("integration_id", row.getString("integration_id"))
        .put("network", row.getString("network"))
        .put("status", row.getString("status"))
        .put("attempts", row.getInteger("attempts"))
        .put("last_error", row.getString("last_error"))
        .put("delivered_at", instant(row, "delivered_at"));
  }

  /** The deliveries a filter names (of the events of a buyer's campaigns; null: any), in event order. */
  public Future<JsonArray> list(DeliveryFilter filter, String[] campaigns) {
    return readPool.preparedQuery(LIST).execute(matching(filter).addArrayOfString(campaigns)).map(rows -> {
      JsonArray deliveries = new JsonArray();
      for (Row row : rows) {
        deliveries.add(state(row)
            .put("event_id", EventIds.format(row.getLong("event_id")))
            .put("delivery_id", row.getLong("delivery_id"))
            .put("event_name", row.getString("event_name"))
            .put("mapped_event", row.getString("mapped_event"))
            .put("updated_at", instant(row, "updated_at")));
      }
      return deliveries;
    });
  }

  /**
   * A workspace's integrations as their deliveries since {@code fromEventId} show them:
   * {@code {"integrations": {id: {"deliveries": {state: n}, "match_keys": {"deliveries": n, "share": {key: 0..1}}}},
   * "paused": {id: {"reason", "paused_at"}}}}; match keys only for networks that have them.
   */
  public Future<JsonObject> summary(UUID workspaceId, long fromEventId) {
    Future<RowSet<Row>> counts = readPool.preparedQuery(SUMMARY).execute(Tuple.of(workspaceId, fromEventId));
    Future<RowSet<Row>> pauses = readPool.preparedQuery(WORKSPACE_PAUSES).execute(Tuple.of(workspaceId));
    return Future.all(counts, pauses).map(v -> {
      JsonObject integrations = new JsonObject();
      for (Row row : counts.result()) {
        JsonObject integration = integrations.getJsonObject(row.getString("integration_id"));
        if (integration == null) {
          integration = new JsonObject().put("deliveries", new JsonObject());
          integrations.put(row.getString("integration_id"), integration);
        }
        integration.getJsonObject("deliveries").put(row.getString("status"), row.getLong("n"));
        addMatchKeys(integration, Network.valueOf(row.getString("network").toUpperCase(Locale.ROOT)), row);
      }
      JsonObject paused = new JsonObject();
      for (Row row : pauses.result()) {
        paused.put(row.getString("integration_id"), new JsonObject().put("reason", row.getString("reason"))
            .put("paused_at", instant(row, "paused_at")));
      }
      return new JsonObject().put("integrations", integrations).put("paused", paused);
    });
  }

  /** Adds this row's match-key counts to the integration's, and its shares of them. */
  private static void addMatchKeys(JsonObject integration, Network network, Row row) {
    List<String> keys = MatchKeys.BY_NETWORK.get(network);
    if (keys.isEmpty()) {
      return;
    }
    JsonObject coverage = integration.getJsonObject("match_keys", new JsonObject().put("deliveries", 0L)
        .put("carried", new JsonObject()));
    long keyed = coverage.getLong("deliveries") + row.getLong("keyed");
    JsonObject carried = coverage.getJsonObject("carried");
    JsonObject share = new JsonObject();
    for (int bit = 0; bit < keys.size(); bit++) {
      long n = carried.getLong(keys.get(bit), 0L) + row.getLong("k" + bit);
      carried.put(keys.get(bit), n);
      share.put(keys.get(bit), keyed == 0 ? null : Math.round(n * 1000.0 / keyed) / 1000.0);
    }
    integration.put("match_keys", coverage.put("deliveries", keyed).put("share", share));
  }

  /**
   * Re-queues the failed, expired or unconfirmed deliveries a filter names, at most its limit; returns their
   * networks.
   */
  public Future<List<String>> requeue(DeliveryFilter filter) {
    return pool.preparedQuery(REQUEUE_MATCHING).execute(matching(filter).addArrayOfString(null))
        .map(DeliveryViews::networks);
  }

  private static Tuple matching(DeliveryFilter filter) {
    return Tuple.of(filter.workspaceId(), filter.fromEventId(), filter.toEventId(), filter.integrationId(),
            filter.statuses().toArray(String[]::new), filter.eventName(), filter.afterEventId())
        .addLong(filter.afterDelivery()).addInteger(filter.limit());
  }

  /** A timestamp column as the API shows it (ISO-8601, UTC), or null. */
  static String instant(Row row, String column) {
    return row.getOffsetDateTime(column) == null ? null : row.getOffsetDateTime(column).toInstant().toString();
  }
}
