package dev.eventrouter.forward;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.DeliveryConfig;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.store.Database;
import dev.eventrouter.common.LogSafe;
import dev.eventrouter.store.DeliveryStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.circuitbreaker.CircuitBreakerOptions;
import io.vertx.circuitbreaker.OpenCircuitException;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

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
   * Meta refuses a whole request if one event is older than 7 days. TikTok's limit is not documented (open
   * question 2 of ad-networks.md); we take the same 7 days as the safe reading.
   */
  static final Duration MAX_EVENT_AGE = Duration.ofDays(7);
  private static final int CLAIMS_PER_BATCH = 4;

  private record IntegrationKey(UUID workspaceId, String integrationId) {}

  private record Channel(WebClient client, CircuitBreaker breaker) {}

  /** A retryable outcome, raised so the breaker counts it as a failure. */
  private static final class TransientFailure extends RuntimeException {
    final Outcome.Retry retry;

    TransientFailure(Outcome.Retry retry) {
      super(retry.error(), null, false, false);
      this.retry = retry;
    }
  }

  private final Network network;
  private final Database database;
  private final LiveConfig live;
  private final MeterRegistry metrics;
  private final Map<String, Counter> rejectedByField = new HashMap<>();
  private final Map<IntegrationKey, Channel> channels = new HashMap<>();
  private NetworkApi api;
  private DeliveryStore store;
  private boolean running;
  private boolean wokenWhileRunning;
  private boolean stopping;
  private Future<Void> cycle = Future.succeededFuture();
  private long scanTimer;

  public ForwarderVerticle(Network network, Database database, LiveConfig live, MeterRegistry metrics) {
    this.network = network;
    this.database = database;
    this.live = live;
    this.metrics = metrics;
  }

  @Override
  public Future<?> start() {
    api = NetworkApi.of(network);
    store = new DeliveryStore(database.pool(), database.readPool());
    scanTimer = vertx.setPeriodic(live.current().delivery().scanIntervalMs(), id -> wake());
    // The country and state tables take a few hundred milliseconds to build: on a worker, not the event loop.
    return vertx.executeBlocking(Regions::load)
        .compose(v -> vertx.eventBus().<String>consumer(Addresses.deliveriesDue(network.id), message -> wake())
            .completion())
        .onSuccess(v -> wake());
  }

  /** Finishes the batch under way and starts no other, so nothing is left claimed by a clean stop. */
  @Override
  public Future<?> stop() {
    stopping = true;
    vertx.cancelTimer(scanTimer);
    return cycle.eventually(() -> {
      channels.values().forEach(channel -> {
        channel.client().close();
        channel.breaker().close();
      });
      return Future.succeededFuture();
    });
  }

  private void wake() {
    if (stopping) {
      return;
    }
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
    jobs.forEach(job -> groups.computeIfAbsent(new IntegrationKey(job.workspaceId(), job.integrationId()),
        key -> new ArrayList<>()).add(job));
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
    Optional<IntegrationConfig> found = live.current().workspace(key.workspaceId())
        .flatMap(w -> w.integrations().stream()
            .filter(i -> i.id().equals(key.integrationId()) && i.network() == network).findFirst());
    if (found.isEmpty() || !found.get().enabled()) {
      return store.close(jobs, "failed", "integration " + key.integrationId() + " is no longer configured or enabled");
    }
    IntegrationConfig integration = found.get();
    Instant oldest = Instant.now().minus(MAX_EVENT_AGE);
    List<ClaimedDelivery> expired = jobs.stream().filter(j -> j.receivedAt().isBefore(oldest)).toList();
    List<ClaimedDelivery> fresh = jobs.stream().filter(j -> !j.receivedAt().isBefore(oldest)).toList();
    fresh.stream().filter(job -> job.attempts() == 0).forEach(this::countRejected);
    Future<Void> done = expired.isEmpty() ? Future.succeededFuture()
        : store.close(expired, "expired", "event older than " + MAX_EVENT_AGE.toDays() + " days; "
            + network.id + " does not accept it");
    if (integration.dryRun()) {
      Map<ClaimedDelivery, JsonObject> payloads = new LinkedHashMap<>();
      fresh.forEach(job -> payloads.put(job, api.body(integration, List.of(job))));
      return payloads.isEmpty() ? done : done.compose(v -> store.dryRun(payloads));
    }
    for (int from = 0; from < fresh.size(); from += config.batchSize()) {
      List<ClaimedDelivery> batch = fresh.subList(from, Math.min(fresh.size(), from + config.batchSize()));
      done = done.compose(v -> send(key, integration, batch, config));
    }
    return done;
  }

  private Future<Void> send(IntegrationKey key, IntegrationConfig integration, List<ClaimedDelivery> jobs,
                            DeliveryConfig config) {
    Channel channel = channel(key, config);
    return channel.breaker().<Outcome>execute(() -> api
            .send(channel.client(), integration, api.body(integration, jobs), config.requestTimeoutMs())
            .map(response -> api.classify(response.statusCode(), response.body(), retryAfterMs(response)))
            .compose(outcome -> outcome instanceof Outcome.Retry retry
                ? Future.failedFuture(new TransientFailure(retry))
                : Future.succeededFuture(outcome)))
        .compose(outcome -> record(key, integration, jobs, outcome, config), failure -> {
          if (failure instanceof OpenCircuitException) {
            // Wait for the breaker without spending attempts.
            return store.defer(jobs, Instant.now().plusMillis(config.breakerResetMs()));
          }
          Outcome.Retry retry = failure instanceof TransientFailure transientFailure ? transientFailure.retry
              : new Outcome.Retry(network.id + " request failed: " + LogSafe.describe(failure), 0);
          return record(key, integration, jobs, retry, config);
        });
  }

  private Future<Void> record(IntegrationKey key, IntegrationConfig integration, List<ClaimedDelivery> jobs,
                              Outcome outcome, DeliveryConfig config) {
    String token = integration.accessToken();
    if (outcome instanceof Outcome.Delivered) {
      return store.delivered(jobs);
    }
    if (outcome instanceof Outcome.Retry retry) {
      long backoff = Backoff.delayMs(jobs.get(0).attempts(), config.initialBackoffMs(), config.maxBackoffMs());
      return store.retry(jobs, Redact.token(retry.error(), token),
          Instant.now().plusMillis(Math.max(backoff, retry.retryAfterMs())));
    }
    if (outcome instanceof Outcome.InvalidData invalid && jobs.size() > 1) {
      // One bad event fails the whole request: halve until it stands alone, so the others go through.
      List<ClaimedDelivery> first = jobs.subList(0, jobs.size() / 2);
      List<ClaimedDelivery> second = jobs.subList(jobs.size() / 2, jobs.size());
      return send(key, integration, first, config).compose(v -> send(key, integration, second, config));
    }
    if (outcome instanceof Outcome.Unauthorized unauthorized) {
      LOG.warn("{} integration {} refused our token or permissions; rotate the access token: {}", network.id,
          integration.id(), Redact.token(unauthorized.error(), token));
      return store.failed(jobs, Redact.token(unauthorized.error(), token));
    }
    String error = outcome instanceof Outcome.InvalidData invalid ? invalid.error() : ((Outcome.Failed) outcome).error();
    return store.failed(jobs, Redact.token(error, token));
  }

  /**
   * Data quality for the advertiser: each user_data value that cannot be made valid for this network (and so is not
   * sent) is counted by field, once per delivery, when it is first built. Labels are bounded: network and field name.
   */
  private void countRejected(ClaimedDelivery job) {
    api.rejectedFields(job).forEach(field -> rejectedByField.computeIfAbsent(field, f -> Counter
        .builder("event_router.user_data.rejected")
        .description("user_data values not sent because they cannot be made valid, by network and field")
        .tags("network", network.id, "field", f)
        .register(metrics)).increment());
  }

  private Channel channel(IntegrationKey key, DeliveryConfig config) {
    return channels.computeIfAbsent(key, k -> {
      String name = network.id + ":" + k.workspaceId() + "/" + k.integrationId();
      CircuitBreaker breaker = CircuitBreaker.create(name, vertx, new CircuitBreakerOptions()
          .setMaxFailures(config.breakerFailures())
          .setResetTimeout(config.breakerResetMs())
          .setTimeout(-1) // the request has its own timeout
          .setNotificationAddress(null));
      breaker.openHandler(v -> LOG.warn("circuit breaker {} opened: its deliveries wait", name))
          .halfOpenHandler(v -> LOG.info("circuit breaker {} half-open: trying one request", name))
          .closeHandler(v -> LOG.info("circuit breaker {} closed", name));
      WebClient client = WebClient.create(vertx, new WebClientOptions().setUserAgent("event-router")
          .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, config.requestTimeoutMs())));
      return new Channel(client, breaker);
    });
  }

  /** Retry-After as seconds or an HTTP date; 0 when absent or unreadable. */
  static long retryAfterMs(HttpResponse<Buffer> response) {
    String value = response.getHeader("Retry-After");
    if (value == null) {
      return 0;
    }
    try {
      return Math.max(0, Long.parseLong(value.trim()) * 1000);
    } catch (NumberFormatException notSeconds) {
      try {
        return Math.max(0, Duration.between(Instant.now(),
            ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant()).toMillis());
      } catch (RuntimeException unreadable) {
        return 0;
      }
    }
  }
}
