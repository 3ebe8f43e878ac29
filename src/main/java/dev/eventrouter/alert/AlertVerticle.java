package dev.eventrouter.alert;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BreakerOpened;
import dev.eventrouter.common.Backoff;
import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.common.LogSafe;
import dev.eventrouter.common.ProxyRoutes;
import dev.eventrouter.config.AlertTarget;
import dev.eventrouter.config.AppConfig;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.forward.Outbound;
import dev.eventrouter.store.AlertOutbox;
import dev.eventrouter.store.AlertStore;
import dev.eventrouter.store.AlertStore.Plan;
import dev.eventrouter.store.QueuedAlert;
import dev.eventrouter.telegram.BotApi;
import dev.eventrouter.telegram.LinkRefusals;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Alerts each workspace's Telegram chats and webhooks of what costs it money: an integration paused on a refused
 * token, a breaker open too long, failed deliveries, conversions that stopped, unmatched postbacks and unexpanded
 * macros, an empty invite-link pool (docs/alerts.md). Every {@code alerts.check_every_ms} a round evaluates every
 * workspace's conditions and queues the messages {@link AlertRules} call for; the round holds the cursor's row lock,
 * so across a cluster one node evaluates at a time, and each queued message is sent by the one node that claims it.
 * A target that fails is retried on its own, with backoff, apart from the deliveries: it has its own client and
 * holds up nothing else. Every node runs one.
 */
