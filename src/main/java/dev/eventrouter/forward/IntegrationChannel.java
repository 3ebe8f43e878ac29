package dev.eventrouter.forward;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BreakerOpened;
import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.common.ProxyRoutes;
import dev.eventrouter.common.RetryAfter;
import dev.eventrouter.config.DeliveryConfig;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.store.DeliveryOutcomes;
import dev.eventrouter.store.Pause;
import io.vertx.circuitbreaker.CircuitBreaker;
import io.vertx.circuitbreaker.CircuitBreakerOptions;
import io.vertx.circuitbreaker.CircuitBreakerState;
import io.vertx.circuitbreaker.OpenCircuitException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * One integration's way out: its own WebClient and circuit breaker, so one broken pixel does not hold up the others.
 * A batch refused for invalid data is split in halves until the bad event stands alone; what any other answer does to
 * the claimed deliveries is {@link OutcomeRecorder}'s.
 */
final class IntegrationChannel {

  private static final Logger LOG = LoggerFactory.getLogger(IntegrationChannel.class);

  /** A retryable outcome, raised so the breaker counts it as a failure. */
  private static final class TransientFailure extends RuntimeException {
    final Outcome.Retry retry;

    TransientFailure(Outcome.Retry retry) {
      super(retry.error(), null, false, false);
      this.retry = retry;
    }
  }

  private final NetworkApi api;
  private final OutcomeRecorder outcomes;
  private final WebClient client;
  private final ProxyRoutes proxies;
  private final Outbound out;
  private final CircuitBreaker breaker;
  private final IntegrationKey key;
  private final BreakerBoard board;
  /** The last failure the breaker counted, in the network's words without secrets: told when it opens. */
  private String lastFailure;

  IntegrationChannel(Vertx vertx, IntegrationKey key, NetworkApi api, DeliveryOutcomes store, DeliveryConfig config,
                     BreakerBoard board, DeliveryMetrics metrics) {
    this.api = api;
    this.outcomes = new OutcomeRecorder(api, store, key, metrics);
    this.key = key;
    this.board = board;
    String name = key.toString();
    this.breaker = CircuitBreaker.create(name, vertx, new CircuitBreakerOptions()
        .setMaxFailures(config.breakerFailures())
        .setResetTimeout(config.breakerResetMs())
        .setTimeout(-1) // the request has its own timeout
        .setNotificationAddress(null));
    breaker.openHandler(v -> {
      LOG.warn("circuit breaker {} opened: its deliveries wait", name);
      vertx.eventBus().publish(Addresses.BREAKER_OPENED, new BreakerOpened(key.network(), key.workspaceId(),
          key.integrationId(), Instant.now().plusMillis(config.breakerResetMs()), lastFailure).toJson());
    }).halfOpenHandler(v -> LOG.info("circuit breaker {} half-open: trying one request", name))
        .closeHandler(v -> LOG.info("circuit breaker {} closed", name));
    board.add(key, breaker::state);
    this.client = WebClient.create(vertx, CheckedRequests.options(config.requestTimeoutMs()));
    this.proxies = new ProxyRoutes(vertx, config.requestTimeoutMs());
    this.out = new Outbound(new CheckedRequests(vertx, client, proxies));
  }

  /**
   * Sends one batch and records its outcome; completes, with the network's verdict on it, when every delivery of it
   * has its new state. An open breaker's verdict is a retry.
   */
  Future<Outcome> send(IntegrationConfig integration, List<ClaimedDelivery> jobs, DeliveryConfig config) {
    List<List<ClaimedDelivery>> requests = api.requests(jobs);
    if (requests.size() > 1) {
      // Several requests (a webhook's one per event): the batch's requests go out together, so a batch takes one
      // request's time, as the claim's lease assumes. The batch's verdict is the first that is not "delivered".
      List<Future<Outcome>> each = requests.stream().map(request -> send(integration, request, config)).toList();
      return Future.join(each).map(v -> each.stream().map(Future::result)
          .filter(outcome -> !(outcome instanceof Outcome.Delivered)).findFirst()
          .orElse(new Outcome.Delivered()));
    }
    JsonObject body;
    try {
      body = api.body(integration, jobs);
    } catch (Throwable failure) { // an Error too (a StackOverflowError in a pattern): it must not leave the batch
      return unbuildable(integration, jobs, config, failure);
    }
    return breaker.<Outcome>execute(() -> api
            .send(out, integration, body, config.requestTimeoutMs())
            .map(response -> api.verdict(response.statusCode(), response.body(),
                RetryAfter.millis(response.getHeader("Retry-After")), jobs.size()))
            .recover(failure -> failure instanceof CheckedRequests.Refused refused
                // Not sent, and no sign of the network's health: final, and no failure for the breaker.
                ? Future.succeededFuture(new Outcome.Failed(refused.getMessage()))
                : Future.failedFuture(failure))
            .compose(outcome -> outcome instanceof Outcome.Retry retry
                ? Future.failedFuture(new TransientFailure(retry))
                : Future.succeededFuture(outcome))
            // Before the breaker counts it, so a breaker that opens on it can say why.
            .onFailure(failure -> lastFailure = Redact.secrets(failure instanceof TransientFailure t ? t.retry.error()
                : Outbound.through(integration, api.describe(failure)), integration)))
        .compose(outcome -> record(integration, jobs, outcome, config, body), failure -> {
          if (failure instanceof OpenCircuitException) {
            // Wait for the breaker without spending attempts.
            return outcomes.deferred(jobs, Instant.now().plusMillis(config.breakerResetMs()))
                .<Outcome>map(new Outcome.Retry("circuit breaker open", 0));
          }
          Outcome.Retry retry = failure instanceof TransientFailure transientFailure ? transientFailure.retry
              : new Outcome.Retry(Outbound.through(integration, api.describe(failure)), 0);
          return record(integration, jobs, retry, config, body);
        });
  }

