package dev.eventrouter.forward;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.FakeAdNetworks.Reply;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.TestApp;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A token the network refuses (Meta 190, TikTok 40105) pauses its integration instead of failing its events: they
 * are held without a request, shown as paused, and go out once the config carries a new token or a probe with one
 * held delivery is accepted. Real PostgreSQL, fake networks that check the token as the real ones do.
 */
class PauseTest extends FakeNetworksTest {

  private JsonObject config(String metaToken, long probeMs) {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl(),
        new JsonObject().put("access_token", metaToken));
    // A linger long enough that events posted one after another go in one first request even on a loaded machine
    // (refusedProbes counts the first request's events).
    config.getJsonObject("delivery").put("pause_probe_ms", probeMs).put("linger_ms", 500);
    return config;
  }

  private static LiveConfig live(JsonObject config) {
    return new LiveConfig(new ConfigLoader(Map.of()).resolve(config));
  }

  private List<String> post(int n, int from) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      var response = app.postEvent(KEY_A, new JsonObject().put("event_name", "REG").put("telegram_id", from + i)
          .put("workspace_id", WS_A));
      assertThat(response.statusCode()).isEqualTo(200);
      ids.add(response.bodyAsJsonObject().getJsonObject("data").getString("event_id"));
    }
    return ids;
  }

  @Test
  @DisplayName("Meta 190: the integration pauses once, its events are held and shown paused with no further "
      + "request; a config with a new token resumes it and every held event is delivered once")
  void refusedTokenPausesUntilANewOne() {
    LiveConfig live = live(config("expired-token", 3_600_000));
    LogCapture logs = LogCapture.start();
    app = TestApp.start(vertx, live);

    List<String> first = post(3, 100);
    Await.until("Meta's deliveries held", DEADLINE, () -> count("meta", "paused") == 3);
    Await.until("TikTok unaffected", DEADLINE, () -> count("tiktok", "delivered") == 3);
    int requests = fake.received("meta").size();
    assertThat(requests).as("one refused request paused it").isOne();

    JsonObject status = app.get("/api/v1/events/" + first.get(0), KEY_A).bodyAsJsonObject().getJsonObject("data");
    JsonObject meta = status.getJsonArray("deliveries").getJsonObject(0);
    assertThat(meta.getString("status")).isEqualTo("paused");
    assertThat(meta.getString("last_error")).contains("190").doesNotContain("expired-token");
    JsonObject integrations = app.management("/health/ready").bodyAsJsonObject().getJsonArray("checks").stream()
        .map(JsonObject.class::cast).filter(c -> c.getString("id").equals("integrations")).findFirst()
        .orElseThrow();
    assertThat(integrations.getJsonObject("data").getJsonObject("paused").fieldNames()).singleElement()
        .satisfies(key -> assertThat(key).endsWith("/meta-main"));
    assertThat(app.metrics())
        .contains("event_router_integration_paused{integration=\"meta-main\",network=\"meta\",workspace=\""
            + WS_A + "\"} 1.0");

    List<String> more = post(2, 200);
    Await.until("the new events held too", DEADLINE, () -> count("meta", "paused") == 5);
    assertThat(fake.received("meta")).as("no request while paused").hasSize(requests);
    assertThat(logs.text().split("paused: the network refused", -1)).as("logged once").hasSize(2);
    assertThat(logs.text()).doesNotContain("expired-token");

    live.replace(new ConfigLoader(Map.of()).resolve(config(FakeAdNetworks.META_TOKEN, 3_600_000)));
    Await.until("every held event delivered", DEADLINE, () -> count("meta", "delivered") == 5);
    List<String> all = new ArrayList<>(first);
    all.addAll(more);
    assertThat(fake.accepted("meta")).containsOnlyKeys(all).allSatisfy((id, n) -> assertThat(n).isOne());
    assertThat(count("meta", "failed")).isZero();
    assertThat(logs.text()).contains("resumed (its access_token was changed)");
    assertThat(app.metrics())
        .contains("event_router_integration_paused{integration=\"meta-main\",network=\"meta\",workspace=\""
            + WS_A + "\"} 0.0");
    logs.stop();
  }

  @Test
  @DisplayName("TikTok 40105 pauses too; a periodic probe with one held event resumes it once TikTok accepts again")
  void probeResumes() {
    AtomicBoolean revoked = new AtomicBoolean(true);
    fake.scriptTikTok(body -> revoked.get()
        ? Reply.of(200, FakeAdNetworks.tiktokCode(40105, "Access token is incorrect or has been revoked.")) : null);
    app = TestApp.start(vertx, live(config(FakeAdNetworks.META_TOKEN, 300)));

    List<String> ids = post(3, 300);
    Await.until("TikTok's deliveries held", DEADLINE, () -> count("tiktok", "paused") == 3);
    assertThat(count("tiktok", "failed")).isZero();

    revoked.set(false);
    Await.until("every held event delivered after a probe", DEADLINE, () -> count("tiktok", "delivered") == 3);
    assertThat(fake.accepted("tiktok")).containsOnlyKeys(ids).allSatisfy((id, n) -> assertThat(n).isOne());
  }

  @Test
  @DisplayName("a probe carries exactly one held delivery, and a refused probe keeps the pause as it was: the same "
      + "paused_at, no new log line")
  void refusedProbes() {
    LogCapture logs = LogCapture.start();
    // Probes (300 ms) come sooner than the lease of the refused request's claim (2 s): held rows must be due anyway.
    app = TestApp.start(vertx, live(config("expired-token", 300)));
    post(4, 400);
    Await.until("Meta's deliveries held", DEADLINE, () -> count("meta", "paused") == 4);
    Object pausedAt = app.rows("SELECT paused_at FROM integration_pauses").get(0).getValue(0);
    Await.until("three refused probes", DEADLINE, () -> fake.received("meta").size() >= 4);
    List<FakeAdNetworks.Received> requests = fake.received("meta");
    assertThat(requests.get(0).eventIds()).as("the first request, before the pause").hasSize(4);
    assertThat(requests.subList(1, requests.size())).as("each probe").allSatisfy(probe ->
        assertThat(probe.eventIds()).hasSize(1));
    assertThat(app.rows("SELECT paused_at FROM integration_pauses").get(0).getValue(0)).isEqualTo(pausedAt);
    assertThat(count("meta", "paused")).isEqualTo(4);
    assertThat(logs.text().split("paused: the network refused", -1)).as("logged once").hasSize(2);
    assertThat(logs.text()).doesNotContain("resumed");
    logs.stop();
  }

  private static final String BUYER = "pause-test-buyer-key-0123456789";

  /** The gauge the forwarders set once they read the pauses: 1 while paused, 0 once resumed. */
  private boolean gauge(double value) {
    return app.metrics().contains("event_router_integration_paused{integration=\"meta-main\",network=\"meta\","
        + "workspace=\"" + WS_A + "\"} " + value);
  }

  @Test
  @DisplayName("paused by hand: Meta's events are held without a request while TikTok's go, neither a probe nor a "
      + "new token ends it, and a resume by hand delivers each held event once")
  void pausedByHand() {
    JsonObject config = config(FakeAdNetworks.META_TOKEN, 300);
    LiveConfig live = live(config);
    app = TestApp.start(vertx, live);
    var paused = app.postJson("/api/v1/integrations/meta-main/pause", KEY_A, new JsonObject());
    assertThat(paused.statusCode()).as(paused.bodyAsString()).isEqualTo(200);
    assertThat(paused.bodyAsJsonObject().getJsonObject("data").getBoolean("changed")).isTrue();
    assertThat(app.postJson("/api/v1/integrations/meta-main/pause", KEY_A, new JsonObject()).bodyAsJsonObject()
        .getJsonObject("data").getBoolean("changed")).as("already paused").isFalse();
    Await.until("the forwarders read the pause", DEADLINE, () -> gauge(1.0));

    List<String> held = post(2, 500);
    Await.until("Meta's deliveries held", DEADLINE, () -> count("meta", "paused") == 2);
    Await.until("TikTok's delivered", DEADLINE, () -> count("tiktok", "delivered") == 2);
    // Probes are due every 300 ms and a new token is applied: neither ends a pause by hand.
    live.replace(new ConfigLoader(Map.of()).resolve(config(FakeAdNetworks.META_TOKEN + "-new", 300)));
    held.addAll(post(2, 600));
    Await.until("TikTok's later events delivered", DEADLINE, () -> count("tiktok", "delivered") == 4);
    Await.until("Meta's later events held", DEADLINE, () -> count("meta", "paused") == 4);
    assertThat(fake.received("meta")).as("no request while paused by hand").isEmpty();
    assertThat(app.rows("SELECT token_sha256 FROM integration_pauses").get(0).getString(0)).isEqualTo("manual");

    live.replace(new ConfigLoader(Map.of()).resolve(config));
    var resumed = app.postJson("/api/v1/integrations/meta-main/resume", KEY_A, new JsonObject());
    assertThat(resumed.statusCode()).isEqualTo(200);
    assertThat(resumed.bodyAsJsonObject().getJsonObject("data")).isEqualTo(new JsonObject()
        .put("integration_id", "meta-main").put("paused", false).put("changed", true));
    Await.until("every held event delivered", DEADLINE, () -> count("meta", "delivered") == 4);
    assertThat(fake.accepted("meta")).containsOnlyKeys(held).allSatisfy((id, n) -> assertThat(n).isOne());
    Await.until("the forwarders read the resume", DEADLINE, () -> gauge(0.0));
    assertThat(app.postJson("/api/v1/integrations/meta-main/resume", KEY_A, new JsonObject()).bodyAsJsonObject()
        .getJsonObject("data").getBoolean("changed")).as("not paused any more").isFalse();
  }

  @Test
  @DisplayName("a buyer's deliveries are those of its campaign's clicks; the redelivery of them is an admin's")
  void buyerDeliveries() {
    JsonObject config = config(FakeAdNetworks.META_TOKEN, 300);
    config.getJsonArray("workspaces").getJsonObject(0).put("keys", new JsonArray().add(new JsonObject()
        .put("name", "anna").put("key", ApiKeys.configValue(BUYER)).put("role", "buyer")
        .put("scope", new JsonObject().put("campaign_ids", new JsonArray().add("c1")))));
    app = TestApp.start(vertx, live(config));
    for (String campaign : List.of("c1", "c2")) {
      var captured = app.postJson("/api/v1/sessions", KEY_A, new JsonObject().put("workspace_id", WS_A)
          .put("session_id", "s-" + campaign).put("landing_url", "https://lp.example/?campaign_id=" + campaign));
      assertThat(captured.statusCode()).as(captured.bodyAsString()).isEqualTo(200);
      assertThat(app.postEvent(KEY_A, new JsonObject().put("workspace_id", WS_A).put("event_name", "REG")
          .put("telegram_id", 700).put("session_id", "s-" + campaign)).statusCode()).isEqualTo(200);
    }
    Await.until("all delivered", DEADLINE, () -> count("meta", "delivered") + count("tiktok", "delivered") == 4);
    JsonArray all = app.get("/api/v1/deliveries", KEY_A).bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("deliveries");
    JsonArray annas = app.get("/api/v1/deliveries", BUYER).bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("deliveries");
    assertThat(all).hasSize(4);
    assertThat(annas).hasSize(2);
    String c1 = app.get("/api/v1/events?limit=10", BUYER).bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("events").getJsonObject(0).getString("event_id");
    assertThat(annas.stream().map(d -> ((JsonObject) d).getString("event_id"))).containsOnly(c1);
    assertThat(app.postJson("/api/v1/deliveries/redeliver", BUYER, new JsonObject()).statusCode()).isEqualTo(403);
  }
}
