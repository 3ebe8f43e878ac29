package dev.eventrouter.read;

import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeTelegram;
import dev.eventrouter.support.TelegramUpdates;
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
import java.util.List;

import static dev.eventrouter.support.TelegramUpdates.joinRequest;
import static dev.eventrouter.support.TelegramUpdates.link;
import static dev.eventrouter.support.TelegramUpdates.member;
import static dev.eventrouter.support.TestApp.BOT_A;
import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The funnel of two bots, each with its own channel, where visitors cross over: a click captured for one bot whose
 * /start comes through the other, and a join to the other bot's channel through a link named for the click. Every
 * step is counted under its click's bot and channel, as its events are; the rows are counted by hand in
 * {@link #build()}'s comment.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoBotFunnelTest {

  private static final String BOT_B = "signals_backup_bot";
  private static final String SECRET_A = "tg-secret-alpha-0123456789";
  private static final String SECRET_B = "tg-secret-beta-0123456789";
  private static final long CHANNEL_A = -1001111111111L;
  private static final long CHANNEL_B = -1002222222222L;
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private TestApp app;
  private FakeTelegram telegram;
  private long updates = 100;

  @BeforeAll
  void start(Vertx vertx) {
    telegram = FakeTelegram.start(vertx);
    JsonObject config = TestApp.config(TestDatabase.freshDatabaseUrl())
        .put("reports", new JsonObject().put("rollup_every_ms", 200).put("rollup_lag_ms", 1000));
    config.getJsonArray("workspaces").getJsonObject(0).put("telegram", new JsonArray()
        .add(new JsonObject().put("bot_name", BOT_A).put("webhook_secret", SECRET_A)
            .put("bot_token", FakeTelegram.TOKEN).put("channel_id", CHANNEL_A).put("api_base", telegram.baseUrl()))
        .add(new JsonObject().put("bot_name", BOT_B).put("webhook_secret", SECRET_B)
            .put("bot_token", FakeTelegram.TOKEN_2).put("channel_id", CHANNEL_B).put("api_base", telegram.baseUrl())));
    app = TestApp.start(vertx, config);
    build();
  }

  @AfterAll
  void stop() {
    app.close();
    telegram.close();
  }

  /**
   * Bot A (channel A) and bot B (channel B). Clicks a1-a4 captured for A, b1-b3 for B. /start: a1 through A, a2
   * and a3 through B, b1 through B, b2 through A. a1's user asks to join channel A; b1's user asks to join channel
   * B and joins once approved; a2's user joins channel B through a link named for a2 (no request) and leaves it.
   * REG of a1's user; FTD 30 USD of a2's user, FTD 50 USD of b2's user.
   *
   * <p>Under the clicks' bots and channels: A / channel A: 4 clicks, 3 starts (a1, a2, a3), 1 join request (a1),
   * 1 join (a2), 1 unsubscribe (a2), 0 remaining, REG 1, FTD 1, revenue 30.00. B / channel B: 3 clicks, 2 starts
   * (b1, b2), 1 join request (b1), 1 join (b1), 0 unsubscribes, 1 remaining, FTD 1, revenue 50.00. No other group.
   */
  private void build() {
    for (String session : List.of("a1", "a2", "a3", "a4")) {
      capture(new JsonObject().put("session_id", session));
    }
    for (String session : List.of("b1", "b2", "b3")) {
      capture(new JsonObject().put("session_id", session).put("bot", BOT_B));
    }
    assertThat(app.rows("SELECT bot || ' ' || channel AS origin FROM click_sessions ORDER BY session_id"))
        .extracting(r -> r.getString("origin")).containsExactly(
            BOT_A + " " + CHANNEL_A, BOT_A + " " + CHANNEL_A, BOT_A + " " + CHANNEL_A, BOT_A + " " + CHANNEL_A,
            BOT_B + " " + CHANNEL_B, BOT_B + " " + CHANNEL_B, BOT_B + " " + CHANNEL_B);
    update(SECRET_A, BOT_A, TelegramUpdates.start(1001, "a1"));
    update(SECRET_B, BOT_B, TelegramUpdates.start(1002, "a2"));
    update(SECRET_B, BOT_B, TelegramUpdates.start(1003, "a3"));
    update(SECRET_B, BOT_B, TelegramUpdates.start(2001, "b1"));
    update(SECRET_A, BOT_A, TelegramUpdates.start(2002, "b2"));
    update(SECRET_A, BOT_A, joinRequest(CHANNEL_A, 1001, "a1"));
    update(SECRET_B, BOT_B, joinRequest(CHANNEL_B, 2001, "b1"));
    update(SECRET_B, BOT_B, member(CHANNEL_B, 2001, "left", "member", link("b1", true)));
    update(SECRET_B, BOT_B, member(CHANNEL_B, 1002, "left", "member", link("a2", false)));
    event(new JsonObject().put("event_name", "REG").put("telegram_id", 1001).put("session_id", "a1"));
    event(new JsonObject().put("event_name", "FTD").put("telegram_id", 1002).put("session_id", "a2")
        .put("value", 30).put("currency", "USD"));
    event(new JsonObject().put("event_name", "FTD").put("telegram_id", 2002).put("session_id", "b2")
        .put("value", 50).put("currency", "USD"));
    update(SECRET_B, BOT_B, member(CHANNEL_B, 1002, "member", "left", null));
    assertThat(app.rows("SELECT session_id || ' ' || via || ' ' || bot AS invite FROM invite_sessions"
        + " WHERE session_id IN ('a2', 'b2') ORDER BY 1")).as("each through the bot it came through")
        .extracting(r -> r.getString("invite")).containsExactly("a2 join " + BOT_B, "a2 start " + BOT_B,
            "b2 start " + BOT_A);
    Instant written = Instant.now();
    Await.until("rolled up", DEADLINE, () -> Instant.parse(report("").getString("rolled_up_to")).isAfter(written));
  }

  @Test
  @DisplayName("by bot: each step under its click's bot (a /start through the other bot too), with its rates")
  void byBot() {
    JsonObject report = report("group_by=bot");
    assertThat(groups(report, "bot")).containsExactly(BOT_A, BOT_B);
    JsonObject a = row(report, 0);
    assertThat(steps(a)).containsExactly(4L, 3L, 1L, 1L, 1L, 0L);
    assertThat(a.getString("revenue")).isEqualTo("30.00");
    assertThat(a.getJsonObject("rates")).isEqualTo(new JsonObject().put("clicks_to_starts", 0.75)
        .put("starts_to_join_requests", 0.3333).put("join_requests_to_joins", 1.0).put("joins_to_REG", 1.0)
        .put("REG_to_FTD", 1.0).put("clicks_to_REG", 0.25).put("clicks_to_FTD", 0.25).put("unsubscribe_rate", 1.0));
    JsonObject b = row(report, 1);
    assertThat(steps(b)).containsExactly(3L, 2L, 1L, 1L, 0L, 1L);
    assertThat(b.getString("revenue")).isEqualTo("50.00");
    assertThat(b.getJsonObject("rates")).isEqualTo(new JsonObject().put("clicks_to_starts", 0.6667)
        .put("starts_to_join_requests", 0.5).put("join_requests_to_joins", 1.0).put("joins_to_REG", 0.0)
        .putNull("REG_to_FTD").put("clicks_to_REG", 0.0).put("clicks_to_FTD", 0.3333).put("unsubscribe_rate", 0.0));
    assertThat(steps(report.getJsonObject("totals"))).containsExactly(7L, 5L, 2L, 2L, 1L, 1L);
  }

  @Test
  @DisplayName("by bot and channel, and by channel: only the groups the config makes, each counted by its click")
  void byBotAndChannel() {
    JsonObject report = report("group_by=bot,channel");
    assertThat(report.getJsonArray("rows")).extracting(r -> ((JsonObject) r).getJsonObject("group").encode())
        .containsExactly(new JsonObject().put("bot", BOT_A).put("channel", String.valueOf(CHANNEL_A)).encode(),
            new JsonObject().put("bot", BOT_B).put("channel", String.valueOf(CHANNEL_B)).encode());
    assertThat(steps(row(report, 0))).containsExactly(4L, 3L, 1L, 1L, 1L, 0L);
    assertThat(steps(row(report, 1))).containsExactly(3L, 2L, 1L, 1L, 0L, 1L);

    JsonObject byChannel = report("group_by=channel");
    assertThat(groups(byChannel, "channel")).containsExactly(String.valueOf(CHANNEL_A), String.valueOf(CHANNEL_B));
    assertThat(steps(row(byChannel, 0))).containsExactly(4L, 3L, 1L, 1L, 1L, 0L);
    assertThat(steps(row(byChannel, 1))).containsExactly(3L, 2L, 1L, 1L, 0L, 1L);
    assertThat(steps(row(report("group_by=day&filter=bot:" + BOT_B), 0))).as("filtered to a bot")
        .containsExactly(3L, 2L, 1L, 1L, 0L, 1L);
  }

  /** clicks, starts, join requests, joins, unsubscribes and remaining subscribers of a row. */
  private static List<Long> steps(JsonObject row) {
    return List.of(row.getLong("clicks"), row.getLong("starts"), row.getLong("join_requests"), row.getLong("joins"),
        row.getLong("unsubscribes"), row.getLong("remaining_subscribers"));
  }

  private static List<String> groups(JsonObject report, String dimension) {
    return report.getJsonArray("rows").stream()
        .map(r -> ((JsonObject) r).getJsonObject("group").getString(dimension)).toList();
  }

  private static JsonObject row(JsonObject report, int i) {
    return report.getJsonArray("rows").getJsonObject(i);
  }

  private JsonObject report(String query) {
    HttpResponse<Buffer> r = app.get("/api/v1/reports/funnel?" + query, KEY_A);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject().getJsonObject("data");
  }

  private void capture(JsonObject click) {
    HttpResponse<Buffer> r = app.postJson("/api/v1/sessions", KEY_A, click.put("workspace_id", WS_A));
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
  }

  private void event(JsonObject event) {
    HttpResponse<Buffer> r = app.postJson("/api/v1/events/custom", KEY_A, event.put("workspace_id", WS_A));
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
  }

  /** An update told to a bot, at its own path; its session attributed. */
  private void update(String secret, String bot, JsonObject update) {
    HttpResponse<Buffer> r = app.post("/telegram/" + WS_A + "/webhook/" + bot, MultiMap.caseInsensitiveMultiMap()
        .add("Content-Type", "application/json").add("X-Telegram-Bot-Api-Secret-Token", secret),
        update.put("update_id", updates++).toBuffer());
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
  }
}
