package dev.eventrouter.forward;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.forward.meta.MetaApi;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.RecordingOutbox;
import dev.eventrouter.support.TestApp;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The forwarder's cycle against an outbox double (the outbox's SQL is ForwardingTest's, on PostgreSQL): what it claims,
 * how it groups, expires, dry-runs and ends deliveries, and that it is woken by the bus.
 */
@ExtendWith(VertxExtension.class)
class ForwarderVerticleUnitTest {

  private static final Duration DEADLINE = Duration.ofSeconds(10);
  private static final UUID WS = UUID.fromString(TestApp.WS_A);

  private Vertx vertx;
  private FakeAdNetworks fake;
  private RecordingOutbox queue;
  private PrometheusMeterRegistry metrics;
  private String deployment;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    fake = FakeAdNetworks.start(vertx);
    queue = new RecordingOutbox();
    metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  }

  @AfterEach
  void stop() {
    if (deployment != null) {
      vertx.undeploy(deployment).await();
    }
    fake.stop();
  }

  /** WS_A with a live Meta integration and a dry-run one; a long scan, so only a wake-up starts a cycle. */
  private void deploy() {
    JsonObject config = TestApp.config("postgresql://unused@localhost:1/none");
    config.put("delivery", new JsonObject().put("linger_ms", 0).put("scan_interval_ms", 3_600_000)
        .put("request_timeout_ms", 1000));
    JsonObject meta = new JsonObject().put("type", "meta").put("pixel_id", "1234567890")
        .put("access_token", FakeAdNetworks.META_TOKEN).put("api_base", fake.baseUrl());
    config.getJsonArray("workspaces").getJsonObject(0).put("integrations", new JsonArray()
        .add(meta.copy().put("id", "live"))
        .add(meta.copy().put("id", "dry").put("dry_run", true)));
    LiveConfig live = new LiveConfig(new ConfigLoader(Map.of()).resolve(config));
    deployment = vertx.deployVerticle(new ForwarderVerticle(new MetaApi(), queue, live, metrics)).await();
  }

  private static ClaimedDelivery job(long id, String integration, int attempts, Instant receivedAt,
                                     JsonObject userData) {
    return new ClaimedDelivery(id, 5000 + id, WS, integration, "Lead", attempts, 42, null, "USD", userData,
        receivedAt, null);
  }

  private void wake() {
    vertx.eventBus().publish(Addresses.deliveriesDue("meta"), "meta");
  }

  @Test
  @DisplayName("woken by the bus, it sends each integration's deliveries, dry-runs the dry ones, ends the rest")
  void cycle() {
    deploy();
    Instant now = Instant.now();
    queue.due.addAll(List.of(
        job(1, "live", 0, now, null),
        job(2, "dry", 0, now, null),
        job(3, "gone", 0, now, null),
        job(4, "live", 3, now.minus(Duration.ofDays(8)), null)));
    wake();

    Await.until("every delivery recorded", DEADLINE, () -> queue.outcomesById().size() == 4);
    assertThat(queue.outcomesById()).containsExactlyInAnyOrder("delivered 1", "dry_run 2", "failed 3", "expired 4");
    assertThat(fake.received("meta")).hasSize(1);
    assertThat(fake.received("meta").get(0).eventIds()).containsExactly("evt_5001");
    assertThat(queue.dryRunPayloads.get(0).getJsonArray("data").getJsonObject(0).getString("event_id"))
        .isEqualTo("evt_5002");
  }

  @Test
  @DisplayName("a rejected user_data value is counted once, on the first attempt only")
  void rejectedCountedOnFirstAttempt() {
    deploy();
    JsonObject bad = new JsonObject().put("email", "user@");
    queue.due.addAll(List.of(job(1, "live", 0, Instant.now(), bad), job(2, "live", 2, Instant.now(), bad)));
    wake();

    Await.until("both delivered", DEADLINE, () -> queue.outcomesById().size() == 2);
    assertThat(metrics.scrape()).contains("event_router_user_data_rejected_total{field=\"email\",network=\"meta\"} 1.0");
  }

  @Test
  @DisplayName("a full claim starts the next cycle at once; a stopped forwarder claims nothing more")
  void drainsThenStops() {
    deploy();
    for (int i = 0; i < 4 * 500 + 3; i++) {
      queue.due.add(job(i, "dry", 1, Instant.now(), null));
    }
    wake();
    Await.until("all claimed and dry-run", DEADLINE, () -> queue.outcomesById().size() == 4 * 500 + 3);
    assertThat(queue.claims()).as("a full claim of 2000, then the remaining 3").isGreaterThanOrEqualTo(2);

    vertx.undeploy(deployment).await();
    deployment = null;
    int claimsAtStop = queue.claims();
    queue.due.add(job(99_999, "dry", 1, Instant.now(), null));
    wake();
    assertThat(queue.claims()).isEqualTo(claimsAtStop);
    assertThat(queue.due).hasSize(1);
  }
}
