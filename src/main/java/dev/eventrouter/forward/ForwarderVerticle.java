package dev.eventrouter.forward;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BreakerOpened;
import dev.eventrouter.bus.BusFailure;
import dev.eventrouter.bus.CredentialTest;
import dev.eventrouter.common.LogSafe;
import dev.eventrouter.config.AppConfig;
import dev.eventrouter.config.DeliveryConfig;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.store.DeliveryQueue;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Delivers one network's events. Woken over the event bus when events are stored, and by a periodic scan for
 * retries and for work a stopped node left, it claims due deliveries, groups them per integration into batches and
 * sends them through that integration's own WebClient and circuit breaker, so one broken pixel does not stop the
 * others. Every outcome is written back: delivered, retried later (attempts and next attempt stored), failed,
 * expired, or stored as a dry run.
 * This is the cycle (one claim at a time) and the bus consumers; a claim's deliveries are taken their way by
 * {@link ClaimDispatcher}, through {@link IntegrationChannels}, and the pauses are {@link PausedIntegrations}'.
 */
public final class ForwarderVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(ForwarderVerticle.class);
  private static final int CLAIMS_PER_BATCH = 4;
  /**
   * Events claimed at once where each is its own request (webhooks): they go out together over the client's
   * connections (5 per host by default), so a claim takes a few requests' time, well inside the lease.
   */
  static final int SINGLE_EVENT_CLAIM = 20;

  private final Network network;
  private final LiveConfig live;
  private final MeterRegistry metrics;
  private final NetworkApi api;
  private final DeliveryQueue store;
  private final BreakerBoard breakers;
  private final PauseBoard pauseBoard;
  private final DeliveryMetrics deliveries;
  private IntegrationChannels channels;
  private PausedIntegrations paused;
  private ClaimDispatcher dispatcher;
  private boolean running;
  private boolean wokenWhileRunning;
  private boolean stopping;
  private Future<Void> cycle = Future.succeededFuture();
  private long scanTimer;
  /** The config whose integrations have cursors (made at the first cycle under it). */
  private AppConfig followed;

  /**
   * @param api      the network this verticle delivers to (its payloads, request and answers)
   * @param breakers where its integrations' breaker states are shown
   * @param pauses   where its integrations paused on a refused token are shown
   */
  public ForwarderVerticle(NetworkApi api, DeliveryQueue store, LiveConfig live, MeterRegistry metrics,
                           BreakerBoard breakers, PauseBoard pauses) {
    this.api = api;
    this.network = api.network();
    this.store = store;
    this.live = live;
    this.metrics = metrics;
    this.breakers = breakers;
    this.pauseBoard = pauses;
    this.deliveries = new DeliveryMetrics(metrics, network.id);
  }

  @Override
  public Future<?> start() {
    channels = new IntegrationChannels(vertx, api, store, live, breakers, deliveries);
    paused = new PausedIntegrations(vertx, network, store, live, pauseBoard, channels);
    dispatcher = new ClaimDispatcher(api, store, metrics, deliveries, channels, paused);
    scanTimer = vertx.setPeriodic(live.current().delivery().scanIntervalMs(),
        id -> paused.check().onComplete(checked -> wake()));
    // The country and state tables take a few hundred milliseconds to build: on a worker, not the event loop.
    return vertx.executeBlocking(Regions::load)
        .compose(v -> Future.join(
            vertx.eventBus().<String>consumer(Addresses.deliveriesDue(network.id), message -> wake()).completion(),
            vertx.eventBus().<JsonObject>consumer(Addresses.BREAKER_OPENED, this::peerOpened).completion(),
            vertx.eventBus().<JsonObject>consumer(Addresses.integrationTest(network.id), this::test).completion(),
            vertx.eventBus().<String>consumer(Addresses.PAUSES_CHANGED,
                message -> paused.check().onComplete(checked -> wake())).completion()))
        .compose(v -> paused.check())
        .onSuccess(v -> wake());
  }

  /** Finishes the batch under way and starts no other, so nothing is left claimed by a clean stop. */
  @Override
  public Future<?> stop() {
    stopping = true;
    vertx.cancelTimer(scanTimer);
    return cycle.eventually(() -> {
      channels.closeAll();
      return Future.succeededFuture();
    });
  }

  private void wake() {
    if (running) {
      wokenWhileRunning = true;
      return;
    }
    running = true;
    long linger = live.current().delivery().lingerMs();
    if (linger > 0) {
      vertx.setTimer(linger, id -> runCycle());
    } else {
      runCycle();
    }
  }

  private void runCycle() {
    if (stopping) {
      running = false;
      return;
    }
    wokenWhileRunning = false;
    channels.closeRemoved();
    DeliveryConfig config = live.current().delivery();
    int limit = api.batches() ? config.batchSize() * CLAIMS_PER_BATCH
        : Math.min(config.batchSize(), SINGLE_EVENT_CLAIM);
    // A claim takes up to the limit of due rows and up to the limit of new events per integration: the lease covers
    // the requests of both, one after another, and a few split halves; past it, another claim may send again, under
    // the same event_id, which both networks deduplicate.
    long leaseMs = config.requestTimeoutMs() * (2 * CLAIMS_PER_BATCH + 4) + 1_000;
    cycle = follow(live.current())
        .compose(v -> store.claim(network, limit, leaseMs))
        .compose(claim -> dispatcher.process(claim.jobs(), config)
            .compose(v -> store.settle(network, claim))
            .map(v -> claim.more()))
        .onComplete(done -> {
          if (done.failed()) {
            LOG.warn("{} forwarder: claiming deliveries failed: {}", network.id, LogSafe.describe(done.cause()));
          }
          boolean more = done.succeeded() && done.result();
          running = false;
          if (more || wokenWhileRunning) {
            wake();
          }
        })
        .mapEmpty();
  }

  /** Cursors for the integrations of this network in the config, once per config (a reload may add some). */
  private Future<Void> follow(AppConfig config) {
    if (config == followed) {
      return Future.succeededFuture();
    }
    List<UUID> workspaces = new ArrayList<>();
    List<String> integrations = new ArrayList<>();
    for (WorkspaceConfig workspace : config.workspaces()) {
      workspace.integrations().stream().filter(i -> i.network() == network).forEach(i -> {
        workspaces.add(workspace.id());
        integrations.add(i.id());
      });
    }
    return store.follow(network, workspaces, integrations).onSuccess(v -> followed = config);
  }

  /** A credential test asked through the API: one test event, answered with the network's verdict. */
  private void test(Message<JsonObject> message) {
    CredentialTest test = CredentialTest.fromJson(message.body());
    IntegrationKey key = new IntegrationKey(network.id, test.workspaceId(), test.integrationId());
    Optional<IntegrationConfig> integration = channels.integration(key);
    if (integration.isEmpty()) {
      // The asking node's config has it and this one's not (yet): a reload under way.
      message.fail(BusFailure.NOT_FOUND, "no integration " + test.integrationId() + " here");
      return;
    }
    DeliveryConfig config = live.current().delivery();
    WorkspaceConfig workspace = live.current().workspace(test.workspaceId()).orElseThrow(); // it has the integration
    IntegrationConfig tested = integration.get().withTestEventCode(test.testEventCode());
    ClaimedDelivery job = CredentialCheck.job(workspace, tested, test.eventName(), Instant.now(),
        api.testClick());
    // The network's usual request timeout, and never longer than the asker waits.
    long timeoutMs = Math.min(config.requestTimeoutMs(), test.timeoutMs());
    channels.channel(key, config).test(tested, job, timeoutMs).onSuccess(verdict -> {
      LOG.info("{} integration {} credential test: {}", network.id, key.integrationId(),
          verdict.getString("verdict"));
      message.reply(verdict);
    });
  }

  /** A breaker of this network opened on another node (or this one): the same integration's opens here too. */
  private void peerOpened(Message<JsonObject> message) {
    BreakerOpened opened = BreakerOpened.fromJson(message.body());
    IntegrationKey key = new IntegrationKey(opened.network(), opened.workspaceId(), opened.integrationId());
    if (opened.network().equals(network.id) && !stopping && channels.integration(key).isPresent()) {
      channels.channel(key, live.current().delivery()).openFromPeer();
    }
  }
}
