package dev.eventrouter.read;

import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeTelegram;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.MultiMap;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The funnel report over a data set made with real requests (captures, Telegram updates, conversions in three
 * currencies and a non-ISO unit, a status change, an unsubscribe), its rows computed by hand, read from the API as
 * JSON and CSV once the rollups have taken everything.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FunnelReportTest {

  private static final String SECRET = "tg-secret-funnel-0123456789";
  private static final long CHANNEL = -1009876543210L;
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private TestApp app;
  private FakeTelegram telegram;
  private long updates = 500;

  @BeforeAll
  void start(Vertx vertx, @TempDir Path dir) throws IOException {
    telegram = FakeTelegram.start(vertx);
    Path rates = dir.resolve("rates.csv");
    // Units per euro, the ECB's form; the report is in USD.
    Files.writeString(rates, "Date,USD,GBP,\n" + LocalDate.now(ZoneOffset.UTC) + ",1.05,0.85,\n");
    JsonObject config = TestApp.config(TestDatabase.freshDatabaseUrl())
        .put("reports", new JsonObject().put("rates_file", rates.toString()).put("rollup_every_ms", 200)
            .put("rollup_lag_ms", 1000));
    config.getJsonArray("workspaces").getJsonObject(0)
        .put("currency_aliases", new JsonObject().put("USDT", "USD"))
        .put("funnel_events", new JsonArray().add("REG").add("FTD").add("DEP"))
        .put("telegram", new JsonObject().put("webhook_secret", SECRET).put("bot_token", FakeTelegram.TOKEN)
            .put("channel_id", CHANNEL).put("invite_link_pool", 1).put("api_base", telegram.baseUrl()));
    app = TestApp.start(vertx, config);
    buildDataSet();
  }

  @AfterAll
  void stop() {
    app.close();
  }

  private void capture(String session, String landingUrl) {
    HttpResponse<Buffer> r = app.postJson("/api/v1/sessions", KEY_A, new JsonObject().put("workspace_id", WS_A)
        .put("session_id", session).put("landing_url", landingUrl).put("country", "de"));
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
  }

  private void update(JsonObject update) {
    HttpResponse<Buffer> r = app.post("/telegram/" + WS_A + "/webhook", MultiMap.caseInsensitiveMultiMap()
        .add("Content-Type", "application/json").add("X-Telegram-Bot-Api-Secret-Token", SECRET),
        update.put("update_id", updates++).toBuffer());
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
  }

  private void event(JsonObject event) {
    HttpResponse<Buffer> r = app.postJson("/api/v1/events/custom", KEY_A, event.put("workspace_id", WS_A));
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
  }

  private static JsonObject user(long id) {
    return new JsonObject().put("id", id).put("is_bot", false).put("first_name", "U");
  }

  private static JsonObject chat() {
    return new JsonObject().put("id", CHANNEL).put("title", "Signals").put("type", "channel");
  }

  private static JsonObject start(long user, String session) {
    return new JsonObject().put("message", new JsonObject().put("message_id", 1).put("from", user(user))
        .put("chat", new JsonObject().put("id", user).put("type", "private")).put("date", 1795406070)
        .put("text", "/start " + session));
  }

  private static JsonObject link(String session, boolean request) {
    return new JsonObject().put("invite_link", "https://t.me/+" + session).put("name", "er:" + session)
        .put("creator", user(1)).put("creates_join_request", request).put("is_primary", false)
        .put("is_revoked", false);
  }

  private static JsonObject member(long user, String from, String to, JsonObject link) {
    return new JsonObject().put("chat_member", new JsonObject().put("chat", chat()).put("from", user(user))
        .put("date", 1795406080)
        .put("old_chat_member", new JsonObject().put("status", from).put("user", user(user)))
        .put("new_chat_member", new JsonObject().put("status", to).put("user", user(user)))
        .put("invite_link", link));
  }

  /**
   * spring (campaign 111): clicks s1 (ad 333), s2 (ad 334); /start by 1001 (s1) and 1002 (s2); 1001 joins the
   * channel through s1's link and leaves it; REG by both; FTD 100 USD (1001), FTD of 1002 pending at 50 EUR then
   * approved at 60 EUR (63.00 USD); DEP 20 USDT (1001). autumn (campaign 999): click s3, a join request by 1003
   * through s3's link, FTD 10 GBP (12.35 USD).
   */
  private void buildDataSet() {
    String meta = "https://pre.example/?utm_source=fb&utm_campaign=spring&campaign_id=111&adset_id=222";
    capture("s1", meta + "&ad_id=333&placement=Instagram_Stories");
    capture("s2", meta + "&ad_id=334&placement=Facebook_Mobile_Feed");
    capture("s3", "https://pre.example/?utm_source=tt&utm_campaign=autumn&campaign_id=999&adgroup_id=888"
        + "&ad_id=__CID__");
    update(start(1001, "s1"));
    update(start(1002, "s2"));
    update(member(1001, "left", "member", link("s1", false)));
    update(new JsonObject().put("chat_join_request", new JsonObject().put("chat", chat()).put("from", user(1003))
        .put("user_chat_id", 1003).put("date", 1795406060).put("invite_link", link("s3", true))));
    event(new JsonObject().put("event_name", "REG").put("telegram_id", 1001).put("session_id", "s1"));
    event(new JsonObject().put("event_name", "REG").put("telegram_id", 1002).put("session_id", "s2"));
    event(new JsonObject().put("event_name", "FTD").put("telegram_id", 1001).put("session_id", "s1")
        .put("value", 100).put("currency", "USD"));
    event(new JsonObject().put("event_name", "FTD").put("telegram_id", 1002).put("session_id", "s2")
        .put("value", 50).put("currency", "EUR").put("transaction_id", "t-2").put("conversion_status", "pending"));
    event(new JsonObject().put("event_name", "FTD").put("telegram_id", 1002).put("session_id", "s2")
        .put("value", 60).put("currency", "EUR").put("transaction_id", "t-2").put("conversion_status", "approved"));
    event(new JsonObject().put("event_name", "DEP").put("telegram_id", 1001).put("session_id", "s1")
        .put("value", 20).put("currency", "usdt"));
    event(new JsonObject().put("event_name", "FTD").put("telegram_id", 1003).put("session_id", "s3")
        .put("value", 10).put("currency", "GBP"));
    update(member(1001, "member", "left", null));
    // Everything is in once the rollups reach past the last write.
    java.time.Instant written = java.time.Instant.now();
    Await.until("rolled up", DEADLINE, () -> java.time.Instant.parse(report("").getString("rolled_up_to"))
        .isAfter(written));
  }

  private JsonObject report(String query) {
    HttpResponse<Buffer> r = app.get("/api/v1/reports/funnel?" + query, KEY_A);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject().getJsonObject("data");
  }

  private static JsonObject row(JsonObject report, String dimension, String value) {
    return report.getJsonArray("rows").stream().map(JsonObject.class::cast)
        .filter(r -> value.equals(r.getJsonObject("group").getString(dimension))).findFirst().orElseThrow();
  }

  @Test
  @DisplayName("by campaign: clicks, starts, joins, unsubscribes, each event's count, users, revenue in USD and "
      + "statuses, the step rates, and the totals")
  void byCampaign() {
    JsonObject report = report("group_by=utm_campaign");
    assertThat(report.getString("currency")).isEqualTo("USD");
    JsonObject spring = row(report, "utm_campaign", "spring");
    assertThat(spring.getLong("clicks")).isEqualTo(2);
    assertThat(spring.getLong("starts")).isEqualTo(2);
    assertThat(spring.getLong("join_requests")).isZero();
    assertThat(spring.getLong("joins")).isEqualTo(1);
    assertThat(spring.getLong("unsubscribes")).isEqualTo(1);
    assertThat(spring.getLong("remaining_subscribers")).isZero();
    assertThat(spring.getString("revenue")).isEqualTo("183.00");
    JsonObject ftd = spring.getJsonObject("events").getJsonObject("FTD");
    assertThat(ftd.getLong("count")).isEqualTo(2);
    assertThat(ftd.getLong("users")).isEqualTo(2);
    assertThat(ftd.getString("revenue")).isEqualTo("163.00");
    assertThat(ftd.getJsonObject("statuses")).isEqualTo(new JsonObject().put("pending", 0).put("approved", 2)
        .put("rejected", 0).put("chargeback", 0));
    assertThat(spring.getJsonObject("events").getJsonObject("DEP").getString("revenue")).isEqualTo("20.00");
    assertThat(spring.getJsonObject("events").getJsonObject("REG").getLong("users")).isEqualTo(2);
    assertThat(spring.getJsonObject("events").getJsonObject("JoinRequest").getJsonObject("statuses")
        .getLong("rejected")).isEqualTo(1);
    assertThat(spring.getJsonObject("rates").getDouble("clicks_to_starts")).isEqualTo(1.0);
    assertThat(spring.getJsonObject("rates").getDouble("REG_to_FTD")).isEqualTo(1.0);
    assertThat(spring.getJsonObject("rates").getDouble("FTD_to_DEP")).isEqualTo(0.5);
    assertThat(spring.getJsonObject("rates").getDouble("unsubscribe_rate")).isEqualTo(1.0);

    JsonObject autumn = row(report, "utm_campaign", "autumn");
    assertThat(autumn.getLong("clicks")).isEqualTo(1);
    assertThat(autumn.getLong("starts")).isZero();
    assertThat(autumn.getLong("join_requests")).isEqualTo(1);
    assertThat(autumn.getString("revenue")).isEqualTo("12.35");
    assertThat(autumn.getJsonObject("rates").getValue("starts_to_join_requests")).isNull();

    JsonObject totals = report.getJsonObject("totals");
    assertThat(totals.getLong("clicks")).isEqualTo(3);
    assertThat(totals.getString("revenue")).isEqualTo("195.35");
    assertThat(totals.getJsonObject("events").getJsonObject("FTD").getLong("users")).isEqualTo(3);
  }

  @Test
  @DisplayName("by campaign id and ad, filtered to one source: the ids the landing URLs' macros carried, an "
      + "unexpanded macro not an ad")
  void byAdFiltered() {
    JsonObject report = report("group_by=campaign_id,ad_id&filter=utm_source:fb");
    assertThat(report.getJsonArray("rows")).hasSize(2);
    JsonObject ad = row(report, "ad_id", "333");
    assertThat(ad.getJsonObject("group").getString("campaign_id")).isEqualTo("111");
    assertThat(ad.getLong("clicks")).isEqualTo(1);
    assertThat(ad.getString("revenue")).isEqualTo("120.00");
    JsonObject tiktok = row(report("group_by=adset_id,ad_id&filter=utm_campaign:autumn"), "adset_id", "888");
    assertThat(tiktok.getJsonObject("group").getString("ad_id")).isEmpty();
    assertThat(row(report("group_by=country"), "country", "DE").getLong("clicks")).isEqualTo(3);
  }

  @Test
  @DisplayName("CSV: the same numbers, a line per group and the totals")
  void csv() {
    HttpResponse<Buffer> r = app.get("/api/v1/reports/funnel?group_by=utm_campaign&format=csv", KEY_A);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.getHeader("Content-Type")).startsWith("text/csv");
    List<String> lines = List.of(r.bodyAsString().split("\r\n"));
    List<String> header = List.of(lines.get(0).split(","));
    assertThat(header.subList(0, 8)).containsExactly("utm_campaign", "clicks", "starts", "join_requests", "joins",
        "unsubscribes", "remaining_subscribers", "revenue");
    String spring = lines.stream().filter(l -> l.startsWith("spring,")).findFirst().orElseThrow();
    List<String> cells = List.of(spring.split(",", -1));
    assertThat(cells.subList(1, 8)).containsExactly("2", "2", "0", "1", "1", "0", "183.00");
    assertThat(cells.get(header.indexOf("FTD_revenue"))).isEqualTo("163.00");
    assertThat(lines.get(lines.size() - 1)).startsWith("total,3,");
  }

  @Test
  @DisplayName("by day in a time zone; a bad parameter is a 400 naming it")
  void byDayAndRefusals() {
    String today = LocalDate.now(ZoneOffset.UTC).toString();
    JsonObject report = report("group_by=day&tz=UTC&from=" + today + "&to=" + today);
    assertThat(report.getJsonArray("rows")).hasSize(1);
    assertThat(row(report, "day", today).getLong("clicks")).isEqualTo(3);
    HttpResponse<Buffer> bad = app.get("/api/v1/reports/funnel?group_by=planet&tz=Mars/Base&from=x", KEY_A);
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.bodyAsString()).contains("group_by").contains("tz").contains("from");
  }
}
