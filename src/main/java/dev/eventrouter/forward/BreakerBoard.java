package dev.eventrouter.forward;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.circuitbreaker.CircuitBreakerState;

import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The circuit-breaker state of every integration this node delivers to: a gauge per integration in /metrics
 * ({@code event_router_breaker_state}: 0 closed, 1 half-open, 2 open) and a detail of the readiness check. Written
 * by the forwarders' event loops, read by any thread.
 */
public final class BreakerBoard {

  /** One integration's breaker; its parts are the gauge's labels, all bounded by the config. */
  public record Key(String network, UUID workspaceId, String integrationId) {
    @Override
    public String toString() {
      return network + ":" + workspaceId + "/" + integrationId;
    }
  }

  private final MeterRegistry metrics;
  private final Map<Key, CircuitBreakerState> states = new ConcurrentHashMap<>();
  private final Map<Key, Gauge> gauges = new ConcurrentHashMap<>();

  public BreakerBoard(MeterRegistry metrics) {
    this.metrics = metrics;
  }

  void set(Key key, CircuitBreakerState state) {
    states.put(key, state);
    gauges.computeIfAbsent(key, k -> Gauge.builder("event_router.breaker.state", states,
            all -> level(all.get(k)))
        .description("circuit breaker of an integration: 0 closed, 1 half-open, 2 open (its deliveries wait)")
        .tags("network", k.network(), "workspace", k.workspaceId().toString(), "integration", k.integrationId())
        .register(metrics));
  }

  /** An integration no longer delivered to (removed by a reload, or the node stopping): no stale gauge stays. */
  void remove(Key key) {
    states.remove(key);
    Gauge gauge = gauges.remove(key);
    if (gauge != null) {
      metrics.remove(gauge);
    }
  }

  /** Every breaker's state by {@link Key#toString()}, in order. */
  public Map<String, String> snapshot() {
    Map<String, String> all = new TreeMap<>();
    states.forEach((key, state) -> all.put(key.toString(), state.name()));
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
