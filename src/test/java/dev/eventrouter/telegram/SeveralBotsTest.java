package dev.eventrouter.telegram;

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

import java.time.Duration;
import java.time.Instant;

import static dev.eventrouter.support.TestApp.BOT_A;
import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two bots, each with its own channel, in one workspace: each bot's links made with its own token for its own
 * channel, its updates received at its own path with its own secret (the same update id from both is two updates),
 * its join requests approved by itself; a later conversion found by telegram_id whichever bot the user came through;
 * the report's rows by bot and by channel apart.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SeveralBotsTest {

  private static final String BOT_B = "beta_signals_bot";
  private static final String SECRET_A = "tg-secret-alpha-0123456789";
  private static final String SECRET_B = "tg-secret-beta-0123456789";
  private static final long CHANNEL_A = -1001111111111L;
  private static final long CHANNEL_B = -1002222222222L;
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private TestApp app;
  private FakeTelegram telegram;

  @BeforeAll
  void start(Vertx vertx) {
    telegram = FakeTelegram.start(vertx);
    JsonObject config = TestApp.config(TestDatabase.freshDatabaseUrl())
        .put("reports", new JsonObject().put("rollup_every_ms", 200).put("rollup_lag_ms", 1000));
    // The first bot in the object form's keys (channel_id), the second in the list's (channels).
    config.getJsonArray("workspaces").getJsonObject(0).put("telegram", new JsonArray()
        .add(new JsonObject().put("bot_name", BOT_A).put("webhook_secret", SECRET_A)
            .put("bot_token", FakeTelegram.TOKEN).put("channel_id", CHANNEL_A).put("invite_link_pool", 1)
            .put("approve_join_requests", true).put("api_base", telegram.baseUrl()))
        .add(new JsonObject().put("bot_name", "@" + BOT_B).put("webhook_secret", SECRET_B)
            .put("bot_token", FakeTelegram.TOKEN_2).put("channels", new JsonArray().add(CHANNEL_B))
            .put("invite_link_pool", 2).put("approve_join_requests", true).put("api_base", telegram.baseUrl())));
    app = TestApp.start(vertx, config);
  }

  @AfterAll
  void stop() {
    app.close();
    telegram.close();
  }

  private HttpResponse<Buffer> update(String path, String secret, JsonObject update) {
    return app.post("/telegram/" + WS_A + "/webhook" + path, MultiMap.caseInsensitiveMultiMap()
        .add("Content-Type", "application/json").add("X-Telegram-Bot-Api-Secret-Token", secret), update.toBuffer());
  }

  private JsonObject handled(String path, String secret, JsonObject update) {
    HttpResponse<Buffer> r = update(path, secret, update);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject().getJsonObject("data");
  }

  private JsonObject capture(JsonObject click) {
    HttpResponse<Buffer> r = app.postJson("/api/v1/sessions", KEY_A, click.put("workspace_id", WS_A));
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject().getJsonObject("data");
  }

  private String event(JsonObject event) {
    HttpResponse<Buffer> r = app.postJson("/api/v1/events/custom", KEY_A, event.put("workspace_id", WS_A));
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject().getJsonObject("data").getString("session_id");
  }

  private long freeLinks(long channel) {
    return app.rows("SELECT count(*) AS n FROM telegram_invite_links WHERE session_id IS NULL AND chat_id = $1",
        String.valueOf(channel)).get(0).getLong("n");
  }

  private static JsonObject joinRequest(long updateId, long channel, long user, String link) {
    return new JsonObject().put("update_id", updateId).put("chat_join_request", new JsonObject()
        .put("chat", new JsonObject().put("id", channel).put("title", "Signals").put("type", "channel"))
        .put("from", new JsonObject().put("id", user).put("is_bot", false).put("first_name", "Ann"))
        .put("user_chat_id", user).put("date", 1795406060)
        .put("invite_link", new JsonObject().put("invite_link", link).put("name", "event-router")
            .put("creator", new JsonObject().put("id", 1).put("is_bot", true).put("first_name", "Bot"))
            .put("creates_join_request", true).put("is_primary", false).put("is_revoked", false)));
  }

  private static JsonObject start(long updateId, long user, String session) {
    return new JsonObject().put("update_id", updateId).put("message", new JsonObject().put("message_id", 7)
        .put("from", new JsonObject().put("id", user).put("is_bot", false).put("first_name", "Bo"))
        .put("chat", new JsonObject().put("id", user).put("type", "private")).put("date", 1795406070)
        .put("text", "/start " + session));
  }

  private JsonObject report(String query) {
    HttpResponse<Buffer> r = app.get("/api/v1/reports/funnel?" + query, KEY_A);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject().getJsonObject("data");
  }

  private static JsonObject row(JsonObject report, String dimension, String value) {
    return report.getJsonArray("rows").stream().map(JsonObject.class::cast)
        .filter(r -> value.equals(r.getJsonObject("group").getString(dimension))).findFirst()
        .orElseThrow(() -> new AssertionError("no row " + dimension + "=" + value + " in " + report.encode()));
  }

  @Test
  @DisplayName("two bots and two channels: links, updates, approvals and lookups per bot; the report apart by bot "
      + "and by channel")
  void attributedAndReportedApart() {
    Await.until("both pools made ahead", DEADLINE, () -> freeLinks(CHANNEL_A) == 1 && freeLinks(CHANNEL_B) == 2);
    assertThat(telegram.calls("createChatInviteLink")).as("each channel's links by its own bot")
        .extracting(call -> call.body().getLong("chat_id") + " " + call.token())
        .contains(CHANNEL_A + " " + FakeTelegram.TOKEN, CHANNEL_B + " " + FakeTelegram.TOKEN_2)
        .doesNotContain(CHANNEL_A + " " + FakeTelegram.TOKEN_2, CHANNEL_B + " " + FakeTelegram.TOKEN);

    // s1 names nothing (the default bot's channel), s2 the second bot, s3 the second bot's channel.
    JsonObject s1 = capture(new JsonObject().put("session_id", "s1").put("landing_url", "https://pre.example/?a=1"));
    JsonObject s2 = capture(new JsonObject().put("session_id", "s2").put("bot", "@" + BOT_B));
    JsonObject s3 = capture(new JsonObject().put("session_id", "s3").put("channel", String.valueOf(CHANNEL_B)));
    assertThat(s1.getString("start_link")).isEqualTo("https://t.me/" + BOT_A + "?start=s1");
    assertThat(s2.getString("start_link")).isEqualTo("https://t.me/" + BOT_B + "?start=s2");
    assertThat(s3.getString("start_link")).as("the bot of the channel").isEqualTo("https://t.me/" + BOT_B
        + "?start=s3");
    assertThat(app.rows("SELECT session_id, bot, channel FROM click_sessions ORDER BY session_id"))
        .extracting(r -> r.getString("session_id") + " " + r.getString("bot") + " " + r.getString("channel"))
        .containsExactly("s1 " + BOT_A + " " + CHANNEL_A, "s2 " + BOT_B + " " + CHANNEL_B,
            "s3 " + BOT_B + " " + CHANNEL_B);
    assertThat(app.rows("SELECT session_id, chat_id FROM telegram_invite_links WHERE session_id IS NOT NULL"
            + " ORDER BY session_id")).extracting(r -> r.getString("session_id") + " " + r.getString("chat_id"))
        .containsExactly("s1 " + CHANNEL_A, "s2 " + CHANNEL_B, "s3 " + CHANNEL_B);

    // The same update id from both bots: two updates, two events (Telegram counts update ids per bot).
    JsonObject joinA = handled("", SECRET_A, joinRequest(7, CHANNEL_A, 1001, s1.getString("invite_link")));
    JsonObject joinB = handled("/" + BOT_B, SECRET_B, joinRequest(7, CHANNEL_B, 1002, s2.getString("invite_link")));
    assertThat(joinA.getString("session_id")).isEqualTo("s1");
    assertThat(joinB.getString("session_id")).isEqualTo("s2");
    assertThat(joinA.getString("event_id")).isNotNull().isNotEqualTo(joinB.getString("event_id"));
    assertThat(handled("/" + BOT_B.toUpperCase(), SECRET_B, joinRequest(7, CHANNEL_B, 1002,
        s2.getString("invite_link"))).getString("event_id")).as("sent again, by the bot's name in any case")
        .isEqualTo(joinB.getString("event_id"));
    assertThat(handled("/" + BOT_A, SECRET_A, joinRequest(8, CHANNEL_A, 1004, s1.getString("invite_link")))
        .getString("session_id")).as("the default bot at its name's path too").isEqualTo("s1");
    assertThat(handled("/" + BOT_B, SECRET_B, start(9, 1003, "s3")).getString("session_id")).isEqualTo("s3");

    assertThat(handled("", SECRET_A, joinRequest(10, CHANNEL_B, 1005, s3.getString("invite_link")))
        .getBoolean("handled")).as("the other bot's channel, told to this bot: not its to attribute").isFalse();
    assertThat(update("/" + BOT_B, SECRET_A, start(11, 1006, "s1")).statusCode()).as("another bot's secret")
        .isEqualTo(401);
    assertThat(update("", SECRET_B, start(12, 1006, "s1")).statusCode()).as("the plain path is the first bot's")
        .isEqualTo(401);
    assertThat(update("/no_such_bot", SECRET_A, start(13, 1006, "s1")).statusCode()).isEqualTo(404);

    Await.until("each request approved by its own bot", DEADLINE,
        () -> telegram.calls("approveChatJoinRequest").size() == 3);
    assertThat(telegram.calls("approveChatJoinRequest"))
        .extracting(call -> call.body().getLong("chat_id") + " " + call.body().getLong("user_id") + " " + call.token())
        .containsExactlyInAnyOrder(CHANNEL_A + " 1001 " + FakeTelegram.TOKEN,
            CHANNEL_A + " 1004 " + FakeTelegram.TOKEN, CHANNEL_B + " 1002 " + FakeTelegram.TOKEN_2);
    assertThat(app.rows("SELECT telegram_id, via, bot, channel FROM invite_sessions ORDER BY telegram_id"))
        .extracting(r -> r.getLong("telegram_id") + " " + r.getString("via") + " " + r.getString("bot") + " "
            + r.getString("channel"))
        .containsExactly("1001 join_request " + BOT_A + " " + CHANNEL_A,
            "1002 join_request " + BOT_B + " " + CHANNEL_B, "1003 start " + BOT_B + " null",
            "1004 join_request " + BOT_A + " " + CHANNEL_A);

    // Conversions with no session_id: found by telegram_id, through whichever bot the user came.
    assertThat(event(new JsonObject().put("event_name", "FTD").put("telegram_id", 1001).put("value", 10)
        .put("currency", "USD"))).isEqualTo("s1");
    assertThat(event(new JsonObject().put("event_name", "FTD").put("telegram_id", 1002).put("value", 25)
        .put("currency", "USD"))).isEqualTo("s2");
    assertThat(event(new JsonObject().put("event_name", "FTD").put("telegram_id", 1003).put("value", 40)
        .put("currency", "USD"))).isEqualTo("s3");

    Instant written = Instant.now();
    Await.until("rolled up", DEADLINE, () -> Instant.parse(report("").getString("rolled_up_to")).isAfter(written));
    JsonObject byBot = report("group_by=bot");
    JsonObject alpha = row(byBot, "bot", BOT_A);
    JsonObject beta = row(byBot, "bot", BOT_B);
    assertThat(byBot.getJsonArray("rows")).hasSize(2);
    assertThat(alpha.getLong("clicks")).isEqualTo(1);
    assertThat(alpha.getLong("join_requests")).isEqualTo(2);
    assertThat(alpha.getLong("starts")).isZero();
    assertThat(alpha.getString("revenue")).isEqualTo("10.00");
    assertThat(beta.getLong("clicks")).isEqualTo(2);
    assertThat(beta.getLong("join_requests")).isEqualTo(1);
    assertThat(beta.getLong("starts")).isEqualTo(1);
    assertThat(beta.getString("revenue")).isEqualTo("65.00");
    assertThat(beta.getJsonObject("events").getJsonObject("FTD").getLong("users")).isEqualTo(2);

    JsonObject byChannel = report("group_by=channel");
    assertThat(row(byChannel, "channel", String.valueOf(CHANNEL_A)).getLong("join_requests")).isEqualTo(2);
    assertThat(row(byChannel, "channel", String.valueOf(CHANNEL_B)).getString("revenue")).isEqualTo("65.00");
    assertThat(report("group_by=bot&filter=channel:" + CHANNEL_B).getJsonArray("rows"))
        .extracting(r -> ((JsonObject) r).getJsonObject("group").getString("bot")).containsExactly(BOT_B);
  }
}
