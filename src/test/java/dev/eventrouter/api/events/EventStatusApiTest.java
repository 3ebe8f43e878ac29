package dev.eventrouter.api.events;

import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.KEY_B;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EventStatusApiTest {

  private TestApp app;
  private String eventId;

  @BeforeAll
  void startService(Vertx vertx) {
    app = TestApp.start(vertx, TestApp.config(TestDatabase.freshDatabaseUrl()));
    eventId = app.postEvent(KEY_A, new JsonObject().put("event_name", "DEP").put("telegram_id", 31)
            .put("workspace_id", WS_A).put("session_id", "s_31").put("value", 19.99).put("currency", "eur")
            .put("user_data", new JsonObject().put("email", "private@example.com")))
        .bodyAsJsonObject().getJsonObject("data").getString("event_id");
  }

  @Test
  @DisplayName("the click its session captured is shown as captured")
  void showsClick() {
    app.postJson("/api/v1/sessions", KEY_A, new JsonObject().put("workspace_id", WS_A).put("session_id", "s_32")
        .put("fbclid", "IwAR9").put("fbp", "fb.1.1700000000000.7").put("ttclid", "E.C.P.9").put("ttp", "tt-9")
        .put("gclid", "Cj0-9").put("client_ip", "203.0.113.9").put("user_agent", "UA/1")
        .put("landing_url", "https://lp.example/x").put("clicked_at", "2026-11-20T10:00:00Z"));
    String id = app.postEvent(KEY_A, new JsonObject().put("event_name", "REG").put("telegram_id", 32)
        .put("workspace_id", WS_A).put("session_id", "s_32")).bodyAsJsonObject().getJsonObject("data")
        .getString("event_id");
    JsonObject click = app.get("/api/v1/events/" + id, KEY_A).bodyAsJsonObject().getJsonObject("data")
        .getJsonObject("click");
    assertThat(click).isEqualTo(new JsonObject().put("fbclid", "IwAR9").putNull("fbc")
        .put("fbp", "fb.1.1700000000000.7").put("ttclid", "E.C.P.9").put("ttp", "tt-9").put("gclid", "Cj0-9")
        .putNull("gbraid").putNull("wbraid").putNull("sccid").putNull("scid")
        .put("client_ip", "203.0.113.9").put("user_agent", "UA/1").put("landing_url", "https://lp.example/x")
        .put("clicked_at", "2026-11-20T10:00:00Z").putNull("utm"));
  }

  @AfterAll
  void stopService() {
    app.close();
  }

  @Test
  @DisplayName("the stored event is shown with its session source, and without its user data")
  void showsStoredEvent() {
    HttpResponse<Buffer> response = app.get("/api/v1/events/" + eventId, KEY_A);

    assertThat(response.statusCode()).isEqualTo(200);
    JsonObject data = response.bodyAsJsonObject().getJsonObject("data");
    assertThat(data.fieldNames()).containsExactlyInAnyOrder("event_id", "workspace_id", "event_name", "telegram_id",
        "session_id", "session_source", "value", "currency", "status", "received_at", "click", "deliveries",
        "conversion_status", "transaction_id", "status_history");
    assertThat(data.containsKey("click")).isTrue();
    assertThat(data.getValue("click")).as("no click captured for s_31").isNull();
    assertThat(data.getJsonArray("deliveries")).as("a workspace without integrations").isEmpty();
    assertThat(data.getString("event_id")).isEqualTo(eventId);
    assertThat(data.getString("workspace_id")).isEqualTo(WS_A);
    assertThat(data.getString("event_name")).isEqualTo("DEP");
    assertThat(data.getLong("telegram_id")).isEqualTo(31);
    assertThat(data.getString("session_id")).isEqualTo("s_31");
    assertThat(data.getString("session_source")).isEqualTo("supplied");
    assertThat(data.getDouble("value")).isEqualTo(19.99);
    assertThat(data.getString("currency")).isEqualTo("EUR");
    assertThat(data.getString("status")).isEqualTo("processed");
    assertThat(Instant.parse(data.getString("received_at"))).isBefore(Instant.now().plusSeconds(1));
    assertThat(response.bodyAsString()).doesNotContain("private@example.com");
  }

  @Test
  @DisplayName("the /v1 alias serves the same event")
  void alias() {
    assertThat(app.get("/v1/events/" + eventId, KEY_A).bodyAsJsonObject().getJsonObject("data")
        .getString("event_id")).isEqualTo(eventId);
  }

  @Test
  @DisplayName("another workspace's key gets 404, as if the event did not exist")
  void otherWorkspaceSeesNothing() {
    assertError(app.get("/api/v1/events/" + eventId, KEY_B), 404, "not_found");
  }

  @ParameterizedTest
  @ValueSource(strings = {"evt_1", "evt_99999999999999999999", "evt_abc", "12345"})
  @DisplayName("an unknown or malformed event id gets 404")
  void unknownId(String id) {
    assertError(app.get("/api/v1/events/" + id, KEY_A), 404, "not_found");
  }

  @Test
  @DisplayName("the status endpoint needs a key")
  void needsKey() {
    assertError(app.get("/api/v1/events/" + eventId, null), 401, "unauthorized");
  }
}
