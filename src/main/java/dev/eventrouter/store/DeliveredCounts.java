package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * Our side of the reconciliation (docs/reports.md#reconcile): the deliveries to Meta and TikTok that succeeded, per
 * hour of their events, integration, click ids and mapped event (delivered_counts, V28). Counted again, hour by hour,
 * over the last hours at each recount rather than on the delivery path: a delivery may succeed hours after its event
 * (retries, a paused integration resumed, a redelivery), and the count of an hour is only ever replaced, never added
 * to, so a recount never counts a delivery twice. One node recounts at a time (a transaction-scoped advisory lock).
 */
public final class DeliveredCounts {

  /** Held by the transaction that recounts, so two nodes never interleave their hours. */
  private static final String LOCK = "SELECT pg_try_advisory_xact_lock(hashtext('delivered_counts')) AS locked";

  private static final String DROP = "DELETE FROM delivered_counts WHERE hour >= $1 AND hour < $2";

  /** The deliveries of the events of [$1, $2): the event id's range picks the partitions and the rows. */
  private static final String COUNT = """
      INSERT INTO delivered_counts (workspace_id, hour, network, integration_id, campaign_id, adset_id, ad_id,
                                    mapped_event, n)
      SELECT d.workspace_id, date_trunc('hour', e.received_at, 'UTC'), d.network, d.integration_id,
             coalesce(c.ad->>'campaign_id', ''), coalesce(c.ad->>'adset_id', ''), coalesce(c.ad->>'ad_id', ''),
             d.mapped_event, count(*)
        FROM deliveries d JOIN events e ON e.event_id = d.event_id
        LEFT JOIN click_sessions c ON c.workspace_id = e.workspace_id AND c.session_id = e.session_id
       WHERE d.event_id >= event_id_floor($1) AND d.event_id < event_id_floor($2)
         AND e.event_id >= event_id_floor($1) AND e.event_id < event_id_floor($2)
         AND d.status = 'delivered' AND d.network IN ('meta', 'tiktok')
       GROUP BY 1, 2, 3, 4, 5, 6, 7, 8""";

  private final Pool pool;

  public DeliveredCounts(Pool pool) {
    this.pool = pool;
  }

  /**
   * Counts again the hours from {@code hours} before {@code now} (its hour included), one transaction an hour so no
   * statement holds much; how many hours it counted (0 when another node was counting).
   */
  public Future<Integer> recount(Instant now, int hours) {
    OffsetDateTime end = now.atOffset(ZoneOffset.UTC).truncatedTo(ChronoUnit.HOURS).plusHours(1);
    return recountFrom(end.minusHours(hours), end, 0);
  }

  private Future<Integer> recountFrom(OffsetDateTime hour, OffsetDateTime end, int done) {
    if (!hour.isBefore(end)) {
      return Future.succeededFuture(done);
    }
    OffsetDateTime next = hour.plus(Duration.ofHours(1));
    return pool.withTransaction(conn -> conn.query(LOCK).execute().compose(locked -> {
      if (!locked.iterator().next().getBoolean("locked")) {
        return Future.succeededFuture(false);
      }
      Tuple span = Tuple.of(hour, next);
      return conn.preparedQuery(DROP).execute(span).compose(v -> conn.preparedQuery(COUNT).execute(span))
          .map(v -> true);
    })).compose(counted -> counted ? recountFrom(next, end, done + 1) : Future.succeededFuture(done));
  }
}
