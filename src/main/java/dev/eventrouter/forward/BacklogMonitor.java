package dev.eventrouter.forward;

import dev.eventrouter.config.Network;
import dev.eventrouter.store.DeliveryBacklog;
import dev.eventrouter.store.DeliveryStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The outbox in /metrics, read from the database every few seconds on each forward node:
 * {@code event_router_outbox_depth} by network and state, and {@code event_router_outbox_oldest_due_seconds} by
 * network, which grows when the forwarders fall behind or a network is down. A failed read shows as unknown (NaN)
 * rather than as the last figure: a stale zero would look healthy. (The database's state is readiness's to report.)
 */
public final class BacklogMonitor extends VerticleBase {

  private static final long EVERY_MS = 10_000;

  /** The last figures read for one network; NaN until read, and after a failed read. */
  private static final class Figures {
    volatile double pending = Double.NaN;
    volatile double retrying = Double.NaN;
    volatile double oldestDueSeconds = Double.NaN;

    void set(DeliveryBacklog backlog) {
      pending = backlog == null ? Double.NaN : backlog.pending();
      retrying = backlog == null ? Double.NaN : backlog.retrying();
      oldestDueSeconds = backlog == null ? Double.NaN : backlog.oldestDueSeconds();
    }
  }

  private final Function<Network, Future<DeliveryBacklog>> backlog;
  private final MeterRegistry metrics;
  private final long everyMs;
  private final List<Gauge> gauges = new ArrayList<>();
  private final Map<Network, Figures> latest = new EnumMap<>(Network.class);
  private long timer;

  /** @param backlog reads one network's backlog: {@link DeliveryStore#backlog} in the service */
  public BacklogMonitor(Function<Network, Future<DeliveryBacklog>> backlog, MeterRegistry metrics) {
    this(backlog, metrics, EVERY_MS);
  }

  BacklogMonitor(Function<Network, Future<DeliveryBacklog>> backlog, MeterRegistry metrics, long everyMs) {
    this.backlog = backlog;
    this.metrics = metrics;
    this.everyMs = everyMs;
  }

  @Override
  public Future<?> start() {
    for (Network network : Network.values()) {
      Figures figures = new Figures();
      latest.put(network, figures);
      gauges.add(depth(network, "pending", figures, f -> f.pending));
      gauges.add(depth(network, "retrying", figures, f -> f.retrying));
      gauges.add(Gauge.builder("event_router.outbox.oldest_due_seconds", figures, f -> f.oldestDueSeconds)
          .description("how long the longest-waiting due delivery of a network has been due")
          .tags("network", network.id).register(metrics));
    }
    timer = vertx.setPeriodic(0, everyMs, id -> latest.forEach((network, figures) -> backlog.apply(network)
        .onComplete(read -> figures.set(read.result()))));
    return Future.succeededFuture();
  }

  private Gauge depth(Network network, String state, Figures figures,
                      ToDoubleFunction<Figures> value) {
    return Gauge.builder("event_router.outbox.depth", figures, value)
        .description("deliveries still to send (claimed ones included), by network and state")
        .tags("network", network.id, "state", state).register(metrics);
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timer);
    gauges.forEach(metrics::remove);
    return Future.succeededFuture();
  }
}
