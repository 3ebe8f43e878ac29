package dev.eventrouter.forward;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BreakerOpened;
import dev.eventrouter.bus.BusFailure;
import dev.eventrouter.bus.CredentialTest;
import dev.eventrouter.common.LogSafe;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.DeliveryConfig;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.store.DeliveryQueue;
import dev.eventrouter.store.Pause;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Delivers one network's events. Woken over the event bus when events are stored, and by a periodic scan for
 * retries and for work a stopped node left, it claims due deliveries, groups them per integration into batches and
 * sends them through that integration's own WebClient and circuit breaker, so one broken pixel does not stop the
 * others. Every outcome is written back: delivered, retried later (attempts and next attempt stored), failed,
 * expired, or stored as a dry run.
 */
public final class ForwarderVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(ForwarderVerticle.class);
  /**
   * Meta refuses a whole request if one event is older than 7 days
   * (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/server-event, event_time).
   * TikTok publishes no limit we could read; we take the same 7 days as the safe reading.
   */
  static final Duration MAX_EVENT_AGE = Duration.ofDays(7);
  private static final int CLAIMS_PER_BATCH = 4;
  /**
   * Events claimed at once where each is its own request (webhooks): they go out together over the client's
   * connections (5 per host by default), so a claim takes a few requests' time, well inside the lease.
   */
  static final int SINGLE_EVENT_CLAIM = 20;


  private final Network network;
  private final LiveConfig live;
  private final MeterRegistry metrics;
  private final Map<String, Counter> rejectedByField = new HashMap<>();
  private final Map<IntegrationKey, IntegrationChannel> channels = new HashMap<>();
  private final NetworkApi api;
  private final DeliveryQueue store;
  private final BreakerBoard breakers;
  private final PauseBoard pauseBoard;
  private final DeliveryMetrics deliveries;
  /** This network's paused integrations, as last read from the database, and when each was last probed. */
  private final Map<IntegrationKey, Pause> paused = new HashMap<>();
  private final Map<IntegrationKey, Instant> probed = new HashMap<>();
  private boolean running;
  private boolean wokenWhileRunning;
  private boolean stopping;
  private Future<Void> cycle = Future.succeededFuture();
  private long scanTimer;

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
    scanTimer = vertx.setPeriodic(live.current().delivery().scanIntervalMs(),
        id -> checkPauses().onComplete(checked -> wake()));
    // The country and state tables take a few hundred milliseconds to build: on a worker, not the event loop.
    return vertx.executeBlocking(Regions::load)
        .compose(v -> Future.join(
            vertx.eventBus().<String>consumer(Addresses.deliveriesDue(network.id), message -> wake()).completion(),
            vertx.eventBus().<JsonObject>consumer(Addresses.BREAKER_OPENED, this::peerOpened).completion(),
            vertx.eventBus().<JsonObject>consumer(Addresses.integrationTest(network.id), this::test).completion()))
        .compose(v -> checkPauses())
        .onSuccess(v -> wake());
  }

  /** Finishes the batch under way and starts no other, so nothing is left claimed by a clean stop. */
  @Override
  public Future<?> stop() {
    stopping = true;
    vertx.cancelTimer(scanTimer);
    return cycle.eventually(() -> {
      channels.values().forEach(IntegrationChannel::close);
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
    closeRemovedChannels();
    DeliveryConfig config = live.current().delivery();
    int limit = api.batches() ? config.batchSize() * CLAIMS_PER_BATCH
        : Math.min(config.batchSize(), SINGLE_EVENT_CLAIM);
    // The lease covers the requests of one integration's claimed batches, one after another, and a few split
    // halves; past it, another claim may send again, under the same event_id, which both networks deduplicate.
    long leaseMs = config.requestTimeoutMs() * (CLAIMS_PER_BATCH + 4) + 1_000;
    cycle = store.claim(network, limit, leaseMs)
        .compose(jobs -> process(jobs, config).map(v -> jobs.size()))
        .onComplete(done -> {
          if (done.failed()) {
            LOG.warn("{} forwarder: claiming deliveries failed: {}", network.id, LogSafe.describe(done.cause()));
          }
          boolean more = done.succeeded() && done.result() == limit;
          running = false;
          if (more || wokenWhileRunning) {
            wake();
          }
        })
        .mapEmpty();
  }

  private Future<Void> process(List<ClaimedDelivery> jobs, DeliveryConfig config) {
    Map<IntegrationKey, List<ClaimedDelivery>> groups = new LinkedHashMap<>();
    jobs.forEach(job -> groups.computeIfAbsent(
        new IntegrationKey(network.id, job.workspaceId(), job.integrationId()), key -> new ArrayList<>()).add(job));
    List<Future<Void>> all = new ArrayList<>();
    groups.forEach((key, group) -> all.add(guarded(key, group, config)));
    return Future.join(all).mapEmpty();
  }

  /**
   * One integration's deliveries, whatever goes wrong with them: a failure, an Error included, ends with this group
   * and never keeps the others of the claim (other workspaces' among them) from being sent. The group's rows keep
   * their lease and come due again after it; a row whose claims keep ending so is failed by the outbox
   * ({@link dev.eventrouter.store.DeliveryStore#MAX_CLAIMS}).
   */
  private Future<Void> guarded(IntegrationKey key, List<ClaimedDelivery> group, DeliveryConfig config) {
    Future<Void> done;
    try {
      done = processIntegration(key, group, config);
    } catch (Throwable failure) {
      done = Future.failedFuture(failure);
    }
    return done.recover(e -> {
      LOG.warn("{} forwarder: processing the deliveries of integration {} failed: {}", network.id,
          key.integrationId(), LogSafe.describe(e));
      return Future.succeededFuture();
    });
  }

  private Future<Void> processIntegration(IntegrationKey key, List<ClaimedDelivery> jobs, DeliveryConfig config) {
    Optional<IntegrationConfig> found = integration(key);
    if (found.isEmpty() || !found.get().enabled()) {
      return store.end(jobs, "failed", "integration " + key.integrationId() + " is no longer configured or enabled")
          .onSuccess(v -> deliveries.count(key, DeliveryMetrics.FAILED, jobs.size()));
    }
    IntegrationConfig integration = found.get();
    Instant oldest = Instant.now().minus(MAX_EVENT_AGE);
    List<ClaimedDelivery> expired = jobs.stream().filter(j -> j.receivedAt().isBefore(oldest)).toList();
    List<ClaimedDelivery> fresh = jobs.stream().filter(j -> !j.receivedAt().isBefore(oldest)).toList();
    fresh.stream().filter(job -> job.attempts() == 0).forEach(this::countRejected);
    Future<Void> done = expired.isEmpty() ? Future.succeededFuture()
        : store.end(expired, "expired", "event older than " + MAX_EVENT_AGE.toDays() + " days; "
            + network.id + " does not accept it")
            .onSuccess(v -> deliveries.count(key, DeliveryMetrics.EXPIRED, expired.size()));
    if (integration.dryRun()) {
      Map<ClaimedDelivery, JsonObject> payloads = new LinkedHashMap<>();
      Map<String, List<ClaimedDelivery>> broken = IntegrationChannel.buildEach(api, integration, fresh, payloads::put);
      for (Map.Entry<String, List<ClaimedDelivery>> failing : broken.entrySet()) {
        done = done.compose(v -> store.end(failing.getValue(), "failed", failing.getKey()))
            .onSuccess(v -> deliveries.count(key, DeliveryMetrics.FAILED, failing.getValue().size()));
      }
      return payloads.isEmpty() ? done : done.compose(v -> store.dryRun(payloads))
          .onSuccess(v -> deliveries.count(key, DeliveryMetrics.DRY_RUN, payloads.size()));
    }
    for (int from = 0; from < fresh.size(); from += config.batchSize()) {
      List<ClaimedDelivery> batch = fresh.subList(from, Math.min(fresh.size(), from + config.batchSize()));
      done = done.compose(v -> sendOrHold(key, integration, batch, config));
    }
    return done;
  }

  /** Sends a batch, unless its integration is paused: no request then, as the network would refuse it again. */
  private Future<Void> sendOrHold(IntegrationKey key, IntegrationConfig integration, List<ClaimedDelivery> batch,
                                  DeliveryConfig config) {
    Pause held = paused.get(key);
    if (held != null) {
      return store.hold(batch, held.reason())
          .onSuccess(v -> deliveries.count(key, DeliveryMetrics.HELD, batch.size()));
    }
    IntegrationChannel channel = channel(key, config);
    return channel.send(integration, batch, config).onSuccess(outcome -> {
      if (outcome instanceof Outcome.Unauthorized refused) {
        // The channel paused it in the database; until the next read of the pauses, this is their copy.
        Pause pause = channel.pauseFor(integration, refused);
        paused.put(key, pause);
        pauseBoard.paused(key, pause.reason());
      }
    }).mapEmpty();
  }

  /**
   * Reads this network's pauses (another node may have paused or resumed one), and ends each whose integration now
   * has another token; probes the others when due.
   */
  private Future<Void> checkPauses() {
    return store.pauses(network).compose(pauses -> {
      Map<IntegrationKey, Pause> now = new HashMap<>();
      pauses.forEach(p -> now.put(new IntegrationKey(p.network(), p.workspaceId(), p.integrationId()), p));
      paused.keySet().stream().filter(key -> !now.containsKey(key)).toList().forEach(key -> {
        pauseBoard.resumed(key);
        probed.remove(key);
      });
      paused.clear();
      paused.putAll(now);
      List<Future<Void>> checks = new ArrayList<>();
      now.forEach((key, pause) -> {
        pauseBoard.paused(key, pause.reason());
        Optional<IntegrationConfig> integration = integration(key);
        if (integration.isEmpty() || !integration.get().enabled()) {
          return;
        }
        if (!Sha256.hex(integration.get().accessToken()).equals(pause.tokenSha256())) {
          checks.add(resume(key, pause, "its access_token was changed", false));
        } else if (probeDue(key, pause)) {
          checks.add(probe(key, pause, integration.get()));
        }
      });
      return Future.join(checks).<Void>mapEmpty();
    }).recover(e -> {
      LOG.warn("{} forwarder: checking paused integrations failed: {}", network.id, LogSafe.describe(e));
      return Future.succeededFuture();
    });
  }

  private boolean probeDue(IntegrationKey key, Pause pause) {
    Instant last = probed.getOrDefault(key, pause.pausedAt());
    return !Instant.now().isBefore(last.plusMillis(live.current().delivery().pauseProbeMs()));
  }

  /**
   * Sends the oldest held delivery. Accepted, the token works again and the integration resumes; refused, the
   * channel holds it again. With nothing held, the pause protects nothing: it ends, and the next event tries.
   */
  private Future<Void> probe(IntegrationKey key, Pause pause, IntegrationConfig integration) {
    probed.put(key, Instant.now());
    DeliveryConfig config = live.current().delivery();
    return store.claimHeld(pause, config.requestTimeoutMs() + 1_000).compose(jobs -> {
      if (jobs.isEmpty()) {
        return resume(key, pause, "no delivery is held", true);
      }
      // Accepted, even if not counted as received, the token works.
      return channel(key, config).send(integration, jobs, config).compose(outcome ->
          outcome instanceof Outcome.Delivered || outcome instanceof Outcome.Unconfirmed
              ? resume(key, pause, "a probe was accepted", false) : Future.succeededFuture());
    });
  }

  private Future<Void> resume(IntegrationKey key, Pause pause, String why, boolean onlyIfNoneHeld) {
    return store.resume(pause, onlyIfNoneHeld).onSuccess(ended -> {
      if (!ended && onlyIfNoneHeld) {
        return; // still paused: another node's probe has its held delivery in flight
      }
      paused.remove(key);
      probed.remove(key);
      pauseBoard.resumed(key);
      if (ended) {
        LOG.info("{} integration {} resumed ({}): its held deliveries go out now", network.id, key.integrationId(),
            why);
        vertx.eventBus().publish(Addresses.deliveriesDue(network.id), network.id);
      }
    }).mapEmpty();
  }

  /**
   * Data quality for the advertiser: each user_data value that cannot be made valid for this network (and so is not
   * sent) is counted by field, once per delivery, when it is first built. Labels are bounded: network and field name.
   */
  private void countRejected(ClaimedDelivery job) {
    List<String> rejected;
    try {
      rejected = api.userData().rejected(job);
    } catch (Throwable failure) {
      return; // not counted: building its request fails it, alone (IntegrationChannel)
    }
    rejected.forEach(field -> rejectedByField.computeIfAbsent(field, f -> Counter
        .builder("event_router.user_data.rejected")
        .description("user_data values not sent because they cannot be made valid, by network and field")
        .tags("network", network.id, "field", f)
        .register(metrics)).increment());
  }

  /** The channel of an integration, made on first use with the delivery settings then in force. */
  private IntegrationChannel channel(IntegrationKey key, DeliveryConfig config) {
    return channels.computeIfAbsent(key, k -> new IntegrationChannel(vertx, k, api, store, config, breakers,
        deliveries));
  }

  /** A credential test asked through the API: one test event, answered with the network's verdict. */
  private void test(Message<JsonObject> message) {
    CredentialTest test = CredentialTest.fromJson(message.body());
    IntegrationKey key = new IntegrationKey(network.id, test.workspaceId(), test.integrationId());
    Optional<IntegrationConfig> integration = integration(key);
    if (integration.isEmpty()) {
      // The asking node's config has it and this one's not (yet): a reload under way.
      message.fail(BusFailure.NOT_FOUND, "no integration " + test.integrationId() + " here");
      return;
    }
    DeliveryConfig config = live.current().delivery();
    WorkspaceConfig workspace = live.current().workspace(test.workspaceId()).orElseThrow(); // it has the integration
    IntegrationConfig tested = integration.get().withTestEventCode(test.testEventCode());
    ClaimedDelivery job = CredentialCheck.job(workspace, tested, test.eventName(), Instant.now());
    // The network's usual request timeout, and never longer than the asker waits.
    long timeoutMs = Math.min(config.requestTimeoutMs(), test.timeoutMs());
    channel(key, config).test(tested, job, timeoutMs).onSuccess(verdict -> {
      LOG.info("{} integration {} credential test: {}", network.id, key.integrationId(),
          verdict.getString("verdict"));
      message.reply(verdict);
    });
  }

  /** A breaker of this network opened on another node (or this one): the same integration's opens here too. */
  private void peerOpened(Message<JsonObject> message) {
    BreakerOpened opened = BreakerOpened.fromJson(message.body());
    IntegrationKey key = new IntegrationKey(opened.network(), opened.workspaceId(), opened.integrationId());
    if (opened.network().equals(network.id) && !stopping && integration(key).isPresent()) {
      channel(key, live.current().delivery()).openFromPeer();
    }
  }

  /** Closes the channels of integrations a reload removed, so their clients and breakers do not stay open. */
  private void closeRemovedChannels() {
    channels.entrySet().removeIf(entry -> {
      boolean configured = integration(entry.getKey()).isPresent();
      if (!configured) {
        entry.getValue().close();
      }
      return !configured;
    });
  }

  private Optional<IntegrationConfig> integration(IntegrationKey key) {
    return live.current().workspace(key.workspaceId())
        .flatMap(w -> w.integrations().stream()
            .filter(i -> i.id().equals(key.integrationId()) && i.network() == network).findFirst());
  }
}
