package dev.eventrouter.alert;

import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.forward.ForwardingTestConfig;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.FakeAdNetworks.Reply;
import dev.eventrouter.support.FakeMetaInsights;
import dev.eventrouter.support.FakeTelegram;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each alert condition played out against the real service and PostgreSQL: a fake Bot API receives the Telegram
 * messages, a webhook receiver the signed alerts, fake Meta and TikTok servers make the integrations' troubles.
 * Rounds every 100 ms and periods of seconds, so grouping and resolving play out within a test.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AlertsTest {

  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final String HOOK_SECRET = "alert-hook-secret-0123456789";
  private static final String CHAT = "-1001234567890";
  private static final String POSTBACK_TOKEN = "casino-postback-token-0123456789";
  private static final String EMAIL = "alice.alert@example.com";

  /** A webhook alert as received: its raw body, parsed, and its headers. */
  private record Hook(String raw, JsonObject body, MultiMap headers) {}

  private Vertx vertx;
  private FakeAdNetworks fake;
  private FakeTelegram telegram;
  private HttpServer receiver;
  private final List<Hook> hooks = new CopyOnWriteArrayList<>();
  private String databaseUrl;
  private TestApp app;
  private LiveConfig live;

  @BeforeAll
  void startFakes(Vertx vertx) {
    this.vertx = vertx;
    fake = FakeAdNetworks.start(vertx);
    telegram = FakeTelegram.start(vertx);
    receiver = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      hooks.add(new Hook(body.toString(), body.toJsonObject(), MultiMap.caseInsensitiveMultiMap()
          .addAll(request.headers())));
      request.response().setStatusCode(204).end();
    })).listen(0, "127.0.0.1").await();
    databaseUrl = TestDatabase.freshDatabaseUrl();
  }

  @AfterAll
  void stopFakes() {
    fake.stop();
    telegram.close();
    receiver.close().await();
  }

  /** Stops the service before emptying its tables (a running forwarder's locks can deadlock with TRUNCATE's). */
  @AfterEach
  void stopService() {
    try {
      if (app != null) {
        app.close();
        TestApp.truncate(databaseUrl);
      }
    } finally {
      app = null;
      fake.reset();
      telegram.reset();
      hooks.clear();
    }
  }

  /**
   * The forwarding test config with WS_A alerting a Telegram chat (through a bot of the alerts' own) and a webhook,
   * every condition on, a summary period of 3 s and the given changes to its alerts.
   */
  private JsonObject config(Consumer<JsonObject> alertChanges, JsonObject... metaOverrides) {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl(), metaOverrides);
    config.put("alerts", new JsonObject().put("check_every_ms", 100));
    JsonObject alerts = new JsonObject()
        .put("targets", new JsonArray()
            .add(new JsonObject().put("type", "telegram").put("chat_id", CHAT).put("bot_token", FakeTelegram.TOKEN)
                .put("api_base", telegram.baseUrl()))
            .add(new JsonObject().put("type", "webhook").put("url", "http://127.0.0.1:" + receiver.actualPort()
                + "/alerts").put("secret", HOOK_SECRET).put("allow_private_network", true)))
        .put("summary_minutes", 0.05);
    alertChanges.accept(alerts);
    config.getJsonArray("workspaces").getJsonObject(0).put("alerts", alerts);
    return config;
  }

  private void start(JsonObject config) {
    live = new LiveConfig(new ConfigLoader(Map.of()).resolve(config));
    app = TestApp.start(vertx, live);
  }

  private String post(String eventName, long telegramId) {
    var response = app.postEvent(KEY_A, new JsonObject().put("event_name", eventName).put("telegram_id", telegramId)
        .put("workspace_id", WS_A).put("user_data", new JsonObject().put("email", EMAIL)));
    assertThat(response.statusCode()).isEqualTo(200);
    return response.bodyAsJsonObject().getJsonObject("data").getString("event_id");
  }

  /** Waits for n sendMessage calls (each sent, unless the fake was told to refuse it), and returns their texts. */
  private List<String> messages(int n) {
    Await.until(n + " alert messages", DEADLINE, () -> telegram.messages().size() >= n);
    return telegram.messages();
  }

  private List<Hook> hooks(int n) {
    Await.until(n + " webhook alerts", DEADLINE, () -> hooks.size() >= n);
    return List.copyOf(hooks);
  }

  private static void noSecrets(String text) {
    assertThat(text).doesNotContain("expired-token").doesNotContain(FakeAdNetworks.META_TOKEN)
        .doesNotContain(FakeTelegram.TOKEN).doesNotContain(HOOK_SECRET).doesNotContain(EMAIL)
        .doesNotContain("alice");
  }

  @Test
  @DisplayName("a token Meta refuses pauses its integration: both targets hear it at once in Meta's words, without "
      + "the token; a new token resumes it and both hear that; the webhook's alerts are signed")
  void pausedAndResumed() {
    start(config(alerts -> { }, new JsonObject().put("access_token", "expired-token")));
    post("REG", 101);

    String alert = messages(1).get(0);
    assertThat(alert).startsWith("[ws-1] ALERT: meta/meta-main is paused: the network refused its token or "
        + "permissions (meta HTTP 400 code 190: Invalid OAuth access token");
    noSecrets(alert);
    assertThat(telegram.calls("sendMessage").get(0).body().getLong("chat_id")).isEqualTo(Long.parseLong(CHAT));
    assertThat(telegram.calls("sendMessage").get(0).token()).isEqualTo(FakeTelegram.TOKEN);

    live.replace(new ConfigLoader(Map.of()).resolve(config(alerts -> { })));
    assertThat(messages(2).get(1)).isEqualTo("[ws-1] RESOLVED: meta/meta-main resumed: its held deliveries go out "
        + "now.");

    List<Hook> received = hooks(2);
    assertThat(received).extracting(h -> h.body().getString("kind")).containsExactly("firing", "resolved");
    Hook first = received.get(0);
    assertThat(first.body().getString("condition")).isEqualTo("integration_paused");
    assertThat(first.body().getString("subject")).isEqualTo("meta/meta-main");
    assertThat(first.body().getString("workspace_id")).isEqualTo(WS_A);
    assertThat(first.body().getString("text")).isEqualTo(alert);
    assertThat(first.headers().get("X-Event-Router-Signature")).isEqualTo("sha256=" + Sha256.hmacHex(HOOK_SECRET,
        first.raw().getBytes(StandardCharsets.UTF_8)));
    assertThat(first.headers().get("X-Event-Router-Alert-Id")).isEqualTo(first.body().getString("alert_id"));
    noSecrets(first.raw());
    Await.until("the held event delivered", DEADLINE, () -> fake.accepted("meta").size() == 1);
  }

  @Test
  @DisplayName("an integration paused by hand raises no alert (the audit log has it); one the network pauses does")
  void pausedByHand() {
    JsonObject config = config(alerts -> { });
    config.getJsonArray("workspaces").getJsonObject(0).getJsonArray("integrations").getJsonObject(1)
        .put("access_token", "expired-token");
    start(config);
    assertThat(app.postJson("/api/v1/integrations/meta-main/pause", KEY_A, new JsonObject()).statusCode())
        .isEqualTo(200);
    post("REG", 102);
    assertThat(messages(1).get(0)).startsWith("[ws-1] ALERT: tiktok/tiktok-main is paused");
    assertThat(telegram.messages()).noneMatch(text -> text.contains("meta-main"));
  }

  @Test
  @DisplayName("a cost source whose token Meta refuses is told at once in Meta's words, without the token; a new "
      + "token resumes it, and that is told too")
  void costSourcePaused() {
    FakeMetaInsights insights = FakeMetaInsights.start(vertx, "55", "UTC", "USD");
    try {
      insights.script().revokeToken();
      JsonObject source = new JsonObject().put("id", "fb-spend").put("type", "meta").put("ad_account_id", "55")
          .put("access_token", FakeMetaInsights.TOKEN).put("api_base", insights.baseUrl())
          .put("allow_private_network", true);
      JsonObject config = config(alerts -> alerts.put("integration_paused", false));
      config.getJsonArray("workspaces").getJsonObject(0).put("cost_sources", new JsonArray().add(source));
      start(config);
      String alert = messages(1).get(0);
      assertThat(alert).isEqualTo("[ws-1] ALERT: cost source fb-spend: its ad spend is not imported (Meta error "
          + "190: Error validating access token: The session has been invalidated because the user changed their "
          + "password or Facebook has changed the session for security reasons.). A refused token pauses it until "
          + "its access_token is changed; anything else is tried again.");
      assertThat(alert).doesNotContain(FakeMetaInsights.TOKEN);
      insights.resetToken("meta-token-new-77");
      config.getJsonArray("workspaces").getJsonObject(0).getJsonArray("cost_sources").getJsonObject(0)
          .put("access_token", "meta-token-new-77");
      live.replace(new ConfigLoader(Map.of()).resolve(config));
      assertThat(messages(2).get(1)).isEqualTo("[ws-1] RESOLVED: cost source fb-spend: its ad spend is imported "
          + "again.");
    } finally {
      insights.close();
    }
  }

  @Test
  @DisplayName("failed deliveries alert at once with their count and the network's error; more within the period "
      + "come as one summary; once none failed within the window, resolved")
  void deliveriesFailedGrouped() {
    fake.scriptMeta(body -> Reply.of(400, FakeAdNetworks.metaError(100, null, "Invalid parameter")));
    start(config(alerts -> alerts.put("deliveries_failed", new JsonObject().put("window_minutes", 0.1))
        .put("integration_paused", false)));
    post("REG", 201);

    String first = messages(1).get(0);
    assertThat(first).isEqualTo("[ws-1] ALERT: meta/meta-main: failed or expired deliveries in the last 6 s: 1. "
        + "Last error: meta HTTP 400 code 100: Invalid parameter");
    post("REG", 202);
    post("REG", 203);

    List<String> all = messages(3);
    assertThat(all.get(1)).startsWith("[ws-1] SUMMARY: 2 more since the last message. Now: meta/meta-main: failed "
        + "or expired deliveries");
    assertThat(all.get(2)).isEqualTo("[ws-1] RESOLVED: meta/meta-main: no failed delivery in the last 6 s.");
    assertThat(fake.accepted("tiktok")).as("TikTok delivered all the while").hasSize(3);
    assertThat(hooks(3)).extracting(h -> h.body().getString("kind")).containsExactly("firing", "summary",
        "resolved");
  }

  @Test
  @DisplayName("a breaker open longer than its threshold alerts with the last failure; closed again, resolved")
  void breakerOpenTooLong() {
    fake.scriptMeta(body -> Reply.of(503, new JsonObject().put("error", new JsonObject()
        .put("message", "Service temporarily unavailable").put("code", 2))));
    start(config(alerts -> alerts.put("breaker_open", new JsonObject().put("minutes", 0.02))));
    for (int i = 0; i < 4; i++) {
      post("REG", 300 + i);
    }

    String alert = messages(1).get(0);
    assertThat(alert).startsWith("[ws-1] ALERT: meta/meta-main: circuit breaker open for over 1 s, its deliveries "
        + "wait. Last failure: ").contains("Service temporarily unavailable");

    fake.scriptMeta(body -> null);
    Await.until("the waiting events delivered", DEADLINE, () -> fake.accepted("meta").size() == 4);
    assertThat(messages(2).get(1)).isEqualTo("[ws-1] RESOLVED: meta/meta-main: circuit breaker closed, "
        + "deliveries go out again.");
  }

  @Test
  @DisplayName("no conversion for the hours whose same hours had some on each of the previous days alerts; the next "
      + "event resolves it")
  void conversionsStopped() {
    start(config(alerts -> alerts.put("conversions_stopped", new JsonObject().put("hours", 1).put("days", 7))));
    Instant now = Instant.now();
    for (int day = 1; day <= 7; day++) {
      // The same hour on each of the 7 days before, as the events table keeps them (the id holds the time).
      long id = EventIds.firstIdAt(now.minus(Duration.ofDays(day)).minus(Duration.ofMinutes(30))) + day;
      app.rows("INSERT INTO events (event_id, workspace_id, event_name, telegram_id, session_source, currency, status,"
          + " received_at) VALUES ($1, $2::uuid, 'FTD', $3, 'none', 'USD', 'processed', now())", id, WS_A,
          (long) day);
    }

    assertThat(messages(1).get(0)).isEqualTo("[ws-1] ALERT: no conversions in the last 1 h, though the same hours "
        + "had some on the days before.");
    post("REG", 401);
    assertThat(messages(2).get(1)).isEqualTo("[ws-1] RESOLVED: conversions are coming in again.");
  }

  @Test
  @DisplayName("yesterday Meta counted under 80% of the conversions delivered to it for its ads: alerted with both "
      + "counts; a count of its own for today's yesterday would resolve it")
  void networkUndercounts() {
    start(config(alerts -> alerts.put("network_undercounts", new JsonObject().put("min_delivered", 20))));
    LocalDate yesterday = LocalDate.now(ZoneOffset.UTC).minusDays(1);
    app.rows("INSERT INTO cost_sources (workspace_id, source_id, kind, account_zone) VALUES ($1::uuid, 'fb', 'meta', "
        + "'UTC')", WS_A);
    app.rows("""
        INSERT INTO ad_spend (workspace_id, source_id, level, object_id, day, zone, currency, spend, actions)
        VALUES ($1::uuid, 'fb', 'ad', '611', $2, 'UTC', 'USD', 10,
                '{"offsite_conversion.fb_pixel_purchase": 5, "offsite_conversion.fb_pixel_lead": 4}')""",
        WS_A, yesterday);
    // 30 purchases and 4 leads delivered for ad 611, and 50 leads of no ad (not set beside any ad's count).
    for (Object[] sent : new Object[][] {{"611", "Purchase", 30}, {"611", "Lead", 4}, {"", "Lead", 50}}) {
      app.rows("""
          INSERT INTO delivered_counts (workspace_id, hour, network, integration_id, campaign_id, adset_id, ad_id,
                                        mapped_event, n)
          VALUES ($1::uuid, $2, 'meta', 'meta-main', '', '', $3, $4, $5)""",
          WS_A, yesterday.atTime(12, 0).atOffset(ZoneOffset.UTC), sent[0], sent[1], sent[2]);
    }
    assertThat(messages(1).get(0)).isEqualTo("[ws-1] ALERT: meta: yesterday the network counted 9 of the 34 "
        + "conversions delivered to it for its ads on " + yesterday + " (26%, under 80%). Check the pixel, its token "
        + "and the event mapping: the Reconcile view shows which ads.");
    app.rows("UPDATE ad_spend SET actions = '{\"offsite_conversion.fb_pixel_purchase\": 30, "
        + "\"offsite_conversion.fb_pixel_lead\": 4}'");
    assertThat(messages(2).get(1)).isEqualTo("[ws-1] RESOLVED: meta: the network's count of yesterday is back above "
        + "the threshold.");
  }

  @Test
  @DisplayName("a parameter name planted by a caller is quoted as a name: no line of its own, no link in the chat")
  void plantedParameterName() {
    JsonObject config = config(alerts -> { });
    config.getJsonArray("workspaces").getJsonObject(0).put("postback_sources", new JsonArray().add(new JsonObject()
        .put("id", "casino").put("token", ApiKeys.configValue(POSTBACK_TOKEN))));
    start(config);
    assertThat(app.get("/api/v1/postbacks/" + POSTBACK_TOKEN + "?subid=ses_1&goal=reg"
        + "&x%0A%5Bws-1%5D+RESOLVED%3A+log+in+at+http%3A%2F%2Fevil.example%2Fa={x}", null).statusCode())
        .isEqualTo(400);
    assertThat(messages(1).get(0)).isEqualTo("[ws-1] ALERT: postback source casino: postbacks in the last 1 h with "
        + "an unexpanded macro (parameter x?[ws-1]?RESOLVED??log?in?at?http???evil.example?a holds an unexpanded "
        + "macro): 1. Check the postback URL in the partner's settings.");
    assertThat(hooks(1).get(0).body().getString("text")).doesNotContain("\n").doesNotContain("http://");
  }

  @Test
  @DisplayName("a postback that matches nothing and one with an unexpanded macro each alert, naming the source and "
      + "the parameter")
  void postbacks() {
    JsonObject config = config(alerts -> { });
    config.getJsonArray("workspaces").getJsonObject(0).put("postback_sources", new JsonArray().add(new JsonObject()
        .put("id", "casino").put("token", ApiKeys.configValue(POSTBACK_TOKEN))
        .put("macros", new JsonObject().put("click_id", "{subid}").put("event", "{goal}"))));
    start(config);
    String base = "/api/v1/postbacks/" + POSTBACK_TOKEN;

    var unmatched = app.get(base + "?subid=ses_unknown&goal=reg", null);
    assertThat(unmatched.statusCode()).as(unmatched.bodyAsString()).isEqualTo(200);
    assertThat(messages(1).get(0)).isEqualTo("[ws-1] ALERT: postback source casino: postbacks in the last 1 h that "
        + "matched no session or conversion: 1.");
    assertThat(app.get(base + "?subid=%7Bsubid%7D&goal=reg", null).statusCode()).isEqualTo(400);
    assertThat(messages(2).get(1)).isEqualTo("[ws-1] ALERT: postback source casino: postbacks in the last 1 h with "
        + "an unexpanded macro (parameter subid holds an unexpanded macro): 1. Check the postback URL in the "
        + "partner's settings.");
  }

  @Test
  @DisplayName("a channel whose invite links Telegram will not make alerts in Telegram's words once its pool stayed "
      + "empty; made again, resolved")
  void invitePoolEmpty() {
    JsonObject config = config(alerts -> alerts.put("invite_pool_empty", new JsonObject().put("minutes", 0.02)));
    config.getJsonArray("workspaces").getJsonObject(0).put("telegram", new JsonObject()
        .put("webhook_secret", "w".repeat(20)).put("bot_token", FakeTelegram.TOKEN).put("channel_id", -1009876543210L)
        .put("api_base", telegram.baseUrl()).put("invite_link_pool", 2));
    telegram.failNext("createChatInviteLink", 429, "Too Many Requests: retry after 2", 2);
    start(config);

    String alert = messages(1).get(0);
    assertThat(alert).startsWith("[ws-1] ALERT: channel -1009876543210: no per-visitor invite link left for over "
        + "1 s").endsWith("Telegram: createChatInviteLink: 429 Too Many Requests: retry after 2");
    assertThat(messages(2).get(1)).isEqualTo("[ws-1] RESOLVED: channel -1009876543210: per-visitor invite links "
        + "are made again.");
  }

  @Test
  @DisplayName("a failing target is retried on its own, logged once and counted, and holds up neither the deliveries "
      + "nor the other target")
  void failingTargetIsolated() {
    for (int i = 0; i < 3; i++) {
      telegram.failNext("sendMessage", 502, "Bad Gateway", null);
    }
    LogCapture logs = LogCapture.start();
    try {
      start(config(alerts -> { }, new JsonObject().put("access_token", "expired-token")));
      post("REG", 501);

      assertThat(hooks(1).get(0).body().getString("kind")).as("the webhook did not wait").isEqualTo("firing");
      assertThat(fake.accepted("tiktok")).as("deliveries went on").hasSize(1);
      List<String> attempts = messages(4);
      assertThat(attempts).as("three refused, the fourth sent, each the same alert").hasSize(4).containsOnly(
          attempts.get(0)).allSatisfy(text -> assertThat(text).startsWith("[ws-1] ALERT: meta/meta-main is paused"));
      assertThat(logs.text().split("to telegram:" + CHAT + " failed", -1)).as("logged once").hasSize(2);
      Await.until("the recovery logged", DEADLINE, () -> logs.text().contains("reach telegram:" + CHAT + " again"));
      assertThat(app.metrics()).contains("event_router_alerts_sent_total{outcome=\"retried\",target=\"telegram\"} 3.0")
          .contains("event_router_alerts_sent_total{outcome=\"sent\",target=\"telegram\"} 1.0")
          .contains("event_router_alerts_sent_total{outcome=\"sent\",target=\"webhook\"} 1.0");
      noSecrets(logs.text().substring(logs.text().indexOf("to telegram:")));
    } finally {
      logs.stop();
    }
  }
}
