package dev.eventrouter.cluster;

import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.forward.ForwardingTestConfig;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.ClusterNodes;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.FakeTelegram;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two clustered nodes (Hazelcast on loopback, ports below the ephemeral range) on one PostgreSQL, both checking the
 * alerts: a condition is told once, by one of them.
 */
class ClusterAlertTest {

  private static final int PORT_A = 15811;
  private static final int PORT_B = 15812;

  private final List<TestApp> apps = new ArrayList<>();
  private final ClusterNodes nodes = new ClusterNodes();
  private FakeAdNetworks fake;
  private FakeTelegram telegram;

  @AfterEach
  void stop() {
    apps.forEach(TestApp::close);
    if (fake != null) {
      fake.stop();
    }
    if (telegram != null) {
      telegram.close();
    }
    nodes.close();
  }

  @Test
  @DisplayName("an integration paused while two nodes check the alerts: one message, not two, and rounds went on")
  void oneAlertFromTwoNodes() {
    Vertx a = nodes.start(PORT_A, PORT_B);
    Vertx b = nodes.start(PORT_B, PORT_A);
    fake = FakeAdNetworks.start(a);
    telegram = FakeTelegram.start(a);
    JsonObject config = ForwardingTestConfig.config(TestDatabase.freshDatabaseUrl(), fake.baseUrl(),
        new JsonObject().put("access_token", "expired-token"));
    config.put("cluster", new JsonObject().put("enabled", true))
        .put("alerts", new JsonObject().put("check_every_ms", 100));
    config.getJsonArray("workspaces").getJsonObject(0).put("alerts", new JsonObject().put("targets", new JsonArray()
        .add(new JsonObject().put("type", "telegram").put("chat_id", "-100777").put("bot_token", FakeTelegram.TOKEN)
            .put("api_base", telegram.baseUrl()))));
    for (Vertx node : List.of(a, b)) {
      apps.add(TestApp.start(node, new LiveConfig(new ConfigLoader(Map.of()).resolve(config))));
    }
    TestApp first = apps.get(0);

    first.postEvent(TestApp.KEY_A, new JsonObject().put("event_name", "REG").put("telegram_id", 7)
        .put("workspace_id", TestApp.WS_A));
    Await.until("the pause told", Duration.ofSeconds(20), () -> first.rows(
        "SELECT 1 FROM alert_outbox WHERE status = 'sent'").size() == 1);
    OffsetDateTime told = (OffsetDateTime) first.rows("SELECT max(done_at) FROM alert_outbox").get(0).getValue(0);
    // Twenty rounds' time later (either node's), the message is still the only one.
    Await.until("more rounds after it", Duration.ofSeconds(20), () -> first.rows(
        "SELECT last_at > $1::timestamptz + interval '2 seconds' FROM alert_rounds", told).get(0).getBoolean(0));

    assertThat(telegram.messages()).singleElement().satisfies(text ->
        assertThat(text).startsWith("[ws-1] ALERT: meta/meta-main is paused"));
    assertThat(first.rows("SELECT status, attempts FROM alert_outbox")).singleElement().satisfies(row -> {
      assertThat(row.getString("status")).isEqualTo("sent");
      assertThat(row.getInteger("attempts")).isOne();
    });
    String sent = "event_router_alerts_sent_total{outcome=\"sent\",target=\"telegram\"} 1.0";
    assertThat(apps.stream().filter(app -> app.metrics().contains(sent))).as("sent by one node").hasSize(1);
  }
}
