package dev.eventrouter.forward;

import dev.eventrouter.config.Network;
import dev.eventrouter.store.DeliveryBacklog;
import dev.eventrouter.support.Await;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/** The outbox gauges, fed by a scripted backlog reader instead of the database. */
@ExtendWith(VertxExtension.class)
class BacklogMonitorUnitTest {

  private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  private volatile boolean failing;

  private Future<DeliveryBacklog> read(Network network) {
    if (failing) {
      return Future.failedFuture(new IllegalStateException("database down"));
    }
    return Future.succeededFuture(network == Network.META
        ? new DeliveryBacklog(7, 2, 12.5)
        : new DeliveryBacklog(0, 0, 0));
  }

  private double gauge(String name, String... tags) {
    return metrics.get(name).tags(tags).gauge().value();
  }

  @Test
  @DisplayName("depth by network and state and the oldest due age are read at once and then periodically; "
      + "a failed read shows as unknown (NaN), not as a stale figure; a stop removes the gauges")
  void gauges(Vertx vertx) {
    String deployment = Await.result(vertx.deployVerticle(new BacklogMonitor(this::read, metrics, 50)));
    Await.until("the first read", Await.WAIT,
        () -> gauge("event_router.outbox.depth", "network", "meta", "state", "pending") == 7);
    assertThat(gauge("event_router.outbox.depth", "network", "meta", "state", "retrying")).isEqualTo(2);
    assertThat(gauge("event_router.outbox.oldest_due_seconds", "network", "meta")).isEqualTo(12.5);
    assertThat(gauge("event_router.outbox.depth", "network", "tiktok", "state", "pending")).isZero();
    assertThat(gauge("event_router.outbox.oldest_due_seconds", "network", "tiktok")).isZero();

    failing = true;
    Await.until("a failed read", Await.WAIT,
        () -> Double.isNaN(gauge("event_router.outbox.depth", "network", "meta", "state", "pending")));
    assertThat(gauge("event_router.outbox.depth", "network", "meta", "state", "retrying")).isNaN();
    assertThat(gauge("event_router.outbox.oldest_due_seconds", "network", "meta")).isNaN();
    assertThat(gauge("event_router.outbox.oldest_due_seconds", "network", "tiktok")).isNaN();

    Await.result(vertx.undeploy(deployment));
    assertThat(metrics.find("event_router.outbox.depth").gauges()).isEmpty();
    assertThat(metrics.find("event_router.outbox.oldest_due_seconds").gauges()).isEmpty();
  }
}