  /**
   * A batch whose request could not be built: each delivery's own request is built to find the ones that cannot be;
   * those fail, each with what went wrong, and the others are sent as a batch. When each can be built alone, the
   * batch's failure is none of theirs in particular: they all fail with it.
   */
  private Future<Outcome> unbuildable(IntegrationConfig integration, List<ClaimedDelivery> jobs,
                                      DeliveryConfig config, Throwable batchFailure) {
    List<ClaimedDelivery> buildable = new ArrayList<>();
    Map<String, List<ClaimedDelivery>> broken = buildEach(api, integration, jobs, (job, body) -> buildable.add(job));
    if (broken.isEmpty()) {
      broken.put(unprocessable(batchFailure), jobs);
      buildable.clear();
    }
    List<Future<Void>> failed = new ArrayList<>();
    broken.forEach((why, failing) -> {
      LOG.warn("{} integration {}: {} deliveries could not be processed ({})", api.network().id, integration.id(),
          failing.size(), why);
      failed.add(outcomes.unsent(failing, why));
    });
    Future<Outcome> rest = buildable.isEmpty() ? Future.succeededFuture(new Outcome.Failed(broken.keySet()
        .iterator().next())) : send(integration, buildable, config);
    return Future.all(failed).compose(v -> rest);
  }

  /**
   * Builds each delivery's own request body and hands it to {@code built}; returns the deliveries whose body cannot be
   * built (an Error included), grouped by what went wrong ({@link #unprocessable}).
   */
  static Map<String, List<ClaimedDelivery>> buildEach(NetworkApi api, IntegrationConfig integration,
                                                      List<ClaimedDelivery> jobs,
                                                      BiConsumer<ClaimedDelivery, JsonObject> built) {
    Map<String, List<ClaimedDelivery>> broken = new LinkedHashMap<>();
    for (ClaimedDelivery job : jobs) {
      try {
        built.accept(job, api.body(integration, List.of(job)));
      } catch (Throwable failure) {
        broken.computeIfAbsent(unprocessable(failure), why -> new ArrayList<>()).add(job);
      }
    }
    return broken;
  }

  /** The stored error of a delivery the service failed to process: the failure's kind, never its message. */
  static String unprocessable(Throwable failure) {
    return "could not be processed: " + failure.getClass().getSimpleName();
  }

  /**
   * Sends one credential-test event, outside the breaker (a test is asked for while the network may look down) and
   * the outbox, and answers the network's verdict.
   */
  Future<JsonObject> test(IntegrationConfig integration, ClaimedDelivery job, long timeoutMs) {
    return api.send(out, integration, api.body(integration, List.of(job)), timeoutMs)
        .map(response -> CredentialCheck.answered(job, integration, api.testVerdict(response.statusCode(),
            response.body()), response.statusCode(), api.answer(response.body())))
        .recover(failure -> Future.succeededFuture(failure instanceof CheckedRequests.Refused refused
            ? CredentialCheck.notSent(job, integration, refused.getMessage())
            : CredentialCheck.unanswered(job, integration, Outbound.through(integration, api.describe(failure)))));
  }

  /**
   * Another node found the network down: back off with it. Already open, it stays as it is, so the notice this
   * opening publishes in turn ends there.
   */
  void openFromPeer() {
    if (breaker.state() != CircuitBreakerState.OPEN) {
      LOG.info("circuit breaker {} opened by another node", key);
      breaker.open();
    }
  }

  /** The pause a refused token begins: the network's words without the token, and the token by digest only. */
  Pause pauseFor(IntegrationConfig integration, Outcome.Unauthorized refused) {
    return outcomes.pauseFor(integration, refused);
  }

  void close() {
    client.close();
    proxies.close();
    breaker.close();
    board.remove(key);
  }

  /** Records the outcome of a request whose body was {@code body}, or splits a batch refused for invalid data. */
  private Future<Outcome> record(IntegrationConfig integration, List<ClaimedDelivery> jobs, Outcome outcome,
                                 DeliveryConfig config, JsonObject body) {
    if (outcome instanceof Outcome.InvalidData && jobs.size() > 1) {
      // One bad event fails the whole request: halve until it stands alone, so the others go through.
      List<ClaimedDelivery> first = jobs.subList(0, jobs.size() / 2);
      List<ClaimedDelivery> second = jobs.subList(jobs.size() / 2, jobs.size());
      return send(integration, first, config).compose(v -> send(integration, second, config)).map(outcome);
    }
    return outcomes.record(integration, jobs, outcome, config, body).map(outcome);
  }
}
