package dev.eventrouter.report;

import dev.eventrouter.common.LogSafe;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.ReportsConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.store.FunnelStore;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the funnel report's rollups: a round every {@code reports.rollup_every_ms} adds what was written since the
 * last (rounds follow each other at once while a backlog is left); the operator's rates file is imported at start
 * and again whenever it changes; rollups past {@code reports.retention_days} are purged. Every ingest node runs
 * one; a round on one node makes the others' skip (the cursor's row lock), so each write is counted once.
 */
public final class RollupVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(RollupVerticle.class);
  private static final long RATES_CHECK_MS = TimeUnit.MINUTES.toMillis(1);
  private static final long PURGE_EVERY_MS = TimeUnit.HOURS.toMillis(1);
  /** The most a round takes on: an hour of writes. */
  static final long MAX_SPAN_MS = TimeUnit.HOURS.toMillis(1);
  static final long MIN_SPAN_MS = 1_000;
  /** The biggest rates file read: the ECB's whole history since 1999 is about 1.5 MB. */
  static final long MAX_RATES_BYTES = 16L * 1024 * 1024;

  private final FunnelStore store;
  private final LiveConfig live;
  private String ratesRead;
  private long timer;
  /** How much of the backlog the next round takes on. */
  private long spanMs = MAX_SPAN_MS;

  public RollupVerticle(FunnelStore store, LiveConfig live) {
    this.store = store;
    this.live = live;
  }

  @Override
  public Future<?> start() {
    vertx.setPeriodic(RATES_CHECK_MS, id -> importRates());
    vertx.setPeriodic(PURGE_EVERY_MS, id -> store.purge(reports().retentionDays())
        .onFailure(e -> LOG.warn("purging old funnel rollups failed: {}", LogSafe.describe(e))));
    schedule(0);
    return importRates();
  }

  private ReportsConfig reports() {
    return live.current().reports();
  }

  private void schedule(long delayMs) {
    timer = vertx.setTimer(Math.max(1, delayMs), id -> round());
  }

  /**
   * One round, then the next: at once while behind, else after the configured pause. The next is scheduled only once
   * this one is done, so rounds never overlap on a node.
   */
  private void round() {
    Map<UUID, String> currencies = new HashMap<>();
    Map<UUID, String> zones = new HashMap<>();
    for (WorkspaceConfig workspace : live.current().workspaces()) {
      currencies.put(workspace.id(), workspace.report().currency());
      zones.put(workspace.id(), workspace.report().zone().getId());
    }
    store.rollUp(reports().rollupLagMs(), spanMs, currencies, zones).onComplete(done -> {
      if (done.failed()) {
        // A backlog (after downtime, a burst) can make an hour's round outlast the statement timeout: a shorter span
        // next, so the rounds catch up instead of failing for ever; longer again after each round that succeeds.
        spanMs = Math.max(MIN_SPAN_MS, spanMs / 4);
        LOG.warn("funnel rollup round failed, tried again over {} s: {}", spanMs / 1000,
            LogSafe.describe(done.cause()));
      } else {
        spanMs = Math.min(MAX_SPAN_MS, spanMs * 2);
      }
      boolean behind = done.succeeded() && done.result() != null && done.result().behind();
      schedule(behind ? 0 : reports().rollupEveryMs());
    });
  }

  /** Reads the rates file when it changed since it was last read (by size and time) and stores its rates. */
  private Future<Void> importRates() {
    String path = reports().ratesFile();
    if (path == null) {
      return Future.succeededFuture();
    }
    return vertx.fileSystem().props(path).compose(props -> {
      String seen = path + "|" + props.size() + "|" + props.lastModifiedTime();
      if (seen.equals(ratesRead)) {
        return Future.succeededFuture();
      }
      if (props.size() > MAX_RATES_BYTES) {
        return Future.failedFuture(new IllegalArgumentException("larger than " + MAX_RATES_BYTES + " bytes"));
      }
      // A file that cannot be read is reported once, not every minute until it changes.
      ratesRead = seen;
      return vertx.fileSystem().readFile(path)
          .map(bytes -> RatesFile.parse(bytes.toString()))
          .compose(rates -> store.importRates(rates.currencies(), rates.days(), rates.perEur())
              .onFailure(e -> ratesRead = null) // the database's failure: tried again at the next check
              .map(changed -> {
                LOG.info("rates file {} read: {} rates, {} new or changed", path, rates.size(), changed);
                return (Void) null;
              }));
    }).recover(e -> {
      // A missing or unreadable file leaves the rates stored before: reports go on, converting what they can.
      LOG.warn("rates file {} not imported: {}", path, e instanceof IllegalArgumentException ? e.getMessage()
          : LogSafe.describe(e));
      return Future.succeededFuture();
    });
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timer);
    return Future.succeededFuture();
  }
}
