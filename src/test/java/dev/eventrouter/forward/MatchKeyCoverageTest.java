package dev.eventrouter.forward;

import dev.eventrouter.support.Await;
import dev.eventrouter.support.TestApp;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Match-key coverage after a known mix of events, on the fake networks and a real PostgreSQL: per integration, the
 * share of delivered events that carried each key, in /metrics and in GET /api/v1/integrations.
 */
class MatchKeyCoverageTest extends FakeNetworksTest {

  private void post(long telegramId, String sessionId, JsonObject userData) {
    JsonObject event = new JsonObject().put("event_name", "REG").put("telegram_id", telegramId)
        .put("workspace_id", WS_A).put("user_data", userData);
    if (sessionId != null) {
      event.put("session_id", sessionId);
    }
    assertThat(app.postEvent(KEY_A, event).statusCode()).isEqualTo(200);
  }

  @Test
  @DisplayName("four events: two with an email, one with a phone, three with an IP, two from a captured click: "
      + "each key's share is what was sent, on both networks")
  void coverage() {
    app = TestApp.start(vertx, ForwardingTestConfig.config(databaseUrl, fake.baseUrl()));
    app.postJson("/api/v1/sessions", KEY_A, new JsonObject().put("workspace_id", WS_A).put("session_id", "clk1")
        .put("fbclid", "IwAR1").put("fbp", "fb.1.1700000000000.42").put("ttclid", "E.C.P.x").put("ttp", "ttp-1")
        .put("client_ip", "203.0.113.7").put("user_agent", "Mozilla/5.0"));
    post(1, "clk1", new JsonObject().put("email", "a@example.com"));
    post(2, null, new JsonObject().put("phone", "+14155550100"));
    post(3, null, new JsonObject().put("client_ip", "198.51.100.4"));
    post(4, "clk1", new JsonObject().put("email", "b@example.com").put("zip", "94107"));
    Await.until("eight deliveries delivered", DEADLINE, () -> app.rows(
        "SELECT count(*) FROM deliveries WHERE status = 'delivered'").get(0).getLong(0) == 8);

    Map<String, Double> meta = Map.of("em", 0.5, "ph", 0.25, "external_id", 1.0, "fbc", 0.5, "fbp", 0.5,
        "client_ip_address", 0.75, "client_user_agent", 0.5);
    Map<String, Double> tiktok = Map.of("email", 0.5, "phone", 0.25, "external_id", 1.0, "ttclid", 0.5, "ttp", 0.5,
        "ip", 0.75, "user_agent", 0.5);
    String metrics = app.metrics();
    meta.forEach((key, share) -> assertThat(metrics).contains("event_router_match_keys_total{integration="
        + "\"meta-main\",key=\"" + key + "\",network=\"meta\",workspace=\"" + WS_A + "\"} " + share * 4));
    tiktok.forEach((key, share) -> assertThat(metrics).contains("event_router_match_keys_total{integration="
        + "\"tiktok-main\",key=\"" + key + "\",network=\"tiktok\",workspace=\"" + WS_A + "\"} " + share * 4));

    JsonObject summary = app.get("/api/v1/integrations", KEY_A).bodyAsJsonObject().getJsonObject("data");
    assertThat(summary.getInteger("window_hours")).isEqualTo(24);
    JsonObject metaSummary = summary.getJsonArray("integrations").getJsonObject(0);
    assertThat(metaSummary.getString("integration_id")).isEqualTo("meta-main");
    assertThat(metaSummary.getJsonObject("deliveries").getLong("delivered")).isEqualTo(4);
    assertThat(metaSummary.getJsonObject("deliveries").getLong("failed")).isZero();
    assertThat(metaSummary.getValue("paused")).isNull();
    assertThat(metaSummary.getJsonObject("match_keys").getLong("deliveries")).isEqualTo(4);
    assertThat(metaSummary.getJsonObject("match_keys").getJsonObject("share").getMap()).isEqualTo(meta);
    JsonObject tiktokSummary = summary.getJsonArray("integrations").getJsonObject(1);
    assertThat(tiktokSummary.getJsonObject("match_keys").getJsonObject("share").getMap()).isEqualTo(tiktok);

    assertThat(app.get("/api/v1/integrations?window_hours=169", KEY_A).statusCode()).isEqualTo(400);
    assertThat(app.get("/api/v1/integrations", TestApp.KEY_B).bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("integrations")).as("the other workspace has none").isEmpty();
  }
}
