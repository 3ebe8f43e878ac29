package dev.eventrouter.forward;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The integrations paused on a refused token, as this node's forwarders last read them: a gauge each in /metrics
 * ({@code event_router_integration_paused}, 1 while paused) and a detail of the readiness check with the network's
 * reason. A paused integration does not make the node unready: its events are still stored, and held.
 */
public final class PauseBoard {

  private final MeterRegistry metrics;
  private final Map<IntegrationKey, String> reasons = new ConcurrentHashMap<>();

  public PauseBoard(MeterRegistry metrics) {
    this.metrics = metrics;
  }

  void paused(IntegrationKey key, String reason) {
    reasons.put(key, reason);
    // Registering again returns the gauge already there: one per integration ever paused, 0 once resumed.
    Gauge.builder("event_router.integration.paused", reasons, all -> all.containsKey(key) ? 1 : 0)
        .description("1 while an integration is paused because its network refused the token or permissions")
        .tags("network", key.network(), "workspace", key.workspaceId().toString(), "integration", key.integrationId())
        .register(metrics);
  }

  void resumed(IntegrationKey key) {
    reasons.remove(key);
  }

  /** Every paused integration's reason by {@link IntegrationKey#toString()}, in order. */
  public Map<String, String> snapshot() {
    Map<String, String> all = new TreeMap<>();
    reasons.forEach((key, reason) -> all.put(key.toString(), reason));
    return all;
  }
}
