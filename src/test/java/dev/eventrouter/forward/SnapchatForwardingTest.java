package dev.eventrouter.forward;

import dev.eventrouter.common.Sha256;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.FakeAdNetworks.Reply;
import dev.eventrouter.support.TestApp;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Snapchat's Conversions API end to end: real service, real PostgreSQL, the fake Snapchat server over real HTTP
 * beside the fake Meta: the mapping table's Snapchat column, the click's ScCid and _scid cookie, hashes as Snap
 * documents them, its 37 days, its validation errors, rate limit and refused token, and its validate path.
 */
class SnapchatForwardingTest extends FakeNetworksTest {

  private void start(JsonObject... snapOverrides) {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
    JsonObject snap = FakeAdNetworks.snapchatIntegration(fake.baseUrl());
    for (JsonObject override : snapOverrides) {
      snap.mergeIn(override);
    }
    JsonArray integrations = config.getJsonArray("workspaces").getJsonObject(0).getJsonArray("integrations");
    integrations.remove(1); // TikTok: Meta stays beside Snapchat, for the age limits
    integrations.add(snap);
    app = TestApp.start(vertx, config);
  }

  private String post(JsonObject event) {
    var response = app.postEvent(KEY_A, event);
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    return response.bodyAsJsonObject().getJsonObject("data").getString("event_id");
  }

  private static JsonObject event(String name, Object value) {
    JsonObject event = new JsonObject().put("event_name", name).put("telegram_id", 555).put("workspace_id", WS_A);
    return value == null ? event : event.put("value", value).put("currency", "EUR");
  }

  private Row snap(String eventId) {
    List<Row> rows = app.rows("SELECT * FROM deliveries WHERE event_id = $1 AND network = 'snapchat'",
        Long.parseLong(eventId.substring(4)));
    return rows.isEmpty() ? null : rows.get(0);
  }

