package dev.eventrouter.cost;

import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.common.HostLoad;
import dev.eventrouter.common.LogSafe;
import dev.eventrouter.common.ProxyRoutes;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.CostSourceConfig;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.cost.SpendFailure.Kind;
import dev.eventrouter.store.CostSourceStates;
import dev.eventrouter.store.SpendStore;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.ext.web.client.WebClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * Imports the workspaces' ad spend (docs/costs.md): every {@link Pacing#tickMs()} it looks for due sources and
 * polls each it can claim, one after another. Every node runs one; a source's lease makes one node at a time read
 * it. A refused token pauses the source (said once in the log: the claim skips it until the token changes or the
 * operator asks for a poll); any other failure is tried again after the platform's wait or a few minutes.
 */
public final class SpendVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(SpendVerticle.class);
  /** A failed poll is tried again this soon (or at its interval, if sooner). */
  static final long RETRY_MS = TimeUnit.MINUTES.toMillis(5);

  /**
   * The verticle's clock: how often it looks for due sources, how long a poll's lease lasts between pages, the unit
   * of its pauses between pages (a second in service), each request's timeout, and the share of a busy host's time a
   * poll takes (it pauses after each page for the rest, as the rollups do; 100: no pause).
   */
  public record Pacing(long tickMs, long leaseMs, long pauseUnitMs, long requestTimeoutMs, int busyBudgetPercent) {
    public static final Pacing SERVICE = new Pacing(TimeUnit.SECONDS.toMillis(15), TimeUnit.MINUTES.toMillis(10),
        1_000, TimeUnit.SECONDS.toMillis(60), 5);
  }

  private final SpendStore spend;
  private final CostSourceStates states;
  private final LiveConfig live;
  private final Pacing pacing;
  private CheckedRequests requests;
  /** How much a look at the host's load counts in {@link #recentLoad}. */
  static final double LOAD_WEIGHT = 0.25;
  /** The host's CPU use over the recent looks, 0 to 1; touched on the event loop only. */
  private double recentLoad;
  /** The host's CPU use in the pauses between pages (the poll's own work left out). */
  private final HostLoad.Window hostLoad = HostLoad.host().window();
  private long timer;
  private volatile boolean stopped;
  /** Looks done: a test's checkpoint. */
  private volatile long ticks;

  public SpendVerticle(SpendStore spend, CostSourceStates states, LiveConfig live, Pacing pacing) {
    this.spend = spend;
    this.states = states;
    this.live = live;
    this.pacing = pacing;
  }

  @Override
  public Future<?> start() {
    long timeoutMs = pacing.requestTimeoutMs();
    requests = new CheckedRequests(vertx, WebClient.create(vertx, CheckedRequests.options(timeoutMs)),
        new ProxyRoutes(vertx, timeoutMs));
    timer = vertx.setTimer(1, id -> tick());
    return Future.succeededFuture();
  }

  /** Looks at every enabled source once, then schedules the next look. */
  private void tick() {
    Future<Void> chain = Future.succeededFuture();
    for (WorkspaceConfig workspace : live.current().workspaces()) {
      for (CostSourceConfig source : workspace.costSources()) {
        if (source.enabled()) {
          chain = chain.eventually(() -> visit(workspace, source));
        }
      }
    }
    chain.onComplete(done -> {
      ticks++;
      if (!stopped) {
        timer = vertx.setTimer(pacing.tickMs(), id -> tick());
      }
    });
  }

  private Future<Void> visit(WorkspaceConfig workspace, CostSourceConfig source) {
    String tokenHash = Sha256.hex(source.accessToken());
    return states.ensure(workspace.id(), source.id(), source.kind())
        .compose(v -> states.claim(workspace.id(), source.id(), tokenHash, pacing.leaseMs()))
        .compose(claim -> {
          if (claim == null) {
            return Future.succeededFuture();
          }
          SpendReader reader = CostSourceConfig.META.equals(source.kind())
              ? new MetaInsights(requests, source, pacing.requestTimeoutMs())
              : new TikTokReports(requests, source, pacing.requestTimeoutMs());
          int days = claim.firstRead() ? source.lookbackDays() : source.initialDays();
          long intervalMs = TimeUnit.MINUTES.toMillis(source.pollIntervalMinutes());
          return new SpendPoll(vertx, spend, states, workspace.id(), source.id(), claim, pacing.leaseMs(),
              pacing.pauseUnitMs(), pageMs -> HostLoad.budgetedPauseMs(pageMs, pacing.busyBudgetPercent()),
              this::hostBusy, hostLoad::mark).run(reader, days)
              .compose(rows -> states.succeeded(workspace.id(), source.id(), intervalMs),
                  failure -> failed(workspace, source, tokenHash, failure, intervalMs));
        })
        .recover(e -> {
          LOG.warn("cost source {} of workspace {}: its state could not be kept: {}", source.id(), workspace.id(),
              LogSafe.describe(e));
          return Future.succeededFuture();
        });
  }

  private Future<Void> failed(WorkspaceConfig workspace, CostSourceConfig source, String tokenHash,
                              Throwable failure, long intervalMs) {
    SpendFailure f = failure instanceof SpendFailure known ? known
        : new SpendFailure(Kind.FAILED, SpendFailure.words(LogSafe.describe(failure), source.accessToken()));
    if (f.kind() == Kind.TOKEN_REFUSED) {
      LOG.warn("cost source {} of workspace {} paused: {}. Give it another token (or fix its permission and press "
          + "\"poll now\" on the debugger page)", source.id(), workspace.id(), f.getMessage());
      return states.paused(workspace.id(), source.id(), f.getMessage(), tokenHash);
    }
    long waitMs = f.kind() == Kind.RATE_LIMITED ? f.waitMs() : Math.min(RETRY_MS, intervalMs);
    LOG.warn("cost source {} of workspace {} not read, tried again in {} s: {}", source.id(), workspace.id(),
        waitMs / 1000, f.getMessage());
    return states.failed(workspace.id(), source.id(), f.getMessage(), waitMs);
  }

  /**
   * Whether the host's CPUs are busy, from the looks so far: a look covers a pause between pages (a few
   * milliseconds, so one look alone says little), each counting a quarter in a running average (unknown counts as
   * busy).
   */
  private boolean hostBusy() {
    recentLoad = LOAD_WEIGHT * hostLoad.look() + (1 - LOAD_WEIGHT) * recentLoad;
    return recentLoad >= HostLoad.BUSY;
  }

  long ticks() {
    return ticks;
  }

  @Override
  public Future<?> stop() {
    stopped = true;
    vertx.cancelTimer(timer);
    return Future.succeededFuture();
  }
}
