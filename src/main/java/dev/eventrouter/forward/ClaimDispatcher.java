package dev.eventrouter.forward;

import dev.eventrouter.common.LogSafe;
import dev.eventrouter.config.DeliveryConfig;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.store.DeliveryQueue;
import dev.eventrouter.store.Pause;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
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
 * Takes each delivery of a claim its way, one integration's group at a time: ended when its integration is gone or
 * disabled, expired past the network's age limit, stored as a dry run, held while its integration is paused, or sent
 * in batches through the integration's channel.
 */
final class ClaimDispatcher {

  /** The forwarder's logger: these lines are the forwarder's, as operators know them. */
  private static final Logger LOG = LoggerFactory.getLogger(ForwarderVerticle.class);
  private final NetworkApi api;
  private final Network network;
  private final DeliveryQueue store;
  private final MeterRegistry metrics;
  private final DeliveryMetrics deliveries;
  private final IntegrationChannels channels;
  private final PausedIntegrations paused;
  private final Map<String, Counter> rejectedByField = new HashMap<>();

  ClaimDispatcher(NetworkApi api, DeliveryQueue store, MeterRegistry metrics, DeliveryMetrics deliveries,
                  IntegrationChannels channels, PausedIntegrations paused) {
    this.api = api;
    this.network = api.network();
    this.store = store;
    this.metrics = metrics;
    this.deliveries = deliveries;
    this.channels = channels;
    this.paused = paused;
  }

  Future<Void> process(List<ClaimedDelivery> jobs, DeliveryConfig config) {
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
   * their lease and come due again after it, and its events taken past a cursor get their rows, due, at the claim's
   * settle; a row whose claims keep ending so is failed by the outbox
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
    Optional<IntegrationConfig> found = channels.integration(key);
    if (found.isEmpty() || !found.get().enabled()) {
      return store.end(jobs, "failed", "integration " + key.integrationId() + " is no longer configured or enabled")
          .onSuccess(v -> deliveries.count(key, DeliveryMetrics.FAILED, jobs.size()));
    }
    IntegrationConfig integration = found.get();
    Duration maxAge = api.maxEventAge();
    Instant oldest = Instant.now().minus(maxAge);
    List<ClaimedDelivery> expired = new ArrayList<>();
    Map<String, List<ClaimedDelivery>> skipped = new LinkedHashMap<>();
    List<ClaimedDelivery> fresh = new ArrayList<>();
    for (ClaimedDelivery job : jobs) {
      String skip;
      if (job.receivedAt().isBefore(oldest)) {
        expired.add(job);
      } else if ((skip = api.skip(job)) != null) {
        skipped.computeIfAbsent(skip, why -> new ArrayList<>()).add(job);
      } else {
        fresh.add(job);
      }
    }
    fresh.stream().filter(job -> job.attempts() == 0).forEach(this::countRejected);
    Future<Void> done = expired.isEmpty() ? Future.succeededFuture()
        : store.end(expired, "expired", "event older than " + maxAge.toDays() + " days; "
            + network.id + " does not accept it")
            .onSuccess(v -> deliveries.count(key, DeliveryMetrics.EXPIRED, expired.size()));
    for (Map.Entry<String, List<ClaimedDelivery>> skip : skipped.entrySet()) {
      done = done.compose(v -> store.end(skip.getValue(), "skipped", skip.getKey()))
          .onSuccess(v -> deliveries.count(key, DeliveryMetrics.SKIPPED, skip.getValue().size()));
    }
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
    Instant now = Instant.now();
    List<ClaimedDelivery> due = new ArrayList<>();
    for (ClaimedDelivery job : fresh) {
      Instant notBefore = api.notBefore(job);
      if (notBefore != null && notBefore.isAfter(now)) {
        // Not yet: waits without a request or an attempt spent (Google takes an adjustment 24 h on).
        done = done.compose(v -> store.defer(List.of(job), notBefore))
            .onSuccess(v -> deliveries.count(key, DeliveryMetrics.DEFERRED, 1));
      } else {
        due.add(job);
      }
    }
    for (int from = 0; from < due.size(); from += config.batchSize()) {
      List<ClaimedDelivery> batch = due.subList(from, Math.min(due.size(), from + config.batchSize()));
      done = done.compose(v -> sendOrHold(key, integration, batch, config));
    }
    return done;
  }

  /** Sends a batch, unless its integration is paused: no request then, as the network would refuse it again. */
  private Future<Void> sendOrHold(IntegrationKey key, IntegrationConfig integration, List<ClaimedDelivery> batch,
                                  DeliveryConfig config) {
    Pause held = paused.of(key);
    if (held != null) {
      return store.hold(batch, held.reason())
          .onSuccess(v -> deliveries.count(key, DeliveryMetrics.HELD, batch.size()));
    }
    IntegrationChannel channel = channels.channel(key, config);
    return channel.send(integration, batch, config).onSuccess(outcome -> {
      if (outcome instanceof Outcome.Unauthorized refused) {
        // The channel paused it in the database; until the next read of the pauses, this is their copy.
        paused.began(key, channel.pauseFor(integration, refused));
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
}
