package dev.eventrouter.report;

import dev.eventrouter.common.HostLoad;
import dev.eventrouter.common.LogSafe;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.ReportsConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.store.FunnelReports;
import dev.eventrouter.store.FunnelRollups;
import dev.eventrouter.store.ReportCurrency;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the funnel report's rollups: a round every {@code reports.rollup_every_ms} adds what was written since the
 * last (rounds follow each other while a backlog is left; while the host is busy they keep to
 * {@code reports.rollup_budget_percent} of the time); the operator's rates file is imported at start
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
  /** The pause between rounds while behind: a window in which to see whether the host is still idle. */
  static final long CATCH_UP_PAUSE_MS = 100;
  /** The longest a round should take while the host is busy. */
  static final long BUSY_ROUND_MS = 250;
  /** How often a pause that the budget lengthened looks whether the host has become idle. */
  static final long RECHECK_MS = 1_000;
  /** The biggest rates file read: the ECB's whole history since 1999 is about 1.5 MB. */
  static final long MAX_RATES_BYTES = 16L * 1024 * 1024;

  private final FunnelRollups rollups;
  private final ReportCurrency currency;
  /** Where the rollups reach, read as the report reads it. */
  private final FunnelReports report;
  private final LiveConfig live;
  /** The host's CPU use between the rounds (the rounds' own work left out). */
  private final HostLoad.Window hostLoad = HostLoad.host().window();
  private String ratesRead;
  private long timer;
  /** Set on undeploy: a round still running then schedules no other. */
  private volatile boolean stopped;
  /** How much of the backlog the next round takes on. */
  private long spanMs = MAX_SPAN_MS;

  /** The rollups' reach as this node last saw it (null until it has). */
  private volatile Instant reach;

  public RollupVerticle(FunnelRollups rollups, ReportCurrency currency, FunnelReports report, LiveConfig live,
                        MeterRegistry metrics) {
    this.rollups = rollups;
    this.currency = currency;
    this.report = report;
    this.live = live;
    // Grows while the report falls behind: under a load past the rounds' budget, or when rounds fail.
    Gauge.builder("event_router.report.rollup_behind_seconds", this,
            v -> v.reach == null ? Double.NaN : Duration.between(v.reach, Instant.now()).toMillis() / 1000.0)
        .description("seconds from the funnel report rollups' reach to now").register(metrics);
  }

  @Override
  public Future<?> start() {
    vertx.setPeriodic(RATES_CHECK_MS, id -> importRates());
    vertx.setPeriodic(PURGE_EVERY_MS, id -> rollups.purge(reports().retentionDays())
        .onFailure(e -> LOG.warn("purging old funnel rollups failed: {}", LogSafe.describe(e))));
    timer = vertx.setTimer(1, id -> round(false));
    return importRates();
  }

  private ReportsConfig reports() {
    return live.current().reports();
  }

  /**
   * One round, then the next: after the configured pause (a short one while behind), and, while the host is busy,
   * no sooner than the budget allows. The next is scheduled only once this one is done, so rounds never overlap on a
   * node.
   */
  private void round(boolean busy) {
    Map<UUID, String> currencies = new HashMap<>();
    Map<UUID, String> zones = new HashMap<>();
    for (WorkspaceConfig workspace : live.current().workspaces()) {
      currencies.put(workspace.id(), workspace.report().currency());
      zones.put(workspace.id(), workspace.report().zone().getId());
    }
    long started = System.nanoTime();
    rollups.rollUp(reports().rollupLagMs(), spanMs, currencies, zones, reports().cohorts()).onComplete(done -> {
      long ended = System.nanoTime();
      long roundMs = TimeUnit.NANOSECONDS.toMillis(ended - started);
      spanMs = nextSpanMs(spanMs, roundMs, done.failed(), busy);
      if (done.failed()) {
        LOG.warn("funnel rollup round failed, tried again over {} s: {}", spanMs / 1000,
            LogSafe.describe(done.cause()));
      }
      if (done.succeeded() && done.result() != null) {
        reach = done.result().upto().toInstant();
      } else if (done.succeeded()) { // another node's round: its reach, for the gauge
        report.rolledUpTo().onSuccess(upto -> reach = upto.toInstant());
      }
      if (stopped) {
        return;
      }
      boolean behind = done.succeeded() && done.result() != null && done.result().behind();
      long budgetedMs = HostLoad.budgetedPauseMs(roundMs, reports().rollupBudgetPercent());
      hostLoad.mark(); // the host's use is measured from now, leaving this round's own work out
      long pauseMs = behind ? CATCH_UP_PAUSE_MS : reports().rollupEveryMs();
      timer = vertx.setTimer(pauseMs, id -> whenDue(ended + TimeUnit.MILLISECONDS.toNanos(budgetedMs)));
    });
  }

  /**
   * Starts the next round now if the budget allows it or the host is idle (a burst is over: catching up at full
   * pace), else looks again shortly, so a long pause taken under load ends as soon as the load does.
   */
  private void whenDue(long budgetEnds) {
    boolean busy = hostBusy();
    long leftMs = TimeUnit.NANOSECONDS.toMillis(budgetEnds - System.nanoTime());
    if (leftMs <= 0 || !busy) {
      round(busy);
    } else {
      timer = vertx.setTimer(Math.min(leftMs, RECHECK_MS), id -> whenDue(budgetEnds));
    }
  }

  /**
   * How much of the backlog the next round takes on. A backlog (after downtime, a burst) can make an hour's round
   * outlast the statement timeout: after a failure, a quarter, so the rounds catch up instead of failing for ever.
   * While the host is busy, what a round of {@link #BUSY_ROUND_MS} takes, so the budget is spent in short rounds
   * spread out rather than in one long one (a round's length grows with the pause before it). Else twice as much.
   */
  static long nextSpanMs(long spanMs, long roundMs, boolean failed, boolean busy) {
    if (failed) {
      return Math.max(MIN_SPAN_MS, spanMs / 4);
    }
    if (busy && roundMs > BUSY_ROUND_MS) {
      return Math.max(MIN_SPAN_MS, spanMs * BUSY_ROUND_MS / roundMs);
    }
    return Math.min(MAX_SPAN_MS, spanMs * 2);
  }

  /** Whether the host's CPUs were busy since the last call (unknown counts as busy). */
  private boolean hostBusy() {
    return hostLoad.look() >= HostLoad.BUSY;
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
          .compose(rates -> currency.importRates(rates.currencies(), rates.days(), rates.perEur())
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
    stopped = true;
    vertx.cancelTimer(timer);
    return Future.succeededFuture();
  }
}
