package dev.eventrouter.support;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.function.Consumer;

import static dev.eventrouter.support.TelegramUpdates.chat;
import static dev.eventrouter.support.TelegramUpdates.link;
import static dev.eventrouter.support.TelegramUpdates.member;
import static dev.eventrouter.support.TelegramUpdates.user;
import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The funnel report's data set, made with real requests to the real service (captures, Telegram updates,
 * conversions in three currencies and a non-ISO unit, a status change, an unsubscribe) in workspace A, whose report
 * is in USD with the funnel events REG, FTD and DEP. Its numbers are computed by hand in {@link #build()}'s comment;
 * the report's test reads them from the API, the Funnel view's test from the page.
 */
public final class FunnelDataSet {

  private static final String SECRET = "tg-secret-funnel-0123456789";
  private static final long CHANNEL = -1009876543210L;
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private final TestApp app;
  private long updates = 500;

  private FunnelDataSet(TestApp app) {
    this.app = app;
  }

  /**
   * The service with rollups every 200 ms, its rates file in {@code dir}, and the data set in, rolled up.
   *
   * @param tune changes to the configuration before the service starts (other workspaces' settings)
   */
  public static FunnelDataSet start(Vertx vertx, Path dir, Consumer<JsonObject> tune)
      throws IOException {
    FakeTelegram telegram = FakeTelegram.start(vertx);
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
    tune.accept(config);
    FunnelDataSet set = new FunnelDataSet(TestApp.start(vertx, config));
    set.build();
    return set;
  }

  public static FunnelDataSet start(Vertx vertx, Path dir) throws IOException {
    return start(vertx, dir, config -> { });
  }

  public TestApp app() {
    return app;
  }

  public void close() {
    app.close();
  }

  /** Workspace A's report for a query string, as the API answers it (its {@code data}). */
  public JsonObject report(String query) {
    HttpResponse<Buffer> r = app.get("/api/v1/reports/funnel?" + query, KEY_A);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject().getJsonObject("data");
  }

  /** Waits until the rollups reach past now: everything written before is in the report of {@code key}. */
  public void awaitRolledUp(String key) {
    Instant written = Instant.now();
    Await.until("rolled up", DEADLINE, () -> {
      HttpResponse<Buffer> r = app.get("/api/v1/reports/funnel", key);
      return r.statusCode() == 200 && Instant.parse(r.bodyAsJsonObject().getJsonObject("data")
          .getString("rolled_up_to")).isAfter(written);
    });
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



  /**
   * spring (campaign 111): clicks s1 (ad 333), s2 (ad 334); /start by 1001 (s1) and 1002 (s2); 1001 joins the
   * channel through s1's link and leaves it; REG by both; FTD 100 USD (1001), FTD of 1002 pending at 50 EUR then
   * approved at 60 EUR (63.00 USD); DEP 20 USDT (1001). autumn (campaign 999): click s3, a join request by 1003
   * through s3's link, FTD 10 GBP (12.35 USD). All clicks from DE.
   */
  private void build() {
    String meta = "https://pre.example/?utm_source=fb&utm_campaign=spring&campaign_id=111&adset_id=222";
    capture("s1", meta + "&ad_id=333&placement=Instagram_Stories");
    capture("s2", meta + "&ad_id=334&placement=Facebook_Mobile_Feed");
    capture("s3", "https://pre.example/?utm_source=tt&utm_campaign=autumn&campaign_id=999&adgroup_id=888"
        + "&ad_id=__CID__");
    update(TelegramUpdates.start(1001, "s1"));
    update(TelegramUpdates.start(1002, "s2"));
    update(member(CHANNEL, 1001, "left", "member", link("s1", false)));
    update(new JsonObject().put("chat_join_request", new JsonObject().put("chat", chat(CHANNEL)).put("from", user(1003))
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
    update(member(CHANNEL, 1001, "member", "left", null));
    // Everything is in once the rollups reach past the last write.
    awaitRolledUp(KEY_A);
  }
}
