package dev.eventrouter.forward;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.circuitbreaker.CircuitBreakerState;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The circuit breaker of every integration this node delivers to: a gauge per integration in /metrics
 * ({@code event_router_breaker_state}: 0 closed, 1 half-open, 2 open) and a detail of the readiness check. Each
 * state is read from the breaker itself when asked (its {@code state()} may be called from any thread), so it is
 * never a stale copy.
 */
public final class BreakerBoard {

  private final MeterRegistry metrics;
  private final Map<IntegrationKey, Supplier<CircuitBreakerState>> breakers = new ConcurrentHashMap<>();
  private final Map<IntegrationKey, Gauge> gauges = new ConcurrentHashMap<>();

  public BreakerBoard(MeterRegistry metrics) {
    this.metrics = metrics;
  }

  void add(IntegrationKey key, Supplier<CircuitBreakerState> state) {
    breakers.put(key, state);
    gauges.computeIfAbsent(key, k -> Gauge.builder("event_router.breaker.state", state, s -> level(s.get()))
        .description("circuit breaker of an integration: 0 closed, 1 half-open, 2 open (its deliveries wait)")
        .tags("network", k.network(), "workspace", k.workspaceId().toString(), "integration", k.integrationId())
        .register(metrics));
  }

  /** An integration no longer delivered to (removed by a reload, or the node stopping): no stale gauge stays. */
  void remove(IntegrationKey key) {
    breakers.remove(key);
    Gauge gauge = gauges.remove(key);
    if (gauge != null) {
      metrics.remove(gauge);
    }
  }

  /** Every breaker's state by {@link IntegrationKey#toString()}, in order. */
  public Map<String, String> snapshot() {
    Map<String, String> all = new TreeMap<>();
    breakers.forEach((key, state) -> all.put(key.toString(), state.get().name()));
    return all;
  }

  private static double level(CircuitBreakerState state) {
    return switch (state) {
      case CLOSED -> 0;
      case HALF_OPEN -> 1;
      case OPEN -> 2;
    };
  }
}
