package dev.eventrouter.forward;

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
  /** Not sent, or refused: the integration is paused on a refused token. */
  static final String HELD = "held";

  private record Key(IntegrationKey integration, String outcome) {}

  private final MeterRegistry metrics;
  private final String network;
  private final Map<Key, Counter> counters = new ConcurrentHashMap<>();
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
                "integration", k.integration().integrationId(), "outcome", k.outcome())
            .register(metrics))
        .increment(deliveries);
  }

  void delivered(IntegrationKey integration, List<ClaimedDelivery> jobs, Instant now) {
    count(integration, DELIVERED, jobs.size());
    jobs.forEach(job -> latency.record(Duration.between(job.receivedAt(), now)));
  }
}
