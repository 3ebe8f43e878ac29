package dev.eventrouter.forward;

import dev.eventrouter.common.Backoff;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.DeliveryConfig;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.store.DeliveryOutcomes;
import dev.eventrouter.store.Pause;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What an answer does to one integration's claimed deliveries, written to the outbox and counted: delivered, retried
 * with backoff (a longer Retry-After wins), held under a pause on a refused token, unconfirmed, or failed; the
 * network's words kept without the integration's secrets.
 */
final class OutcomeRecorder {

  /** The channel's logger: these lines are the channel's, as operators know them. */
  private static final Logger LOG = LoggerFactory.getLogger(IntegrationChannel.class);

  private final NetworkApi api;
  private final DeliveryOutcomes store;
  private final IntegrationKey key;
  private final DeliveryMetrics metrics;

  OutcomeRecorder(NetworkApi api, DeliveryOutcomes store, IntegrationKey key, DeliveryMetrics metrics) {
    this.api = api;
    this.store = store;
    this.key = key;
    this.metrics = metrics;
  }

  /** Deliveries that wait for an open breaker, without spending attempts. */
  Future<Void> deferred(List<ClaimedDelivery> jobs, Instant until) {
    return store.defer(jobs, until).onSuccess(v -> count(jobs, DeliveryMetrics.DEFERRED));
  }

  /** Deliveries that fail before any request, with what went wrong. */
  Future<Void> unsent(List<ClaimedDelivery> jobs, String why) {
    return store.failed(jobs, Collections.nCopies(jobs.size(), null), why)
        .onSuccess(v -> count(jobs, DeliveryMetrics.FAILED));
  }

  /** The pause a refused token begins: the network's words without the token, and the token by digest only. */
  Pause pauseFor(IntegrationConfig integration, Outcome.Unauthorized refused) {
    return new Pause(key.network(), key.workspaceId(), key.integrationId(),
        Redact.secrets(refused.error(), integration), Sha256.hex(integration.accessToken()), Instant.now());
  }

  /**
   * Records the outcome of a request whose body was {@code body}; invalid data in a batch of more than one is the
   * channel's to split instead.
   */
  Future<Void> record(IntegrationConfig integration, List<ClaimedDelivery> jobs, Outcome outcome,
                      DeliveryConfig config, JsonObject body) {
    List<JsonObject> payloads = config.keepPayloads() ? api.payloads(body, jobs.size())
        : Collections.nCopies(jobs.size(), null);
    if (!(outcome instanceof Outcome.PerEvent perEvent)) {
      return record(integration, jobs, payloads, outcome, config, () -> api.matchKeys(body, jobs.size()));
    }
    // Each event its own outcome: the events of one outcome are written together, as a request's would be.
    int[] allKeys = api.matchKeys(body, jobs.size());
    Map<Outcome, List<Integer>> byOutcome = new LinkedHashMap<>();
    for (int i = 0; i < jobs.size(); i++) {
      byOutcome.computeIfAbsent(perEvent.each().get(i), o -> new ArrayList<>()).add(i);
    }
    Future<Void> written = Future.succeededFuture();
    for (Map.Entry<Outcome, List<Integer>> group : byOutcome.entrySet()) {
      List<Integer> at = group.getValue();
      written = written.compose(v -> record(integration, at.stream().map(jobs::get).toList(),
          at.stream().map(payloads::get).toList(), group.getKey(), config,
          () -> at.stream().mapToInt(i -> allKeys[i]).toArray()));
    }
    return written;
  }

  private Future<Void> record(IntegrationConfig integration, List<ClaimedDelivery> jobs, List<JsonObject> payloads,
                              Outcome outcome, DeliveryConfig config, Supplier<int[]> keys) {
    if (outcome instanceof Outcome.Delivered) {
      int[] matchKeys = keys.get();
      return store.delivered(jobs, payloads, matchKeys).onSuccess(v -> {
        metrics.delivered(key, jobs, Instant.now());
        metrics.matchKeys(key, api.network(), matchKeys);
      });
    }
    if (outcome instanceof Outcome.Retry retry) {
      long backoff = Backoff.delayMs(jobs.get(0).attempts(), config.initialBackoffMs(), config.maxBackoffMs());
      return store.retry(jobs, payloads, Redact.secrets(retry.error(), integration),
          Instant.now().plusMillis(Math.max(backoff, retry.retryAfterMs())))
          .onSuccess(v -> count(jobs, DeliveryMetrics.RETRIED));
    }
    if (outcome instanceof Outcome.Unauthorized unauthorized) {
      // Every event would be refused the same way: hold them all, and say so once, when the pause begins.
      Pause pause = pauseFor(integration, unauthorized);
      return store.pause(pause, jobs)
          .onSuccess(first -> {
            count(jobs, DeliveryMetrics.HELD);
            if (first) {
              LOG.warn("{} integration {} paused: the network refused its token or permissions ({}). Its "
                  + "deliveries are held until its access_token is changed in the config or a probe is accepted",
                  api.network().id, integration.id(), pause.reason());
            }
          })
          .mapEmpty();
    }
    if (outcome instanceof Outcome.Unconfirmed unconfirmed) {
      return store.unconfirmed(jobs, payloads, Redact.secrets(unconfirmed.error(), integration))
          .onSuccess(v -> count(jobs, DeliveryMetrics.UNCONFIRMED));
    }
    String error = outcome instanceof Outcome.InvalidData invalid ? invalid.error()
        : ((Outcome.Failed) outcome).error();
    return store.failed(jobs, payloads, Redact.secrets(error, integration))
        .onSuccess(v -> count(jobs, DeliveryMetrics.FAILED));
  }

  private void count(List<ClaimedDelivery> jobs, String outcome) {
    metrics.count(key, outcome, jobs.size());
  }
}
