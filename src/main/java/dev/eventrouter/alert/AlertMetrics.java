package dev.eventrouter.alert;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The alerts' counters in /metrics, their labels bounded by the code (conditions, kinds, target types, outcomes),
 * never by a workspace's settings: {@code event_router_alerts_raised_total{condition, kind}} for the messages
 * rounds queue, {@code event_router_alerts_sent_total{target, outcome}} for what became of each attempt to send one.
 */
final class AlertMetrics {

  static final String SENT = "sent";
  static final String RETRIED = "retried";
  static final String DROPPED = "dropped";

  private final MeterRegistry registry;

  AlertMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  void raised(String condition, String kind) {
    Counter.builder("event_router.alerts.raised")
        .description("alert messages queued, per target, by condition and kind (firing, resolved, summary)")
        .tags("condition", condition, "kind", kind).register(registry).increment();
  }

  /** @param target telegram or webhook */
  void sent(String target, String outcome) {
    Counter.builder("event_router.alerts.sent")
        .description("attempts to send an alert, by target type and outcome (sent, retried, dropped)")
        .tags("target", target, "outcome", outcome).register(registry).increment();
  }
}
