package dev.eventrouter.cluster;

import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.forward.ForwardingTestConfig;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.ClusterNodes;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clustered nodes in one JVM, on loopback, with Vert.x's Hazelcast cluster manager and one shared PostgreSQL. Ports
 * are below the ephemeral range so no outgoing connection takes them.
 */
class ClusterTest {

  private static final int PORT_A = 15801;
  private static final int PORT_B = 15802;
  private static final int PORT_C = 15803;
  /** Long enough that only a cluster message, never the periodic scan, can start a delivery within the test. */
  private static final long NO_SCAN_MS = 3_600_000;

  private final List<TestApp> apps = new ArrayList<>();
  private final ClusterNodes nodes = new ClusterNodes();
  private FakeAdNetworks fake;

  @AfterEach
  void stop() {
    apps.forEach(TestApp::close);
    if (fake != null) {
      fake.stop();
    }
    nodes.close();
  }

  private Vertx node(int port, int... others) {
    return nodes.start(port, others);
  }

  private TestApp app(Vertx vertx, JsonObject config, String... roles) {
    JsonObject withRoles = config.copy().put("roles", new JsonArray(List.of((Object[]) roles)));
    TestApp app = TestApp.start(vertx, new LiveConfig(new ConfigLoader(Map.of()).resolve(withRoles)));
    apps.add(app);
    return app;
  }

  @Test
  @DisplayName("an event posted to an ingest-only node is stored there and delivered by a forward-only node, woken "
      + "by the cluster message, not by a scan; the forward-only node serves health and metrics, not the API")
  void ingestAndForwardOnSeparateNodes() {
    Vertx a = node(PORT_A, PORT_B);
    Vertx b = node(PORT_B, PORT_A);
    fake = FakeAdNetworks.start(a);
    JsonObject config = ForwardingTestConfig.config(TestDatabase.freshDatabaseUrl(), fake.baseUrl());
    config.getJsonObject("delivery").put("scan_interval_ms", NO_SCAN_MS).put("linger_ms", 0);
    config.put("cluster", new JsonObject().put("enabled", true));
    TestApp ingest = app(a, config, "ingest");
    TestApp forward = app(b, config, "forward");

    JsonObject event = new JsonObject().put("event_name", "REG").put("telegram_id", 7)
        .put("workspace_id", TestApp.WS_A).put("session_id", "cluster-1");
    String eventId = ingest.postEvent(TestApp.KEY_A, event).bodyAsJsonObject().getJsonObject("data")
        .getString("event_id");

    Await.until("both networks to receive the event", Await.WAIT,
        () -> fake.accepted("meta").containsKey(eventId) && fake.accepted("tiktok").containsKey(eventId));
    assertThat(fake.accepted("meta")).containsExactly(Map.entry(eventId, 1));
    assertThat(forward.postEvent(TestApp.KEY_A, event).statusCode()).as("no API on a forward-only node")
        .isEqualTo(404);
    assertThat(forward.management("/health/ready").statusCode()).isEqualTo(200);
    assertThat(ingest.metrics()).doesNotContain("event_router_outbox_depth");
    assertThat(forward.metrics()).contains("event_router_outbox_depth");
  }

  @Test
  @DisplayName("a breaker opened on one forward node holds back the same integration on the other")
  void breakerSharedAcrossNodes() {
    Vertx a = node(PORT_A, PORT_B, PORT_C);
    Vertx b = node(PORT_B, PORT_A, PORT_C);
    Vertx c = node(PORT_C, PORT_A, PORT_B);
    fake = FakeAdNetworks.start(a);
    fake.scriptMeta(body -> FakeAdNetworks.Reply.of(503, new JsonObject().put("error", "upstream down")));
    JsonObject config = ForwardingTestConfig.config(TestDatabase.freshDatabaseUrl(), fake.baseUrl());
    config.getJsonObject("delivery").put("linger_ms", 0).put("batch_size", 1)
        .getJsonObject("breaker").put("reset_timeout_ms", 60_000);
    // B opens at its first failure; C would need a thousand of its own, so an open breaker on C came from B.
    JsonObject opensAtOnce = config.copy();
    opensAtOnce.getJsonObject("delivery").getJsonObject("breaker").put("failure_threshold", 1);
    JsonObject neverOpens = config.copy();
    neverOpens.getJsonObject("delivery").getJsonObject("breaker").put("failure_threshold", 1000);
    TestApp ingest = app(a, config, "ingest");
    List<TestApp> forwarders = List.of(app(b, opensAtOnce, "forward"), app(c, neverOpens, "forward"));
    LogCapture logs = LogCapture.start();
    try {
      for (int i = 0; i < 4; i++) {
        ingest.postEvent(TestApp.KEY_A, new JsonObject().put("event_name", "REG").put("telegram_id", 100 + i)
            .put("workspace_id", TestApp.WS_A));
      }
      String open = "event_router_breaker_state{integration=\"meta-main\",network=\"meta\",workspace=\""
          + TestApp.WS_A + "\"} 2.0";
      Await.until("the meta breaker open on both forward nodes", Await.WAIT, () -> forwarders.stream()
          .allMatch(node -> node.metrics().contains(open)));
      assertThat(logs.text()).contains("circuit breaker meta:" + TestApp.WS_A + "/meta-main opened by another node");
      // Held back on both: every meta delivery waits for the breakers' reset, none retries within its backoff.
      Await.until("every meta delivery deferred to the breaker's reset", Await.WAIT, () -> ingest.rows(
          "SELECT count(*) FROM deliveries WHERE network = 'meta' AND status IN ('pending', 'retrying') "
              + "AND next_attempt_at > now() + interval '30 seconds'").get(0).getLong(0) == 4);
    } finally {
      logs.stop();
    }
  }
}
