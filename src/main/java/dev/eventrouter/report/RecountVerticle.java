package dev.eventrouter.report;

import dev.eventrouter.common.LogSafe;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.store.DeliveredCounts;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Counts again what was delivered to Meta and TikTok over the last {@code reports.reconcile_lookback_hours}, every
 * {@link #EVERY_MS}, for the reconciliation (docs/reports.md#reconcile). Every ingest node runs one; a recount on one
 * node makes the others' skip (a transaction-scoped advisory lock). The next starts only once one is done.
 */
public final class RecountVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(RecountVerticle.class);
  /** How often: the reconciliation compares days, so a quarter of an hour's delay is not seen. */
  static final long EVERY_MS = TimeUnit.MINUTES.toMillis(15);

  private final DeliveredCounts counts;
  private final LiveConfig live;
  private final long everyMs;
  private volatile boolean stopped;

  public RecountVerticle(DeliveredCounts counts, LiveConfig live) {
    this(counts, live, EVERY_MS);
  }

  /** Recounting every {@code everyMs} (tests). */
  public RecountVerticle(DeliveredCounts counts, LiveConfig live, long everyMs) {
    this.counts = counts;
    this.live = live;
    this.everyMs = everyMs;
  }

  /** The first a period after the start: a node's start is busy enough, and the counts of a day wait well. */
  @Override
  public Future<?> start() {
    vertx.setTimer(everyMs, id -> recount());
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    stopped = true;
    return Future.succeededFuture();
  }

  private void recount() {
    counts.recount(Instant.now(), live.current().reports().reconcileLookbackHours())
        .onFailure(e -> LOG.warn("counting the delivered events for the reconciliation failed, tried again in {} "
            + "min: {}", everyMs / 60_000, LogSafe.describe(e)))
        .onComplete(done -> {
          if (!stopped) {
            vertx.setTimer(everyMs, id -> recount());
          }
        });
  }
}
