package dev.eventrouter.forward;

import dev.eventrouter.support.Await;
import dev.eventrouter.support.TestApp;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Telegram's updates through the webhook receiver on a real PostgreSQL with the fake networks: a join through a
 * link carrying a click's session becomes a JoinRequest delivered with the click's ids, once however often Telegram
 * sends it; a /start makes a later event without session_id resolve to the deep link's session.
 */
class TelegramWebhookTest extends FakeNetworksTest {

  private static final String SECRET = "tg-secret-0123456789abcdef";

  private void start() {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
    config.getJsonArray("workspaces").getJsonObject(0).put("telegram", new JsonObject()
        .put("webhook_secret", SECRET));
    app = TestApp.start(vertx, config);
  }

  private HttpResponse<Buffer> update(JsonObject update) {
    return app.post("/telegram/" + WS_A + "/webhook", MultiMap.caseInsensitiveMultiMap()
        .add("Content-Type", "application/json").add("X-Telegram-Bot-Api-Secret-Token", SECRET), update.toBuffer());
  }

  @Test
  @DisplayName("a join through the click's link: a JoinRequest with the click's ids at both networks, once")
  void joinRequest() {
    start();
    assertThat(app.postJson("/api/v1/sessions", KEY_A, new JsonObject().put("workspace_id", WS_A)
        .put("session_id", "clicksess1").put("fbclid", "IwAR-tg").put("ttclid", "E.C.P.tg")).statusCode())
        .isEqualTo(200);
    JsonObject join = new JsonObject().put("update_id", 700).put("chat_join_request", new JsonObject()
        .put("chat", new JsonObject().put("id", -1001).put("type", "channel"))
        .put("from", new JsonObject().put("id", 4242)).put("user_chat_id", 4242).put("date", 1795406060)
        .put("invite_link", new JsonObject().put("invite_link", "https://t.me/+Xyz").put("name", "er:clicksess1")
            .put("creates_join_request", true)));

    HttpResponse<Buffer> first = update(join);
    assertThat(first.statusCode()).as(first.bodyAsString()).isEqualTo(200);
    String eventId = first.bodyAsJsonObject().getJsonObject("data").getString("event_id");
    assertThat(update(join).bodyAsJsonObject().getJsonObject("data").getString("event_id"))
        .as("Telegram sending it again: the same event").isEqualTo(eventId);
    assertThat(app.count("events")).isEqualTo(1);

    Await.until("delivered to both", DEADLINE, () -> count("meta", "delivered") == 1
        && count("tiktok", "delivered") == 1);
    JsonObject meta = fake.lastEvent("meta", eventId);
    assertThat(meta.getString("event_name")).isEqualTo("Lead");
    assertThat(meta.getJsonObject("user_data").getString("fbc")).endsWith(".IwAR-tg");
    JsonObject tiktok = fake.lastEvent("tiktok", eventId);
    assertThat(tiktok.getString("event")).isEqualTo("SubmitForm");
    assertThat(tiktok.getJsonObject("user").getString("ttclid")).isEqualTo("E.C.P.tg");
    assertThat(app.rows("SELECT invite_link FROM invite_sessions WHERE telegram_id = 4242").get(0)
        .getString("invite_link")).isEqualTo("https://t.me/+Xyz");
  }

  @Test
  @DisplayName("/start <session>: a later FTD posted without session_id resolves to that session")
  void startThenDeposit() {
    start();
    HttpResponse<Buffer> started = update(new JsonObject().put("update_id", 701).put("message", new JsonObject()
        .put("message_id", 1).put("from", new JsonObject().put("id", 5151).put("is_bot", false))
        .put("chat", new JsonObject().put("id", 5151).put("type", "private")).put("date", 1795406060)
        .put("text", "/start deeplink_s2")));
    assertThat(started.statusCode()).as(started.bodyAsString()).isEqualTo(200);
    assertThat(started.bodyAsJsonObject().getJsonObject("data").getValue("event_id")).as("no start_event").isNull();

    JsonObject deposit = app.postEvent(KEY_A, new JsonObject().put("workspace_id", WS_A).put("event_name", "FTD")
        .put("telegram_id", 5151).put("value", 30).put("currency", "USD")).bodyAsJsonObject().getJsonObject("data");
    assertThat(deposit.getString("session_id")).isEqualTo("deeplink_s2");
    JsonObject status = app.get("/api/v1/events/" + deposit.getString("event_id"), KEY_A).bodyAsJsonObject()
        .getJsonObject("data");
    assertThat(status.getString("session_source")).isEqualTo("invite");
  }
}
