package dev.eventrouter.forward;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BreakerOpened;
import dev.eventrouter.config.DeliveryConfig;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.common.LogSafe;
import dev.eventrouter.store.DeliveryQueue;
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


  private final Network network;
  private final LiveConfig live;
  private final MeterRegistry metrics;
  private final Map<String, Counter> rejectedByField = new HashMap<>();
  private final Map<IntegrationKey, IntegrationChannel> channels = new HashMap<>();
  private final NetworkApi api;
  private final DeliveryQueue store;
  private final BreakerBoard breakers;
  private final DeliveryMetrics deliveries;
  private boolean running;
  private boolean wokenWhileRunning;
  private boolean stopping;
  private Future<Void> cycle = Future.succeededFuture();
  private long scanTimer;

  /**
   * @param api      the network this verticle delivers to (its payloads, request and answers)
   * @param breakers where its integrations' breaker states are shown
   */
  public ForwarderVerticle(NetworkApi api, DeliveryQueue store, LiveConfig live, MeterRegistry metrics,
                           BreakerBoard breakers) {
    this.api = api;
    this.network = api.network();
    this.store = store;
    this.live = live;
    this.metrics = metrics;
    this.breakers = breakers;
    this.deliveries = new DeliveryMetrics(metrics, network.id);
  }

  @Override
  public Future<?> start() {
    scanTimer = vertx.setPeriodic(live.current().delivery().scanIntervalMs(), id -> wake());
    // The country and state tables take a few hundred milliseconds to build: on a worker, not the event loop.
    return vertx.executeBlocking(Regions::load)
        .compose(v -> Future.join(
            vertx.eventBus().<String>consumer(Addresses.deliveriesDue(network.id), message -> wake()).completion(),
            vertx.eventBus().<JsonObject>consumer(Addresses.BREAKER_OPENED, this::peerOpened).completion()))
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
    int limit = config.batchSize() * CLAIMS_PER_BATCH;
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
    groups.forEach((key, group) -> all.add(processIntegration(key, group, config)
        .recover(e -> {
          // The rows keep their lease and come due again after it.
          LOG.warn("{} forwarder: recording outcomes for integration {} failed: {}", network.id,
              key.integrationId(), LogSafe.describe(e));
          return Future.succeededFuture();
        })));
    return Future.join(all).mapEmpty();
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
      fresh.forEach(job -> payloads.put(job, api.body(integration, List.of(job))));
      return payloads.isEmpty() ? done : done.compose(v -> store.dryRun(payloads))
          .onSuccess(v -> deliveries.count(key, DeliveryMetrics.DRY_RUN, payloads.size()));
    }
    for (int from = 0; from < fresh.size(); from += config.batchSize()) {
      List<ClaimedDelivery> batch = fresh.subList(from, Math.min(fresh.size(), from + config.batchSize()));
      done = done.compose(v -> channel(key, config).send(integration, batch, config));
    }
    return done;
  }

  /**
   * Data quality for the advertiser: each user_data value that cannot be made valid for this network (and so is not
   * sent) is counted by field, once per delivery, when it is first built. Labels are bounded: network and field name.
   */
  private void countRejected(ClaimedDelivery job) {
    api.userData().rejected(job).forEach(field -> rejectedByField.computeIfAbsent(field, f -> Counter
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
