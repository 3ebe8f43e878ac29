package dev.eventrouter.api.access;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FunnelDataSet;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Team access over the funnel report's data set ({@link FunnelDataSet}: campaign 111 with sessions s1 and s2,
 * campaign 999 with s3), with spend pushed for both and imported for 999 from the ad account act_7: each role's
 * answer, a buyer's scope by campaign and by ad account in events, reports with cost and cost sources, an expired
 * key, and the audit log of actions.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TeamAccessTest {

  static final String ADMIN = "team-admin-key-0123456789abcdef";
  static final String ADMIN_2 = "team-admin-key-2-0123456789abcdef";
  static final String VIEWER = "team-viewer-key-0123456789abcdef";
  static final String BUYER = "team-buyer-key-0123456789abcdef";
  static final String ACCOUNT_BUYER = "team-account-buyer-key-0123456789";
  static final String INGEST = "team-ingest-key-0123456789abcdef";
  static final String EXPIRED = "team-expired-key-0123456789abcdef";

  private FunnelDataSet data;
  private TestApp app;

  @BeforeAll
  void start(Vertx vertx, @TempDir Path dir) throws IOException {
    data = FunnelDataSet.start(vertx, dir, config -> config.getJsonArray("workspaces").getJsonObject(0)
        .put("keys", keys())
        .put("cost_sources", new JsonArray().add(new JsonObject().put("id", "meta-ads").put("type", "meta")
            .put("ad_account_id", "7").put("access_token", "unused-meta-token").put("enabled", false)))
        .put("integrations", new JsonArray().add(new JsonObject().put("id", "hook").put("type", "webhook")
            .put("url", "https://hooks.example/conversions").put("secret", "hook-secret-0123456789")
            .put("enabled", false))));
    app = data.app();
    String today = LocalDate.now(ZoneOffset.UTC).toString();
    HttpResponse<Buffer> cost = app.postJson("/api/v1/costs", KEY_A, new JsonObject().put("source", "sheet")
        .put("rows", new JsonArray()
            .add(new JsonObject().put("date", today).put("timezone", "UTC").put("level", "campaign").put("id", "111")
                .put("cost", 50).put("currency", "USD"))
            .add(new JsonObject().put("date", today).put("timezone", "UTC").put("level", "campaign").put("id", "999")
                .put("cost", 30).put("currency", "USD"))));
    assertThat(cost.statusCode()).as(cost.bodyAsString()).isEqualTo(200);
    // As a poll of act_7 would have written it: campaign 999's spend, which names no click of 111.
    app.rows("INSERT INTO ad_spend (workspace_id, source_id, level, object_id, day, zone, currency, spend, "
        + "campaign_id) VALUES ($1::text::uuid, 'meta-ads', 'campaign', '999', $2::text::date, 'UTC', 'USD', 7, '999')",
        WS_A, today);
  }

  private static JsonArray keys() {
    return new JsonArray()
        .add(key("owner", ADMIN, "admin"))
        .add(key("owner-2", ADMIN_2, "admin"))
        .add(key("analyst", VIEWER, "viewer"))
        .add(key("anna", BUYER, "buyer").put("scope", new JsonObject().put("campaign_ids", new JsonArray()
            .add("111"))).put("expires_at", "2099-01-01T00:00:00Z"))
        .add(key("boris", ACCOUNT_BUYER, "buyer").put("scope", new JsonObject().put("ad_account_ids",
            new JsonArray().add("7"))))
        .add(key("bot", INGEST, "ingest"))
        .add(key("old-viewer", EXPIRED, "viewer").put("expires_at", "2020-01-01T00:00:00Z"));
  }

  private static JsonObject key(String name, String key, String role) {
    return new JsonObject().put("name", name).put("key", ApiKeys.configValue(key)).put("role", role);
  }

  @AfterAll
  void stop() {
    data.close();
  }

  private JsonObject data(String path, String key) {
    HttpResponse<Buffer> r = app.get(path, key);
    assertThat(r.statusCode()).as(path + ": " + r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject().getJsonObject("data");
  }

  private Set<String> sessions(String key) {
    return data("/api/v1/events?limit=100", key).getJsonArray("events").stream()
        .map(e -> ((JsonObject) e).getString("session_id")).collect(Collectors.toSet());
  }

  private static List<String> campaigns(JsonObject report) {
    return report.getJsonArray("rows").stream()
        .map(row -> ((JsonObject) row).getJsonObject("group").getString("campaign_id")).toList();
  }

  @Test
  @DisplayName("/access tells each key its name, role, scope and expiry; the api_keys are admins named by place")
  void access() {
    JsonObject anna = data("/api/v1/access", BUYER);
    assertThat(anna.getString("workspace_id")).isEqualTo(WS_A);
    assertThat(anna.getString("key_name")).isEqualTo("anna");
    assertThat(anna.getString("role")).isEqualTo("buyer");
    assertThat(anna.getJsonObject("scope")).isEqualTo(new JsonObject().put("campaign_ids", new JsonArray().add("111"))
        .put("ad_account_ids", new JsonArray()));
    assertThat(anna.getString("expires_at")).isEqualTo("2099-01-01T00:00:00Z");
    assertThat(anna.getJsonObject("can")).isEqualTo(new JsonObject().put("read", true).put("read_all", false)
        .put("act", false).put("audit", false).put("ingest", false));
    assertThat(data("/api/v1/access", ACCOUNT_BUYER).getJsonObject("scope").getJsonArray("ad_account_ids"))
        .containsExactly("act_7");
    JsonObject legacy = data("/api/v1/access", KEY_A);
    assertThat(legacy.getString("key_name")).isEqualTo("api_keys[0]");
    assertThat(legacy.getString("role")).isEqualTo("admin");
    assertThat(legacy.getValue("scope")).isNull();
    assertThat(data("/api/v1/access", INGEST).getJsonObject("can").getBoolean("read")).isFalse();
    assertThat(data("/api/v1/access", VIEWER).getJsonObject("can").getBoolean("act")).isFalse();
    assertThat(data("/api/v1/access", ADMIN_2).getString("key_name")).isEqualTo("owner-2");
  }

  @Test
  @DisplayName("a buyer sees the events of its campaign's clicks alone; another's event is not found")
  void buyerEvents() {
    assertThat(sessions(ADMIN)).contains("s1", "s2", "s3");
    assertThat(sessions(VIEWER)).contains("s1", "s2", "s3");
    assertThat(sessions(BUYER)).containsExactlyInAnyOrder("s1", "s2");
    assertThat(sessions(ACCOUNT_BUYER)).containsExactly("s3");
    String autumn = data("/api/v1/events?limit=100", ADMIN).getJsonArray("events").stream()
        .map(JsonObject.class::cast).filter(e -> "s3".equals(e.getString("session_id"))).findFirst().orElseThrow()
        .getString("event_id");
    assertThat(app.get("/api/v1/events/" + autumn, ADMIN).statusCode()).isEqualTo(200);
    assertThat(app.get("/api/v1/events/" + autumn, ACCOUNT_BUYER).statusCode()).isEqualTo(200);
    HttpResponse<Buffer> hidden = app.get("/api/v1/events/" + autumn, BUYER);
    assertThat(hidden.statusCode()).isEqualTo(404);
    assertThat(hidden.bodyAsJsonObject().getJsonObject("error").getString("code")).isEqualTo("not_found");
  }

  @Test
  @DisplayName("a buyer's funnel has its campaign's rows and cost alone, its totals the scope's, in JSON and CSV")
  void buyerFunnel() {
    JsonObject all = data("/api/v1/reports/funnel?group_by=campaign_id", ADMIN);
    assertThat(campaigns(all)).containsExactly("111", "999");
    assertThat(all.getJsonObject("totals").getString("cost")).isEqualTo("87.00");

    JsonObject anna = data("/api/v1/reports/funnel?group_by=campaign_id", BUYER);
    assertThat(campaigns(anna)).containsExactly("111");
    JsonObject row = anna.getJsonArray("rows").getJsonObject(0);
    assertThat(row.getString("cost")).isEqualTo("50.00");
    // The same row as the admin's, but for the rates: a report's steps are those its rows have (999's join requests).
    JsonObject admins = all.getJsonArray("rows").getJsonObject(0).copy();
    admins.remove("rates");
    JsonObject annas = row.copy();
    annas.remove("rates");
    assertThat(annas).isEqualTo(admins);
    JsonObject totals = anna.getJsonObject("totals");
    assertThat(totals.getString("cost")).isEqualTo("50.00");
    assertThat(totals.getLong("clicks")).isEqualTo(2);
    assertThat(totals.getString("revenue")).isEqualTo(row.getString("revenue"));
    assertThat(totals.containsKey("spend_unmatched")).isTrue();
    assertThat(totals.getValue("spend_unmatched")).as("the workspace's unexplained spend").isNull();
    // Filtering for another campaign narrows to nothing, not to it.
    assertThat(campaigns(data("/api/v1/reports/funnel?group_by=campaign_id&filter=campaign_id:999", BUYER)))
        .isEmpty();
    HttpResponse<Buffer> csv = app.get("/api/v1/reports/funnel?group_by=campaign_id,utm_campaign&format=csv", BUYER);
    assertThat(csv.statusCode()).isEqualTo(200);
    assertThat(csv.bodyAsString()).contains("111").contains("spring").doesNotContain("999").doesNotContain("autumn")
        .doesNotContain("37.00");

    JsonObject boris = data("/api/v1/reports/funnel?group_by=campaign_id", ACCOUNT_BUYER);
    assertThat(campaigns(boris)).containsExactly("999");
    assertThat(boris.getJsonObject("totals").getString("cost")).isEqualTo("37.00");
  }

  @Test
  @DisplayName("a buyer's cohorts are its campaign's; its cost sources those of its ad accounts")
  void buyerCohortsAndSources() {
    JsonObject cohorts = data("/api/v1/reports/cohorts?group_by=campaign_id", BUYER);
    assertThat(cohorts.encode()).contains("\"111\"").doesNotContain("\"999\"");
    assertThat(data("/api/v1/reports/cohorts?group_by=campaign_id", ADMIN).encode()).contains("\"999\"");
    assertThat(data("/api/v1/cost-sources", ADMIN).getJsonArray("sources")).hasSize(2);
    assertThat(data("/api/v1/cost-sources", BUYER).getJsonArray("sources")).isEmpty();
    assertThat(data("/api/v1/cost-sources", ACCOUNT_BUYER).getJsonArray("sources")).singleElement()
        .satisfies(s -> assertThat(((JsonObject) s).getString("source_id")).isEqualTo("meta-ads"));
  }

  @Test
  @DisplayName("an expired key is refused as an unknown one and logged once, by name; an ingest key reads nothing")
  void expiredAndIngest() {
    LogCapture logs = LogCapture.start();
    try {
      HttpResponse<Buffer> unknown = app.get("/api/v1/events", "not-a-key-of-anyone-0123456789");
      for (int i = 0; i < 3; i++) {
        HttpResponse<Buffer> expired = app.get("/api/v1/events", EXPIRED);
        assertThat(expired.statusCode()).isEqualTo(401);
        assertThat(expired.bodyAsJsonObject()).isEqualTo(unknown.bodyAsJsonObject());
      }
      String text = logs.text();
      assertThat(text.split("expired at", -1)).as(text).hasSize(2);
      assertThat(text).contains("\"old-viewer\"").doesNotContain(EXPIRED);
    } finally {
      logs.stop();
    }
    HttpResponse<Buffer> read = app.get("/api/v1/events", INGEST);
    assertThat(read.statusCode()).isEqualTo(403);
    assertThat(read.bodyAsJsonObject().getJsonObject("error").getString("message")).contains("\"bot\"")
        .contains("ingest");
    HttpResponse<Buffer> posted = app.postJson("/api/v1/events/custom", INGEST, new JsonObject()
        .put("workspace_id", WS_A).put("event_name", "REG").put("telegram_id", 7001).put("session_id", "s9"));
    assertThat(posted.statusCode()).as(posted.bodyAsString()).isEqualTo(200);
  }

  /** Does an action, then waits until the audit log has {@code entries} entries. */
  private HttpResponse<Buffer> act(Supplier<HttpResponse<Buffer>> action, int entries) {
    HttpResponse<Buffer> answer = action.get();
    Await.until(entries + " audit entries", Duration.ofSeconds(10), () -> app.get("/api/v1/audit?limit=200", ADMIN)
        .bodyAsJsonObject().getJsonObject("data").getJsonArray("entries").size() >= entries);
    return answer;
  }

  @Test
  @DisplayName("each action is in the audit log with the key's name, target and outcome, refusals too; admins only "
      + "read it, a page at a time")
  void audit() {
    String event = data("/api/v1/events?limit=1", ADMIN).getJsonArray("events").getJsonObject(0)
        .getString("event_id");
    // Each entry is written as its answer is sent: each action waits for its entry, so the log's order is theirs.
    assertThat(act(() -> app.postJson("/api/v1/events/" + event + "/redeliver", ADMIN, new JsonObject()), 1)
        .statusCode()).isEqualTo(200);
    assertThat(act(() -> app.postJson("/api/v1/events/" + event + "/redeliver", VIEWER, new JsonObject()), 2)
        .statusCode()).isEqualTo(403);
    HttpResponse<Buffer> paused = act(() -> app.postJson("/api/v1/integrations/hook/pause", ADMIN_2,
        new JsonObject()), 3);
    assertThat(paused.statusCode()).as(paused.bodyAsString()).isEqualTo(200);
    assertThat(paused.bodyAsJsonObject().getJsonObject("data")).isEqualTo(new JsonObject()
        .put("integration_id", "hook").put("paused", true).put("changed", true));
    JsonObject hook = data("/api/v1/integrations", VIEWER).getJsonArray("integrations").getJsonObject(0);
    assertThat(hook.getJsonObject("paused").getString("reason")).contains("owner-2");
    assertThat(act(() -> app.postJson("/api/v1/integrations/hook/resume", ADMIN, new JsonObject()), 4)
        .statusCode()).isEqualTo(200);
    assertThat(data("/api/v1/integrations", VIEWER).getJsonArray("integrations").getJsonObject(0).getValue("paused"))
        .isNull();
    assertThat(act(() -> app.postJson("/api/v1/integrations/none/pause", ADMIN, new JsonObject()), 5)
        .statusCode()).isEqualTo(404);
    assertThat(act(() -> app.postJson("/api/v1/cost-sources/meta-ads/poll", ADMIN, new JsonObject()), 6)
        .statusCode()).isEqualTo(200);

    List<String> expected = List.of(
        "owner cost_source.poll meta-ads 200 ok",
        "owner integration.pause none 404 not_found",
        "owner integration.resume hook 200 ok",
        "owner-2 integration.pause hook 200 ok",
        "analyst event.redeliver " + event + " 403 forbidden",
        "owner event.redeliver " + event + " 200 ok");
    JsonObject first = data("/api/v1/audit?limit=4", ADMIN);
    JsonObject rest = data("/api/v1/audit?limit=4&before=" + first.getLong("next_before"), ADMIN);
    assertThat(rest.getValue("next_before")).isNull();
    List<String> read = new ArrayList<>();
    for (JsonObject page : List.of(first, rest)) {
      page.getJsonArray("entries").forEach(e -> {
        JsonObject entry = (JsonObject) e;
        assertThat(entry.getString("at")).isNotBlank();
        read.add(entry.getString("key_name") + " " + entry.getString("action") + " " + entry.getString("target")
            + " " + entry.getString("outcome"));
      });
    }
    assertThat(read).isEqualTo(expected);
    assertThat(app.get("/api/v1/audit", VIEWER).statusCode()).isEqualTo(403);
    assertThat(app.get("/api/v1/audit", BUYER).statusCode()).isEqualTo(403);
    HttpResponse<Buffer> bad = app.get("/api/v1/audit?limit=0&page=2", ADMIN);
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.bodyAsJsonObject().getJsonObject("error").getJsonArray("details").encode()).contains("limit")
        .contains("page");
  }
}