public final class AlertVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(AlertVerticle.class);
  /** Messages claimed at once. */
  static final int CLAIM = 20;
  /**
   * After this many attempts a message is dropped: with the deliveries' backoff (by default 1 s doubling up to 10
   * minutes), about an hour of a target's outage.
   */
  static final int MAX_ATTEMPTS = 15;
  /** How long sent and dropped messages are kept, to be looked at. */
  static final int KEEP_DAYS = 7;
  private static final long PURGE_EVERY_MS = TimeUnit.HOURS.toMillis(1);

  private final AlertStore store;
  private final AlertOutbox outbox;
  private final LiveConfig live;
  private final AlertMetrics metrics;
  /** The targets whose last attempt failed, on this node: a failing target is logged once, not at every attempt. */
  private final Set<String> failing = new HashSet<>();
  private BreakerTrack breakers;
  private WebClient client;
  private ProxyRoutes proxies;
  private AlertSender sender;
  private long timer;
  private long purgeTimer;
  private boolean stopped;
  /** The round and sends under way, which a stop waits for. */
  private Future<Void> work = Future.succeededFuture();

  public AlertVerticle(AlertStore store, AlertOutbox outbox, LiveConfig live, MeterRegistry metrics) {
    this.store = store;
    this.outbox = outbox;
    this.live = live;
    this.metrics = new AlertMetrics(metrics);
  }

  @Override
  public Future<?> start() {
    AppConfig config = live.current();
    long timeoutMs = config.delivery().requestTimeoutMs();
    // A breaker heard open stays open past its reset timeout while its trial waits for a scan and a request.
    breakers = new BreakerTrack(config.delivery().scanIntervalMs() + timeoutMs + 1_000);
    client = WebClient.create(vertx, CheckedRequests.options(timeoutMs));
    proxies = new ProxyRoutes(vertx, timeoutMs);
    CheckedRequests requests = new CheckedRequests(vertx, client, proxies);
    sender = new AlertSender(new BotApi(requests, timeoutMs), new Outbound(requests), timeoutMs);
    purgeTimer = vertx.setPeriodic(PURGE_EVERY_MS, id -> outbox.purge(KEEP_DAYS)
        .onFailure(e -> LOG.warn("purging old alerts failed: {}", LogSafe.describe(e))));
    return vertx.eventBus().<JsonObject>consumer(Addresses.BREAKER_OPENED,
            message -> breakers.opened(BreakerOpened.fromJson(message.body()), Instant.now()))
        .completion()
        .onSuccess(v -> schedule());
  }

  /** Ends with the round and sends under way; starts none after. */
  @Override
  public Future<?> stop() {
    stopped = true;
    vertx.cancelTimer(timer);
    vertx.cancelTimer(purgeTimer);
    return work.eventually(() -> {
      client.close();
      return proxies.close();
    });
  }

  private void schedule() {
    if (!stopped) {
      timer = vertx.setTimer(live.current().alerts().everyMs(), id -> tick());
    }
  }

  /** A round, then the sends due (its messages, and retries come due), then the next tick. */
  private void tick() {
    work = round()
        .recover(e -> {
          LOG.warn("alert round failed: {}", LogSafe.describe(e));
          return Future.succeededFuture(false);
        })
        .compose(ran -> sendDue())
        .recover(e -> {
          LOG.warn("sending alerts failed: {}", LogSafe.describe(e));
          return Future.succeededFuture();
        })
        .onComplete(done -> schedule());
  }

  /**
   * This interval's round, unless another node's came first: nodes' timers drift, so one that ran within most of an
   * interval counts.
   */
  private Future<Boolean> round() {
    List<WorkspaceConfig> workspaces = live.current().workspaces();
    if (workspaces.stream().noneMatch(w -> w.alerts().enabled())) {
      return Future.succeededFuture(false);
    }
    long minGapMs = live.current().alerts().everyMs() * 4 / 5;
    AtomicReference<Plan> planned = new AtomicReference<>();
    return LinkRefusals.all(vertx).recover(e -> Future.succeededFuture(Map.of())).compose(refusals ->
        store.round(minGapMs, round -> new AlertRound(round, breakers.openAt(Instant.now()), refusals::get)
            .plan(workspaces).onSuccess(planned::set)))
        .onSuccess(ran -> { // counted once its messages are committed
          if (ran) {
            planned.get().alerts().forEach(a -> metrics.raised(a.message().getString("condition"),
                a.message().getString("kind")));
          }
        });
  }

  /** Sends what is due, claim after claim, until none is left. */
  private Future<Void> sendDue() {
    if (stopped) {
      return Future.succeededFuture();
    }
    long leaseMs = live.current().delivery().requestTimeoutMs() * 2 + 1_000;
    return outbox.claim(CLAIM, leaseMs)
        .compose(claimed -> Future.join(claimed.stream().map(this::send).toList()).map(claimed.size()))
        .compose(claimed -> claimed == CLAIM ? sendDue() : Future.succeededFuture());
  }

  private Future<Void> send(QueuedAlert alert) {
    Optional<AlertTarget> target = live.current().workspace(alert.workspaceId())
        .flatMap(w -> w.alerts().targets().stream().filter(t -> t.key().equals(alert.target())).findFirst());
    if (target.isEmpty()) {
      return outbox.finish(alert, "dropped", "the target is no longer configured");
    }
    String type = target.get() instanceof AlertTarget.Telegram ? "telegram" : "webhook";
    return sender.send(target.get(), alert.alertId(), alert.message()).compose(result -> {
      String where = alert.workspaceId() + " " + alert.target();
      if (result.sent()) {
        metrics.sent(type, AlertMetrics.SENT);
        if (failing.remove(where)) {
          LOG.info("alerts of workspace {} reach {} again", alert.workspaceId(), alert.target());
        }
        return outbox.finish(alert, "sent", null);
      }
      if (failing.add(where)) {
        LOG.warn("an alert of workspace {} to {} failed: {}; its failures are counted in "
            + "event_router_alerts_sent_total and not logged again until one is sent", alert.workspaceId(),
            alert.target(), result.error());
      }
      if (result.retry() && alert.attempts() < MAX_ATTEMPTS) {
        metrics.sent(type, AlertMetrics.RETRIED);
        long backoff = Backoff.delayMs(alert.attempts(), live.current().delivery().initialBackoffMs(),
            live.current().delivery().maxBackoffMs());
        return outbox.retry(alert, Math.max(backoff, result.retryAfterMs()), result.error());
      }
      metrics.sent(type, AlertMetrics.DROPPED);
      return outbox.finish(alert, "dropped", result.retry()
          ? "gave up after " + alert.attempts() + " attempts: " + result.error() : result.error());
    });
  }
}
