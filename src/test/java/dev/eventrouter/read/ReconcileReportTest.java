package dev.eventrouter.read;

import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.report.RecountVerticle;
import dev.eventrouter.store.DeliveredCounts;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.FakeMetaInsights;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
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

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reconciliation end to end: events delivered to a fake Meta, the same ads' own counts imported from a fake
 * Meta insights, both counted by hand.
 *
 * <p>Today, ad 611 (campaign c1) had clicks s1 and s2, ad 622 (campaign c2) click s3, whose URL carried the ad's
 * id alone. Delivered to Meta: for 611,
 * Purchase 3 (s1's FTD and DEP, s2's FTD), CompleteRegistration 2 (s1's and s2's REG), and a custom Chat (s2); for
 * 622, Purchase 1 (s3's FTD); and a Purchase of no click (unattributed). Meta's own counts of today: 611 purchase 2,
 * complete_registration 2, link_click 40 (not a conversion); 622 purchase 1.
 *
 * <p>So by ad: 611 purchase 3 delivered, 2 counted, -1, ratio 0.6667, short (under 0.8); 611 registration 2 / 2;
 * 611 custom 1 / 0, short; 622 purchase 1 / 1. Totals: purchase 4 / 3 (0.75), registration 2 / 2, custom 1 / 0.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReconcileReportTest {

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final UUID WS = UUID.fromString(WS_A);
  private static final String PURCHASE = "offsite_conversion.fb_pixel_purchase";
  private static final String REGISTRATION = "offsite_conversion.fb_pixel_complete_registration";
  private static final String CUSTOM = "offsite_conversion.fb_pixel_custom";

  private final LocalDate today = LocalDate.now(ZoneOffset.UTC);
  private FakeAdNetworks networks;
  private FakeMetaInsights insights;
  private TestApp app;
  private JsonObject config;

  @BeforeAll
  void start(Vertx vertx) {
    networks = FakeAdNetworks.start(vertx);
    insights = FakeMetaInsights.start(vertx, "1029384756", "UTC", "USD");
    insights.addRows(
        new FakeMetaInsights.Row("611", today, "10.00", 1000, 50, "ad 611", "as1", "adset 1", "c1", "campaign 1",
            Map.of(PURCHASE, 2L, REGISTRATION, 2L, "link_click", 40L)),
        new FakeMetaInsights.Row("622", today, "5.00", 500, 20, "ad 622", "as2", "adset 2", "c2", "campaign 2",
            Map.of(PURCHASE, 1L)));
    config = TestApp.config(TestDatabase.freshDatabaseUrl());
    JsonObject workspace = config.getJsonArray("workspaces").getJsonObject(0);
    workspace.put("integrations", new JsonArray().add(FakeAdNetworks.metaIntegration(networks.baseUrl())));
    workspace.put("cost_sources", new JsonArray().add(new JsonObject().put("id", "fb-main").put("type", "meta")
        .put("ad_account_id", "1029384756").put("access_token", FakeMetaInsights.TOKEN)
        .put("api_base", insights.baseUrl()).put("allow_private_network", true)));
    app = TestApp.start(vertx, config);
    click("s1", "c1", "as1", "611");
    click("s2", "c1", "as1", "611");
    click("s3", "", "", "622"); // the ad's id alone: its campaign is the network's
    send(new JsonObject().put("event_name", "FTD").put("session_id", "s1").put("telegram_id", 101).put("value", 50));
    send(new JsonObject().put("event_name", "DEP").put("session_id", "s1").put("telegram_id", 101).put("value", 30));
    send(new JsonObject().put("event_name", "FTD").put("session_id", "s2").put("telegram_id", 102).put("value", 20));
    send(new JsonObject().put("event_name", "REG").put("session_id", "s1").put("telegram_id", 101));
    send(new JsonObject().put("event_name", "REG").put("session_id", "s2").put("telegram_id", 102));
    send(new JsonObject().put("event_name", "Chat").put("session_id", "s2").put("telegram_id", 102));
    send(new JsonObject().put("event_name", "FTD").put("session_id", "s3").put("telegram_id", 103).put("value", 40));
    send(new JsonObject().put("event_name", "FTD").put("telegram_id", 987654321).put("value", 10));
    Await.until("the 8 events delivered", DEADLINE, () -> app.rows(
        "SELECT 1 FROM deliveries WHERE status = 'delivered'").size() == 8);
    Await.until("Meta's counts imported", DEADLINE, () -> app.rows(
        "SELECT 1 FROM ad_spend WHERE actions IS NOT NULL").size() == 2);
    recount();
  }

  /** A recount of the last 48 hours, once no other holds the lock (the service's own come every 15 minutes). */
  private void recount() {
    Await.until("48 hours counted", DEADLINE,
        () -> Await.result(new DeliveredCounts(app.pool()).recount(Instant.now(), 48)) == 48);
  }

  @AfterAll
  void stop() {
    app.close();
    insights.close();
    networks.stop();
  }

  private void click(String session, String campaign, String adset, String ad) {
    app.rows("""
        INSERT INTO click_sessions (workspace_id, session_id, clicked_at, created_at, ad)
        VALUES ($1, $2, $3, $3, jsonb_strip_nulls(jsonb_build_object('campaign_id', nullif($4::text, ''),
                'adset_id', nullif($5::text, ''), 'ad_id', $6::text)))""",
        WS, session, OffsetDateTime.now(ZoneOffset.UTC), campaign, adset, ad);
  }

  private void send(JsonObject event) {
    HttpResponse<Buffer> r = app.postJson("/api/v1/events/custom", KEY_A, event.put("workspace_id", WS_A)
        .put("currency", "USD"));
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
  }

  private JsonObject report(String query) {
    HttpResponse<Buffer> r = app.get("/api/v1/reports/reconcile?from=" + today + "&to=" + today + "&" + query,
        KEY_A);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject().getJsonObject("data");
  }

  /** Each row as "group action_type: delivered/counted difference ratio short". */
  private static Map<String, String> lines(JsonArray rows, String group) {
    Map<String, String> lines = new TreeMap<>();
    for (Object item : rows) {
      JsonObject row = (JsonObject) item;
      String key = (group == null ? "total" : row.getJsonObject("group").getString(group)) + " "
          + row.getString("action_type");
      lines.put(key, row.getLong("delivered") + "/" + row.getLong("network_count") + " " + row.getLong("difference")
          + " " + row.getValue("ratio") + (row.getBoolean("short") ? " short" : ""));
    }
    return lines;
  }

  @Test
  @DisplayName("by ad: what was delivered beside Meta's own count, a count under 80% of it marked short; the "
      + "deliveries of no click and the action types that are not conversions left out")
  void byAd() {
    JsonObject report = report("network=meta&group_by=ad");
    assertThat(lines(report.getJsonArray("rows"), "ad_id")).containsExactly(
        Map.entry("611 " + REGISTRATION, "2/2 0 1.0"),
        Map.entry("611 " + CUSTOM, "1/0 -1 0.0 short"),
        Map.entry("611 " + PURCHASE, "3/2 -1 0.6667 short"),
        Map.entry("622 " + PURCHASE, "1/1 0 1.0"));
    assertThat(lines(report.getJsonArray("totals"), null)).containsExactly(
        Map.entry("total " + REGISTRATION, "2/2 0 1.0"),
        Map.entry("total " + CUSTOM, "1/0 -1 0.0 short"),
        Map.entry("total " + PURCHASE, "4/3 -1 0.75 short"));
    assertThat(report.getJsonObject("unattributed").fieldNames()).containsExactly(PURCHASE);
    assertThat(report.getJsonObject("unattributed").getLong(PURCHASE)).isEqualTo(1L);
    assertThat(report.getString("tz")).isEqualTo("UTC");
    assertThat(report.getBoolean("cut")).isFalse();
    JsonObject purchases = report.getJsonArray("rows").stream().map(JsonObject.class::cast)
        .filter(r -> PURCHASE.equals(r.getString("action_type"))).findFirst().orElseThrow();
    assertThat(purchases.getJsonArray("events")).containsExactly("Purchase");
  }

  @Test
  @DisplayName("by campaign and by day: the same counts added up; a click of the ad's id alone under the campaign "
      + "the network names")
  void byCampaignAndDay() {
    assertThat(lines(report("group_by=campaign").getJsonArray("rows"), "campaign_id")).contains(
        Map.entry("c1 " + PURCHASE, "3/2 -1 0.6667 short"), Map.entry("c2 " + PURCHASE, "1/1 0 1.0"));
    assertThat(lines(report("group_by=day").getJsonArray("rows"), "day")).contains(
        Map.entry(today + " " + PURCHASE, "4/3 -1 0.75 short"), Map.entry(today + " " + REGISTRATION, "2/2 0 1.0"));
  }

  @Test
  @DisplayName("a recount counts the same hours again: nothing counted twice")
  void recountAgain() {
    recount();
    assertThat(lines(report("group_by=ad").getJsonArray("rows"), "ad_id"))
        .containsEntry("611 " + PURCHASE, "3/2 -1 0.6667 short");
  }

  @Test
  @DisplayName("the recount runs by itself, every period, over reports.reconcile_lookback_hours")
  void recountsByItself(Vertx vertx) {
    app.rows("DELETE FROM delivered_counts");
    LiveConfig live = new LiveConfig(new ConfigLoader(Map.of()).resolve(config.copy()
        .put("reports", new JsonObject().put("reconcile_lookback_hours", 2))));
    String id = Await.result(vertx.deployVerticle(new RecountVerticle(new DeliveredCounts(app.pool()), live, 50)));
    try {
      Await.until("counted again", DEADLINE, () -> "3/2 -1 0.6667 short".equals(
          lines(report("group_by=ad").getJsonArray("rows"), "ad_id").get("611 " + PURCHASE)));
    } finally {
      Await.result(vertx.undeploy(id));
    }
    assertThat(app.rows("SELECT 1 FROM delivered_counts WHERE hour < $1",
        OffsetDateTime.now(ZoneOffset.UTC).minusHours(3))).isEmpty();
  }

  @Test
  @DisplayName("TikTok: only its optimization event (CompletePayment) is held against its count; the rest is "
      + "listed as not compared")
  void tiktok() {
    JsonObject report = report("network=tiktok");
    assertThat(report.getJsonArray("rows")).isEmpty();
    assertThat(report.getJsonObject("not_compared").getMap()).isEmpty(); // nothing was sent to TikTok
  }

  @Test
  @DisplayName("CSV: a line per ad and action type, then the totals")
  void csv() {
    HttpResponse<Buffer> r = app.get("/api/v1/reports/reconcile?from=" + today + "&to=" + today
        + "&group_by=ad&format=csv", KEY_A);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.getHeader("Content-Type")).startsWith("text/csv");
    List<String> lines = List.of(r.bodyAsString().split("\r\n"));
    assertThat(lines.get(0)).isEqualTo("ad_id,action_type,events,delivered,network_count,difference,ratio,short");
    assertThat(lines).contains("611," + PURCHASE + ",Purchase,3,2,-1,0.6667,true",
        "total," + PURCHASE + ",Purchase,4,3,-1,0.75,true");
  }

  @Test
  @DisplayName("refusals: an unknown network, grouping or parameter, a range past 92 days: 400 naming each")
  void refusals() {
    HttpResponse<Buffer> r = app.get("/api/v1/reports/reconcile?network=google&group_by=country&from=2026-01-01"
        + "&to=2026-06-01&pixel=1", KEY_A);
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.bodyAsString()).contains("\"network\"").contains("\"group_by\"").contains("\"from\"")
        .contains("\"pixel\"");
  }
}