  private void awaitStatus(String eventId, String network, String status) {
    Await.until(network + " delivery of " + eventId + " to be " + status, DEADLINE, () -> !app.rows(
        "SELECT 1 FROM deliveries WHERE event_id = $1 AND network = $2 AND status = $3",
        Long.parseLong(eventId.substring(4)), network, status).isEmpty());
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "FTD, PURCHASE, 25",
      "DEP, PURCHASE, 10.5",
      "Purchase, PURCHASE, 99.99",
      "REG, SIGN_UP, ",
      "Subscribe, SUBSCRIBE, ",
      "JoinRequest, SUBSCRIBE, ",
      "INSTALL, APP_INSTALL, ",
      "TRIAL, START_TRIAL, ",
      "Level Up, CUSTOM_EVENT_1, "})
  @DisplayName("every row of the mapping table reaches Snapchat with the exact payload, the click's ids and Snap's "
      + "hashes")
  void mappingTable(String name, String snapEvent, String value) {
    start();
    var capture = app.postJson("/api/v1/sessions", KEY_A, new JsonObject().put("workspace_id", WS_A)
        .put("session_id", "snap_click").put("scid", "cookie-1").put("client_ip", "203.0.113.5")
        .put("user_agent", "Mozilla/5.0 (Snap)").put("landing_url", "https://lp.example/o?ScCid=sc-click-1"));
    assertThat(capture.statusCode()).as(capture.bodyAsString()).isEqualTo(200);
    BigDecimal amount = value == null ? null : new BigDecimal(value);
    String eventId = post(event(name, amount).put("session_id", "snap_click").put("user_data", new JsonObject()
        .put("email", " Person@Example.com ").put("phone", "+44 844 412 4653")));
    awaitStatus(eventId, "snapchat", "delivered");

    long time = Instant.parse(app.get("/api/v1/events/" + eventId, KEY_A).bodyAsJsonObject().getJsonObject("data")
        .getString("received_at")).getEpochSecond();
    // Snap's own examples: https://developers.snap.com/api/marketing-api/Conversions-API/Parameters
    JsonObject user = new JsonObject()
        .put("external_id", new JsonArray().add(Sha256.hex("555")))
        .put("em", new JsonArray().add("542d240129883c019e106e3b1b2d3f3cb3537c43c425364de8e951d5a3083345"))
        .put("ph", new JsonArray().add("dc008fda46e2e64002cf2f82a4906236282d431c4f75e5b60bfe79fc48546383"))
        .put("client_ip_address", "203.0.113.5").put("client_user_agent", "Mozilla/5.0 (Snap)")
        .put("sc_click_id", "sc-click-1").put("sc_cookie1", "cookie-1");
    JsonObject expected = new JsonObject().put("event_name", snapEvent).put("event_time", time)
        .put("event_id", eventId).put("action_source", "WEB").put("user_data", user);
    if (amount != null) {
      expected.put("custom_data", new JsonObject().put("value", amount).put("currency", "EUR"));
    }
    expected.put("event_source_url", "https://lp.example/o?ScCid=sc-click-1");
    assertThat(fake.lastEvent("snapchat", eventId)).isEqualTo(expected);
    FakeAdNetworks.Received request = fake.received("snapchat").get(0);
    assertThat(request.token()).isEqualTo(FakeAdNetworks.SNAPCHAT_TOKEN);
    assertThat(request.body().fieldNames()).containsExactly("data");
    assertThat(snap(eventId).getString("mapped_event")).isEqualTo(snapEvent);
    assertThat(fake.received("snapchat/validate")).isEmpty();
  }

  @Test
  @DisplayName("match-key coverage counts Snapchat's keys, the click's sc_click_id among them")
  void matchKeys() {
    start();
    app.postJson("/api/v1/sessions", KEY_A, new JsonObject().put("workspace_id", WS_A).put("session_id", "mk")
        .put("sccid", "sc-1"));
    String withClick = post(event("REG", null).put("session_id", "mk"));
    String without = post(event("REG", null).put("telegram_id", 556).put("user_data",
        new JsonObject().put("email", "a@example.com")));
    awaitStatus(withClick, "snapchat", "delivered");
    awaitStatus(without, "snapchat", "delivered");
    JsonObject summary = app.get("/api/v1/integrations", KEY_A).bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("integrations").stream().map(JsonObject.class::cast)
        .filter(i -> i.getString("integration_id").equals("snap-main")).findFirst().orElseThrow();
    assertThat(summary.getString("network")).isEqualTo("snapchat");
    assertThat(summary.getJsonObject("match_keys").getJsonObject("share").getMap()).isEqualTo(Map.of(
        "em", 0.5, "ph", 0.0, "external_id", 1.0, "sc_click_id", 0.5, "sc_cookie1", 0.0, "client_ip_address", 0.0,
        "client_user_agent", 0.0));
  }

  @Test
  @DisplayName("Snapchat's 429: retried, then delivered once")
  void rateLimited() {
    start();
    List<Integer> calls = new ArrayList<>();
    fake.scriptSnapchat(body -> {
      synchronized (calls) {
        calls.add(1);
        return calls.size() <= 2 ? Reply.of(429, new JsonObject().put("status", "INVALID")
            .put("reason", "Too many requests")) : null;
      }
    });
    String eventId = post(event("REG", null));
    awaitStatus(eventId, "snapchat", "delivered");
    assertThat(snap(eventId).getInteger("attempts")).isEqualTo(3);
    assertThat(fake.accepted("snapchat")).containsEntry(eventId, 1);
  }

  @Test
  @DisplayName("one event Snapchat finds invalid in a batch: split until it stands alone, failed in Snap's words; the "
      + "rest delivered")
  void invalidEventIsolated() {
    start();
    // A custom event mapped to a name Snapchat does not know cannot be configured; its check is the fake's hash rule:
    // an external id is always hashed by us, so the broken event is scripted by its telegram id's hash.
    String brokenHash = Sha256.hex("4003");
    fake.scriptSnapchat(body -> {
      JsonArray data = body.getJsonArray("data");
      for (int i = 0; i < data.size(); i++) {
        if (data.getJsonObject(i).getJsonObject("user_data").getJsonArray("external_id").contains(brokenHash)) {
          return FakeAdNetworks.snapchatInvalid(i, "Timestamp invalid or out of range");
        }
      }
      return null;
    });
    List<String> ids = new ArrayList<>();
    var futures = new ArrayList<io.vertx.core.Future<?>>();
    for (int i = 0; i < 7; i++) {
      JsonObject event = event("REG", null).put("telegram_id", 4000 + i);
      futures.add(app.client().post(app.port(), "127.0.0.1", "/api/v1/events/custom")
          .putHeaders(TestApp.jsonHeaders(KEY_A)).sendBuffer(event.toBuffer())
          .onSuccess(r -> {
            synchronized (ids) {
              ids.add(r.bodyAsJsonObject().getJsonObject("data").getString("event_id"));
            }
          }));
    }
    io.vertx.core.Future.all(futures).await();
    Await.until("every Snapchat delivery to end", DEADLINE, () -> app.rows("SELECT count(*) FROM deliveries "
        + "WHERE network = 'snapchat' AND status NOT IN ('pending', 'retrying')").get(0).getLong(0) == 7);
    List<Row> failed = app.rows("SELECT * FROM deliveries WHERE network = 'snapchat' AND status = 'failed'");
    assertThat(failed).singleElement().satisfies(row -> assertThat(row.getString("last_error"))
        .isEqualTo("snapchat HTTP 400 INVALID: Timestamp invalid or out of range"));
    assertThat(fake.accepted("snapchat")).hasSize(6).allSatisfy((id, n) -> assertThat(n).isOne());
  }

  @Test
  @DisplayName("a refused Snapchat token pauses the integration; the token Snap quotes is never stored")
  void refusedTokenPauses() {
    start(new JsonObject().put("access_token", "snap-expired-token-99"));
    String eventId = post(event("REG", null));
    Await.until("the integration paused", DEADLINE, () -> !app.rows(
        "SELECT 1 FROM integration_pauses WHERE network = 'snapchat' AND integration_id = 'snap-main'").isEmpty());
    awaitStatus(eventId, "snapchat", "paused");
    assertThat(snap(eventId).getString("last_error")).contains("snapchat HTTP 401")
        .doesNotContain("snap-expired-token-99");
    assertThat(fake.accepted("snapchat")).isEmpty();
  }

  @Test
  @DisplayName("Snapchat takes 37 days: an event 10 days old still goes to Snapchat while Meta's expires; one 38 days "
      + "old expires for both")
  void thirtySevenDays() {
    start();
    fake.scriptMeta(body -> Reply.of(500, FakeAdNetworks.metaError(2, null, "Service temporarily unavailable")));
    fake.scriptSnapchat(body -> Reply.of(503, new JsonObject().put("status", "INVALID").put("reason", "down")));
    String tenDays = post(event("REG", null).put("telegram_id", 10));
    String old = post(event("REG", null).put("telegram_id", 38));
    Await.until("both tried once on both networks", DEADLINE, () -> app.rows(
        "SELECT count(*) FROM deliveries WHERE attempts >= 1").get(0).getLong(0) == 4);
    // Aged while no forwarder runs, so no claim can have read the old times.
    app.close();
    app = null;
    TestApp.sql(databaseUrl, "UPDATE events SET received_at = now() - interval '10 days' WHERE event_id = "
        + tenDays.substring(4) + "; UPDATE events SET received_at = now() - interval '38 days' WHERE event_id = "
        + old.substring(4));
    fake.reset();

    start();
    awaitStatus(tenDays, "snapchat", "delivered");
    awaitStatus(tenDays, "meta", "expired");
    awaitStatus(old, "snapchat", "expired");
    awaitStatus(old, "meta", "expired");
    assertThat(snap(old).getString("last_error")).contains("older than 37 days");
    assertThat(fake.accepted("snapchat")).containsOnlyKeys(tenDays);
  }

  @Test
  @DisplayName("the credential test goes to Snapchat's validate path without a code; an integration with a "
      + "test_event_code sends every event there, and nothing is counted")
  void validatePath() {
    start(new JsonObject().put("test_event_code", "ANY"));
    var response = app.post("/api/v1/integrations/snap-main/test?event_name=FTD",
        MultiMap.caseInsensitiveMultiMap().add("x-api-key", KEY_A), Buffer.buffer());
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    JsonObject verdict = response.bodyAsJsonObject().getJsonObject("data");
    assertThat(verdict.getString("verdict")).isEqualTo("accepted");
    assertThat(verdict.getString("event_name")).isEqualTo("PURCHASE");
    assertThat(verdict.getJsonObject("response")).isEqualTo(new JsonObject().put("status", "VALID")
        .put("reason", "All events processed").put("test_event", true));

    String eventId = post(event("REG", null));
    awaitStatus(eventId, "snapchat", "delivered");
    assertThat(fake.received("snapchat/validate")).hasSize(2);
    assertThat(fake.received("snapchat")).isEmpty();
    assertThat(fake.accepted("snapchat")).isEmpty();
  }
}
