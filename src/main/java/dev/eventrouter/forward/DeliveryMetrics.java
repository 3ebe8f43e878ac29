package dev.eventrouter.forward;

import dev.eventrouter.config.Network;
import dev.eventrouter.event.MatchKeys;
import dev.eventrouter.store.ClaimedDelivery;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One network's delivery figures in /metrics: outcomes by workspace, integration and outcome
 * ({@code event_router_deliveries_total}), and the time from the event's acceptance to its delivery
 * ({@code event_router_delivery_latency_seconds}, a histogram). Labels come from the config only, never from events.
 */
final class DeliveryMetrics {

  static final String DELIVERED = "delivered";
  static final String RETRIED = "retried";
  static final String DEFERRED = "deferred";
  static final String FAILED = "failed";
  /** Sent and accepted, but in a request the network acknowledged only in part. */
  static final String UNCONFIRMED = "unconfirmed";
  static final String EXPIRED = "expired";
  static final String DRY_RUN = "dry_run";
  /** Not for this integration, by the network's rule: an event without the click id Google Ads needs. */
  static final String SKIPPED = "skipped";
  /** Not sent, or refused: the integration is paused on a refused token. */
  static final String HELD = "held";

  /** A counter's key: an outcome of an integration, or one of its match keys. */
  private record Key(IntegrationKey integration, String name) {}

  private final MeterRegistry metrics;
  private final String network;
  private final Map<Key, Counter> counters = new ConcurrentHashMap<>();
  private final Map<Key, Counter> matchKeyCounters = new ConcurrentHashMap<>();
  private final Timer latency;

  DeliveryMetrics(MeterRegistry metrics, String network) {
    this.metrics = metrics;
    this.network = network;
    this.latency = Timer.builder("event_router.delivery.latency")
        .description("from the event's acceptance to its delivery to the network")
        .tags("network", network)
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(10))
        // Retries run for up to the 7 days the networks accept.
        .maximumExpectedValue(Duration.ofDays(7))
        .register(metrics);
  }

  void count(IntegrationKey integration, String outcome, int deliveries) {
    counters.computeIfAbsent(new Key(integration, outcome), k -> Counter
            .builder("event_router.deliveries")
            .description("delivery attempts' outcomes by network, workspace, integration and outcome")
            .tags("network", network, "workspace", k.integration().workspaceId().toString(),
                "integration", k.integration().integrationId(), "outcome", k.name())
            .register(metrics))
        .increment(deliveries);
  }

  /**
   * Match-key coverage: per key of the network, how many delivered events carried it
   * ({@code event_router_match_keys_total}); over {@code event_router_deliveries_total{outcome="delivered"}}, the
   * share. Every key is registered at the first delivery, so a key never sent shows as 0.
   */
  void matchKeys(IntegrationKey integration, Network network, int[] masks) {
    List<String> keys = MatchKeys.BY_NETWORK.get(network);
    for (int bit = 0; bit < keys.size(); bit++) {
      int carried = 0;
      for (int mask : masks) {
        carried += (mask >> bit) & 1;
      }
      matchKeyCounters.computeIfAbsent(new Key(integration, keys.get(bit)), k -> Counter
              .builder("event_router.match_keys")
              .description("delivered events that carried each match key, by network, workspace, integration and key")
              .tags("network", network.id, "workspace", k.integration().workspaceId().toString(),
                  "integration", k.integration().integrationId(), "key", k.name())
              .register(metrics))
          .increment(carried);
    }
  }

  void delivered(IntegrationKey integration, List<ClaimedDelivery> jobs, Instant now) {
    count(integration, DELIVERED, jobs.size());
    jobs.forEach(job -> latency.record(Duration.between(job.receivedAt(), now)));
  }
}
