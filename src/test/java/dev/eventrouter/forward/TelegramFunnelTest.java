package dev.eventrouter.forward;

import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.store.TelegramStore;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeTelegram;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.TestApp;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Telegram connector end to end with no advertiser code, on a real PostgreSQL, the fake networks and a fake Bot
 * API (which also plays the bot's own backend): per-visitor invite links made ahead and handed to captures, join
 * requests through them attributed, approved and delivered with the click's ids, every update passed through, and
 * the Bot API's refusals (429 with retry_after, 403) never failing a capture.
 */
class TelegramFunnelTest extends FakeNetworksTest {

  private static final String SECRET = "tg-secret-0123456789abcdef";
  private static final String BACKEND_SECRET = "bots-own-secret-0123456789";
  private static final long CHANNEL = -1001234567890L;

  private FakeTelegram telegram;

  @BeforeEach
  void startTelegram() {
    telegram = FakeTelegram.start(vertx);
  }

  private void start(int pool) {
    start(pool, CHANNEL);
  }

  /**
   * With a channel of its own, a test's refusals (a rest of up to a minute, kept in the test's Vert.x across its
   * service restarts, for that bot and channel) hold up no other test.
   */
  private void start(int pool, Object channel) {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
    config.getJsonArray("workspaces").getJsonObject(0).put("telegram", new JsonObject()
        .put("webhook_secret", SECRET).put("bot_token", FakeTelegram.TOKEN).put("channel_id", channel)
        .put("invite_link_pool", pool).put("approve_join_requests", true).put("api_base", telegram.baseUrl())
        .put("pass_through", new JsonObject().put("url", telegram.backendUrl()).put("secret_token", BACKEND_SECRET)
            .put("allow_private_network", true)));
    app = TestApp.start(vertx, config);
  }

  /** The receiver alone: no bot token, no links, no pass-through. */
  private void startReceiverOnly() {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
    config.getJsonArray("workspaces").getJsonObject(0).put("telegram", new JsonObject()
        .put("webhook_secret", SECRET));
    app = TestApp.start(vertx, config);
  }

  private HttpResponse<Buffer> update(JsonObject update) {
    return app.post("/telegram/" + WS_A + "/webhook", MultiMap.caseInsensitiveMultiMap()
        .add("Content-Type", "application/json").add("X-Telegram-Bot-Api-Secret-Token", SECRET), update.toBuffer());
  }

  private JsonObject capture(JsonObject click) {
    HttpResponse<Buffer> response = app.postJson("/api/v1/sessions", KEY_A, click.put("workspace_id", WS_A));
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    return response.bodyAsJsonObject().getJsonObject("data");
  }

  private long freeLinks() {
    return app.rows("SELECT count(*) AS n FROM telegram_invite_links WHERE session_id IS NULL").get(0).getLong("n");
  }

  private String outboxStatus(long updateId, String kind) {
    var rows = app.rows("SELECT status FROM telegram_outbox WHERE update_id = $1 AND kind = $2", updateId, kind);
    return rows.isEmpty() ? null : rows.get(0).getString("status");
  }

  /** The join's event reached both networks as a lead, with the click's ids. */
  private void assertJoinDelivered(String eventId, String fbclid, String ttclid) {
    Await.until("delivered to both", DEADLINE, () -> count("meta", "delivered") == 1
        && count("tiktok", "delivered") == 1);
    JsonObject meta = fake.lastEvent("meta", eventId);
    assertThat(meta.getString("event_name")).isEqualTo("Lead");
    assertThat(meta.getJsonObject("user_data").getString("fbc")).endsWith("." + fbclid);
    JsonObject tiktok = fake.lastEvent("tiktok", eventId);
    assertThat(tiktok.getString("event")).isEqualTo("SubmitForm");
    assertThat(tiktok.getJsonObject("user").getString("ttclid")).isEqualTo(ttclid);
  }

  private static JsonObject joinRequest(long updateId, long user, String link) {
    return joinRequest(updateId, user, link, "event-router");
  }

  private static JsonObject joinRequest(long updateId, long user, String link, String name) {
    return new JsonObject().put("update_id", updateId).put("chat_join_request", new JsonObject()
        .put("chat", new JsonObject().put("id", CHANNEL).put("title", "Signals").put("type", "channel"))
        .put("from", new JsonObject().put("id", user).put("is_bot", false).put("first_name", "Ann"))
        .put("user_chat_id", user).put("date", 1795406060)
        .put("invite_link", new JsonObject().put("invite_link", link).put("name", name)
            .put("creator", new JsonObject().put("id", 123456789).put("is_bot", true).put("first_name", "Bot"))
            .put("creates_join_request", true).put("is_primary", false).put("is_revoked", false)));
  }

  /** A chat_member update: the user became a member through {@code link}. */
  private static JsonObject memberJoined(long updateId, long user, JsonObject link) {
    return new JsonObject().put("update_id", updateId).put("chat_member", new JsonObject()
        .put("chat", new JsonObject().put("id", CHANNEL).put("title", "Signals").put("type", "channel"))
        .put("from", new JsonObject().put("id", user).put("is_bot", false).put("first_name", "Ann"))
        .put("date", 1795406080)
        .put("old_chat_member", new JsonObject().put("status", "left").put("user", new JsonObject().put("id", user)))
        .put("new_chat_member", new JsonObject().put("status", "member").put("user", new JsonObject().put("id", user)))
        .put("invite_link", link));
  }

  private static JsonObject start(long updateId, long user, String payload) {
    return new JsonObject().put("update_id", updateId).put("message", new JsonObject().put("message_id", 7)
        .put("from", new JsonObject().put("id", user).put("is_bot", false).put("first_name", "Bo"))
        .put("chat", new JsonObject().put("id", user).put("type", "private")).put("date", 1795406070)
        .put("text", "/start " + payload));
  }

  @Test
  @DisplayName("the whole funnel: click with its own invite link, join request through it delivered with the click "
      + "ids and approved, /start then an FTD without session_id resolving to the deep link's session")
  void wholeFunnel() {
    start(2);
    Await.until("the pool made ahead", DEADLINE, () -> freeLinks() == 2);
    JsonObject click = capture(new JsonObject().put("fbclid", "IwAR-funnel").put("ttclid", "E.C.P.funnel"));
    String session = click.getString("session_id");
    String link = click.getString("invite_link");
    assertThat(link).startsWith("https://t.me/+FakeLink");
    assertThat(click.getString("start_link")).isEqualTo("https://t.me/" + TestApp.BOT_A + "?start=" + session);
    assertThat(capture(new JsonObject().put("session_id", session)).getString("invite_link"))
        .as("the same session again: the same link").isEqualTo(link);
    Await.until("the pool refilled", DEADLINE, () -> freeLinks() == 2);
    JsonObject made = telegram.calls("createChatInviteLink").get(0).body().copy();
    long window = Duration.ofDays(WorkspaceConfig.DEFAULT_ATTRIBUTION_WINDOW_DAYS).toSeconds();
    assertThat(((Number) made.remove("expire_date")).longValue()).as("expires with the attribution window")
        .isBetween(Instant.now().getEpochSecond() + window - 60, Instant.now().getEpochSecond() + window);
    assertThat(made).isEqualTo(new JsonObject().put("chat_id", CHANNEL).put("name", "event-router")
        .put("creates_join_request", true));

    JsonObject join = joinRequest(900, 4242, link);
    HttpResponse<Buffer> joined = update(join);
    assertThat(joined.statusCode()).as(joined.bodyAsString()).isEqualTo(200);
    JsonObject data = joined.bodyAsJsonObject().getJsonObject("data");
    assertThat(data.getString("session_id")).isEqualTo(session);
    String eventId = data.getString("event_id");
    assertThat(update(join).bodyAsJsonObject().getJsonObject("data").getString("event_id"))
        .as("Telegram sending it again: the same event").isEqualTo(eventId);

    assertJoinDelivered(eventId, "IwAR-funnel", "E.C.P.funnel");

    Await.until("approved", DEADLINE, () -> "delivered".equals(outboxStatus(900, "approve")));
    assertThat(telegram.calls("approveChatJoinRequest")).extracting(FakeTelegram.Call::body)
        .containsExactly(new JsonObject().put("chat_id", CHANNEL).put("user_id", 4242));
    // Once approved, Telegram tells of the join itself, naming the same link: the request was the conversion.
    JsonObject member = memberJoined(902, 4242, join.getJsonObject("chat_join_request").getJsonObject("invite_link"));
    JsonObject approvedJoin = update(member).bodyAsJsonObject().getJsonObject("data");
    assertThat(approvedJoin.getValue("event_id")).as("the join step of the funnel alone").isNull();
    assertThat(app.count("events")).as("one JoinRequest for one join").isEqualTo(1);
    assertThat(app.rows("SELECT via FROM invite_sessions WHERE telegram_id = 4242 ORDER BY via"))
        .extracting(row -> row.getString("via")).containsExactly("join", "join_request");

    HttpResponse<Buffer> started = update(start(901, 5151, session));
    assertThat(started.statusCode()).as(started.bodyAsString()).isEqualTo(200);
    JsonObject deposit = app.postEvent(KEY_A, new JsonObject().put("workspace_id", WS_A).put("event_name", "FTD")
        .put("telegram_id", 5151).put("value", 30).put("currency", "USD")).bodyAsJsonObject().getJsonObject("data");
    assertThat(deposit.getString("session_id")).isEqualTo(session);

    Await.until("the updates passed through", DEADLINE, () -> telegram.passed().size() == 3);
    assertThat(telegram.passed()).extracting(FakeTelegram.Passed::update)
        .as("unchanged, each once").containsExactlyInAnyOrder(join, member, start(901, 5151, session));
    assertThat(telegram.passed()).extracting(FakeTelegram.Passed::secretHeader)
        .as("the backend's own secret, not the receiver's").containsOnly(BACKEND_SECRET);
    Await.until("both counted", DEADLINE, () -> app.metrics()
        .contains("event_router_telegram_jobs_total{kind=\"pass_through\",outcome=\"delivered\"} 3.0"));
    assertThat(app.metrics())
        .contains("event_router_telegram_jobs_total{kind=\"approve\",outcome=\"delivered\"} 1.0")
        .contains("event_router_telegram_invite_links_total{outcome=\"made\",workspace=\"" + WS_A + "\"} "
            + app.count("telegram_invite_links") + ".0");
  }

  @Test
  @DisplayName("a subscriber who joined through their own link and leaves within the unsubscribe window: the "
      + "JoinRequest turns rejected (left_channel), the webhook is told, Meta and TikTok are not sent it again")
  void unsubscribe() {
    List<JsonObject> hooked = new CopyOnWriteArrayList<>();
    HttpServer tracker = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      hooked.add(body.toJsonObject().put("uri", request.uri()));
      request.response().end();
    })).listen(0, "127.0.0.1").await();
    try {
      JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
      JsonObject workspace = config.getJsonArray("workspaces").getJsonObject(0);
      workspace.put("telegram", new JsonObject().put("webhook_secret", SECRET).put("bot_token", FakeTelegram.TOKEN)
          .put("channel_id", -1009990001L).put("invite_link_pool", 1).put("api_base", telegram.baseUrl()));
      workspace.getJsonArray("integrations").add(new JsonObject().put("id", "cpa").put("type", "webhook")
          .put("url", "http://127.0.0.1:" + tracker.actualPort() + "/sub?status={status}&was={previous_status}")
          .put("secret", "whsec-unsubscribe-0123456789").put("allow_private_network", true));
      app = TestApp.start(vertx, config);
      Await.until("the pool made ahead", DEADLINE, () -> freeLinks() == 1);
      String link = capture(new JsonObject().put("fbclid", "IwAR-unsub")).getString("invite_link");
      JsonObject join = joinRequest(950, 6161, link);
      join.getJsonObject("chat_join_request").getJsonObject("chat").put("id", -1009990001L);
      String eventId = update(join).bodyAsJsonObject().getJsonObject("data").getString("event_id");
      Await.until("delivered to all three", DEADLINE, () -> count("meta", "delivered") == 1
          && count("tiktok", "delivered") == 1 && hooked.size() == 1);

      JsonObject left = new JsonObject().put("update_id", 951).put("chat_member", new JsonObject()
          .put("chat", new JsonObject().put("id", -1009990001L).put("type", "channel"))
          .put("from", new JsonObject().put("id", 6161).put("is_bot", false).put("first_name", "Ann"))
          .put("date", 1795406099)
          .put("old_chat_member", new JsonObject().put("status", "member").put("user", new JsonObject().put("id", 6161)))
          .put("new_chat_member", new JsonObject().put("status", "left").put("user", new JsonObject().put("id", 6161))));
      assertThat(update(left).statusCode()).isEqualTo(200);

      Await.until("the webhook told", DEADLINE, () -> hooked.size() == 2);
      assertThat(hooked.get(1).getString("uri")).isEqualTo("/sub?status=rejected&was=approved");
      JsonObject event = app.get("/api/v1/events/" + eventId, KEY_A).bodyAsJsonObject().getJsonObject("data");
      assertThat(event.getString("conversion_status")).isEqualTo("rejected");
      JsonObject change = event.getJsonArray("status_history").getJsonObject(1);
      assertThat(change.getString("reason")).isEqualTo("left_channel");
      assertThat(change.getString("origin")).isEqualTo("telegram");
      assertThat(count("meta", "delivered") + count("meta", "pending")).as("Meta: still the one delivery")
          .isEqualTo(1);
    } finally {
      tracker.close().await();
    }
  }

  @Test
  @DisplayName("receiver alone: a join through a link you named er:<session> is a JoinRequest with the click's ids, "
      + "once; nothing is passed through or approved")
  void namedLink() {
    startReceiverOnly();
    capture(new JsonObject().put("session_id", "clicksess1").put("fbclid", "IwAR-tg").put("ttclid", "E.C.P.tg"));
    JsonObject join = joinRequest(700, 4242, "https://t.me/+Xyz", "er:clicksess1");

    HttpResponse<Buffer> first = update(join);
    assertThat(first.statusCode()).as(first.bodyAsString()).isEqualTo(200);
    String eventId = first.bodyAsJsonObject().getJsonObject("data").getString("event_id");
    assertThat(update(join).bodyAsJsonObject().getJsonObject("data").getString("event_id"))
        .as("Telegram sending it again: the same event").isEqualTo(eventId);
    assertThat(app.count("events")).isEqualTo(1);
    assertJoinDelivered(eventId, "IwAR-tg", "E.C.P.tg");
    assertThat(app.rows("SELECT invite_link FROM invite_sessions WHERE telegram_id = 4242").get(0)
        .getString("invite_link")).isEqualTo("https://t.me/+Xyz");
    assertThat(app.count("telegram_outbox")).isZero();
  }

  @Test
  @DisplayName("receiver alone: /start <session> with no start_event records no event, and a later FTD without "
      + "session_id resolves to that session through the invite source")
  void startThenDeposit() {
    startReceiverOnly();
    HttpResponse<Buffer> started = update(start(701, 5151, "deeplink_s2"));
    assertThat(started.statusCode()).as(started.bodyAsString()).isEqualTo(200);
    assertThat(started.bodyAsJsonObject().getJsonObject("data").getValue("event_id")).as("no start_event").isNull();

    JsonObject deposit = app.postEvent(KEY_A, new JsonObject().put("workspace_id", WS_A).put("event_name", "FTD")
        .put("telegram_id", 5151).put("value", 30).put("currency", "USD")).bodyAsJsonObject().getJsonObject("data");
    assertThat(deposit.getString("session_id")).isEqualTo("deeplink_s2");
    JsonObject status = app.get("/api/v1/events/" + deposit.getString("event_id"), KEY_A).bodyAsJsonObject()
        .getJsonObject("data");
    assertThat(status.getString("session_source")).isEqualTo("invite");
  }

  @Test
  @DisplayName("an update the receiver has no use for is passed through byte for byte: key order, spacing, numbers")
  void passedUnchanged() {
    start(1);
    String raw = "{ \"update_id\": 905,\n  \"poll\": {\"id\": \"5\", \"question\": \"Caf\u00e9?\", "
        + "\"total_voter_count\": 10, \"ratio\": 0.10, \"big\": 12345678901234567890}, \"a\": [] }";
    HttpResponse<Buffer> answer = app.post("/telegram/" + WS_A + "/webhook", MultiMap.caseInsensitiveMultiMap()
        .add("Content-Type", "application/json").add("X-Telegram-Bot-Api-Secret-Token", SECRET), Buffer.buffer(raw));
    assertThat(answer.statusCode()).as(answer.bodyAsString()).isEqualTo(200);
    Await.until("passed through", DEADLINE, () -> telegram.passed().size() == 1);
    assertThat(telegram.passed().get(0).raw()).isEqualTo(raw);

    // A user's message PostgreSQL could not hold as text, and a join through a link URL it could not hold: both
    // acknowledged and reach the backend as they came; nothing is recorded from them.
    String nul = "{\"update_id\":5001,\"message\":{\"message_id\":1,\"from\":{\"id\":77,\"is_bot\":false,"
        + "\"first_name\":\"Ann\"},\"chat\":{\"id\":77,\"type\":\"private\"},\"date\":1795406060,"
        + "\"text\":\"/start abc\\u0000 hello \\ud800 world\"}}";
    String join = joinRequest(5002, 78, "LINK").encode().replace("LINK", "https://t.me/+x\\u0000y");
    for (String update : List.of(nul, join)) {
      HttpResponse<Buffer> taken = app.post("/telegram/" + WS_A + "/webhook", MultiMap.caseInsensitiveMultiMap()
          .add("Content-Type", "application/json").add("X-Telegram-Bot-Api-Secret-Token", SECRET),
          Buffer.buffer(update));
      assertThat(taken.statusCode()).as(taken.bodyAsString()).isEqualTo(200);
    }
    Await.until("both passed through", DEADLINE, () -> telegram.passed().size() == 3);
    assertThat(telegram.passed().stream().map(FakeTelegram.Passed::raw)).contains(nul, join);
    assertThat(app.count("events")).isZero();
    assertThat(app.count("invite_sessions")).isZero();
  }

  @Test
  @DisplayName("a join request through a link that is no session's is passed through, not attributed or approved")
  void foreignLink() {
    start(1);
    HttpResponse<Buffer> response = update(joinRequest(910, 4343, "https://t.me/+AdminsOwnLink"));
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    assertThat(response.bodyAsJsonObject().getJsonObject("data").getBoolean("handled")).isFalse();
    Await.until("passed through", DEADLINE, () -> "delivered".equals(outboxStatus(910, "pass_through")));
    assertThat(outboxStatus(910, "approve")).isNull();
    assertThat(app.count("events")).isZero();
  }

  @Test
  @DisplayName("a join request to another chat of the bot, even through a session's link, is passed through, not "
      + "attributed or approved")
  void otherChat() {
    start(1);
    Await.until("the pool made ahead", DEADLINE, () -> freeLinks() == 1);
    String link = capture(new JsonObject().put("fbclid", "IwAR-other")).getString("invite_link");
    JsonObject join = joinRequest(920, 4444, link);
    join.getJsonObject("chat_join_request").getJsonObject("chat").put("id", -1009999999999L);
    HttpResponse<Buffer> response = update(join);
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    assertThat(response.bodyAsJsonObject().getJsonObject("data").getBoolean("handled")).isFalse();
    Await.until("passed through", DEADLINE, () -> "delivered".equals(outboxStatus(920, "pass_through")));
    assertThat(outboxStatus(920, "approve")).isNull();
    assertThat(app.count("events")).isZero();
    assertThat(app.count("invite_sessions")).isZero();
  }

  @Test
  @DisplayName("Bot API refusals: 429 waits retry_after, 403 is logged in Telegram's words without the token, and "
      + "captures answer without a link meanwhile")
  void refusals() {
    telegram.failNext("createChatInviteLink", 429, "Too Many Requests: retry after 1", 1);
    LogCapture logs = LogCapture.start();
    try {
      start(1, "@refused_channel");
      Await.until("the first try refused", DEADLINE, () -> telegram.calls("createChatInviteLink").size() == 1);
      JsonObject early = capture(new JsonObject().put("fbclid", "IwAR-early"));
      assertThat(early.getString("invite_link")).as("an empty pool: no link, the capture still stored").isNull();
      assertThat(early.getString("start_link")).endsWith("?start=" + early.getString("session_id"));
      Await.until("made after retry_after", DEADLINE, () -> {
        capture(new JsonObject());
        return app.count("telegram_invite_links") > 0;
      });
      assertThat(telegram.calls("createChatInviteLink")).hasSizeGreaterThanOrEqualTo(2);

      telegram.failNext("createChatInviteLink", 403, "Forbidden: bot is not a member of the channel chat", null);
      Await.until("the refusal logged", DEADLINE, () -> {
        capture(new JsonObject());
        return logs.text().contains("Forbidden: bot is not a member of the channel chat");
      });
      assertThat(logs.text()).contains("Too Many Requests: retry after 1").doesNotContain(FakeTelegram.TOKEN)
          .doesNotContain(FakeTelegram.TOKEN.split(":")[1]);
      assertThat(app.metrics())
          .contains("event_router_telegram_invite_links_total{outcome=\"refused\",workspace=\"" + WS_A + "\"} 2.0");
    } finally {
      logs.stop();
    }
  }

  @Test
  @DisplayName("after a 429, the pool is filled again when retry_after ends, with no capture to prompt it (not at the "
      + "next periodic check, 30 s later)")
  void retryAfterHonoured() {
    telegram.failNext("createChatInviteLink", 429, "Too Many Requests: retry after 1", 1);
    start(2, "@retry_channel");
    Await.until("refused once, then made", Duration.ofSeconds(15),
        () -> app.count("telegram_invite_links") == 2);
    assertThat(telegram.calls("createChatInviteLink")).hasSize(3);
  }

  @Test
  @DisplayName("pass-through and approvals are retried on 5xx and 429 (retry_after), failed on other refusals")
  void retries() {
    start(1);
    telegram.backendAnswers(503, 200, 400);
    telegram.failNext("approveChatJoinRequest", 429, "Too Many Requests: retry after 1", 1);
    Await.until("a link", DEADLINE, () -> freeLinks() == 1);
    String link = capture(new JsonObject()).getString("invite_link");
    assertThat(update(joinRequest(920, 6001, link)).statusCode()).isEqualTo(200);
    Await.until("passed on its second try", DEADLINE, () -> "delivered".equals(outboxStatus(920, "pass_through")));
    Await.until("approved after retry_after", DEADLINE, () -> "delivered".equals(outboxStatus(920, "approve")));
    assertThat(telegram.calls("approveChatJoinRequest")).hasSize(2);
    List<Long> attempts = app.rows("SELECT attempts FROM telegram_outbox WHERE update_id = 920 ORDER BY kind")
        .stream().map(row -> (long) row.getInteger("attempts")).toList();
    assertThat(attempts).as("approve, pass_through").containsExactly(2L, 2L);

    telegram.failNext("approveChatJoinRequest", 400, "Bad Request: USER_ALREADY_PARTICIPANT", null);
    Await.until("another link", DEADLINE, () -> freeLinks() == 1);
    String second = capture(new JsonObject()).getString("invite_link");
    assertThat(update(joinRequest(921, 6002, second)).statusCode()).isEqualTo(200);
    Await.until("the backend's 400 fails it", DEADLINE, () -> "failed".equals(outboxStatus(921, "pass_through")));
    Await.until("the approval refused for good", DEADLINE, () -> "failed".equals(outboxStatus(921, "approve")));
    assertThat(app.rows("SELECT last_error FROM telegram_outbox WHERE update_id = 921 ORDER BY kind")
        .stream().map(row -> row.getString("last_error")).toList())
        .containsExactly("approveChatJoinRequest: 400 Bad Request: USER_ALREADY_PARTICIPANT", "bot backend HTTP 400");
  }

  @Test
  @DisplayName("a job older than Telegram keeps an update (24 h) expires, one of a connector since removed fails; "
      + "neither is sent")
  void leftovers() {
    start(1);
    app.rows("INSERT INTO telegram_outbox (workspace_id, update_id, kind, body, received_at)"
        + " VALUES ($1, 930, 'pass_through', $2, now() - interval '25 hours') RETURNING update_id",
        UUID.fromString(WS_A), new JsonObject().put("update_id", 930).encode());
    app.rows("INSERT INTO telegram_outbox (workspace_id, update_id, kind, body)"
        + " VALUES ($1, 931, 'approve', $2) RETURNING update_id",
        UUID.fromString(TestApp.WS_B), new JsonObject().put("chat_id", CHANNEL).put("user_id", 7).encode());
    Await.until("both ended", DEADLINE, () -> "expired".equals(outboxStatus(930, "pass_through"))
        && "failed".equals(outboxStatus(931, "approve")));
    assertThat(app.rows("SELECT last_error FROM telegram_outbox WHERE update_id = 931").get(0).getString("last_error"))
        .isEqualTo("approve_join_requests is no longer configured");
    assertThat(telegram.passed()).isEmpty();
    assertThat(telegram.calls("approveChatJoinRequest")).isEmpty();
  }

  @Test
  @DisplayName("an outcome from a claim whose lease ran out and was claimed again changes nothing")
  void staleClaim() {
    // Ingest only: no TelegramVerticle of the service's own claims the job between the test's two claims.
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl()).put("roles", new JsonArray()
        .add("ingest"));
    app = TestApp.start(vertx, config);
    TelegramStore store = new TelegramStore(app.pool());
    UUID workspace = UUID.fromString(WS_A);
    Await.result(store.queue(workspace, "", 940, List.of(TelegramStore.PASS_THROUGH), List.of("{\"update_id\":940}")));
    TelegramStore.Job first = Await.result(store.claim(10, 0)).get(0);
    TelegramStore.Job second = Await.result(store.claim(10, 60_000)).get(0);
    assertThat(second.attempts()).isEqualTo(first.attempts() + 1);

    Await.result(store.finish(first, "failed", "late"));
    assertThat(outboxStatus(940, "pass_through")).as("the older claim's outcome is dropped").isEqualTo("pending");
    Await.result(store.finish(second, "delivered", null));
    assertThat(outboxStatus(940, "pass_through")).isEqualTo("delivered");
  }

  @Test
  @DisplayName("a claim with a reserve takes no link once only the reserve is left; one without takes the last ones")
  void linkReserve() {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl()).put("roles", new JsonArray()
        .add("ingest"));
    app = TestApp.start(vertx, config);
    TelegramStore store = new TelegramStore(app.pool());
    UUID workspace = UUID.fromString(WS_A);
    String channel = String.valueOf(CHANNEL);
    for (int i = 0; i < 3; i++) {
      Await.result(store.addLink(workspace, channel, "https://t.me/+reserve" + i, Instant.now().plusSeconds(86_400)));
    }
    assertThat(Await.result(store.claimLink(workspace, channel, "visitor-1", 1))).isNotNull();
    assertThat(Await.result(store.claimLink(workspace, channel, "visitor-2", 1))).as("two free, reserve one")
        .isNotNull();
    assertThat(Await.result(store.claimLink(workspace, channel, "visitor-3", 1))).as("only the reserve left")
        .isNull();
    assertThat(Await.result(store.claimLink(workspace, channel, "visitor-1", 1))).as("a session keeps its own")
        .isNotNull();
    assertThat(Await.result(store.claimLink(workspace, channel, "server-1", 0))).as("the bot's own capture")
        .isEqualTo("https://t.me/+reserve2");
    assertThat(Await.result(store.freeLinks(workspace, channel))).isZero();
  }
}
