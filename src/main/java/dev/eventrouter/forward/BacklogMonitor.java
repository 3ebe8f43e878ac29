package dev.eventrouter.forward;

import dev.eventrouter.common.LogSafe;
import dev.eventrouter.config.Network;
import dev.eventrouter.store.DeliveryStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The outbox in /metrics, read from the database every few seconds on each forward node:
 * {@code event_router_outbox_depth} by network and state, and {@code event_router_outbox_oldest_due_seconds} by
 * network, which grows when the forwarders fall behind or a network is down.
 */
public final class BacklogMonitor extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(BacklogMonitor.class);
  private static final long EVERY_MS = 10_000;

  private final Function<Network, Future<DeliveryStore.Backlog>> backlog;
  private final MeterRegistry metrics;
  private final long everyMs;
  private final List<Gauge> gauges = new ArrayList<>();
  private final Map<Network, AtomicReference<DeliveryStore.Backlog>> latest = new EnumMap<>(Network.class);
  private long timer;

  /** @param backlog reads one network's backlog: {@link DeliveryStore#backlog} in the service */
  public BacklogMonitor(Function<Network, Future<DeliveryStore.Backlog>> backlog, MeterRegistry metrics) {
    this(backlog, metrics, EVERY_MS);
  }

  BacklogMonitor(Function<Network, Future<DeliveryStore.Backlog>> backlog, MeterRegistry metrics, long everyMs) {
    this.backlog = backlog;
    this.metrics = metrics;
    this.everyMs = everyMs;
  }

  @Override
  public Future<?> start() {
    for (Network network : Network.values()) {
      AtomicReference<DeliveryStore.Backlog> last = new AtomicReference<>();
      latest.put(network, last);
      for (String state : List.of("pending", "retrying")) {
        gauges.add(Gauge.builder("event_router.outbox.depth", last, b -> b.get() == null ? Double.NaN
                : b.get().depth().get(state))
            .description("deliveries still to send (claimed ones included), by network and state")
            .tags("network", network.id, "state", state).register(metrics));
      }
      gauges.add(Gauge.builder("event_router.outbox.oldest_due_seconds", last, b -> b.get() == null ? Double.NaN
              : b.get().oldestDueSeconds())
          .description("how long the longest-waiting due delivery of a network has been due")
          .tags("network", network.id).register(metrics));
    }
    timer = vertx.setPeriodic(0, everyMs, id -> readAll());
    return Future.succeededFuture();
  }

  /** A failed read shows as unknown (NaN) rather than as the last figure: a stale zero would look healthy. */
  private void readAll() {
    latest.forEach((network, last) -> backlog.apply(network).onComplete(read -> {
      last.set(read.succeeded() ? read.result() : null);
      if (read.failed()) {
        LOG.debug("reading the {} backlog failed: {}", network.id, LogSafe.describe(read.cause()));
      }
    }));
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timer);
    gauges.forEach(metrics::remove);
    return Future.succeededFuture();
  }
}
