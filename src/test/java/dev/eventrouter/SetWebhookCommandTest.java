package dev.eventrouter;

import dev.eventrouter.support.FakeTelegram;
import dev.eventrouter.support.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code telegram-webhook}: setWebhook against the fake Bot API, with the config's secret and the right updates. */
class SetWebhookCommandTest {

  private static final String SECRET = "tg-secret-0123456789abcdef";

  private Vertx vertx;
  private FakeTelegram telegram;
  @TempDir
  Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    telegram = FakeTelegram.start(vertx);
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  private Path config(Object telegramSection) throws IOException {
    JsonObject config = TestApp.config("postgresql://postgres@127.0.0.1:1/none");
    if (telegramSection != null) {
      config.getJsonArray("workspaces").getJsonObject(0).put("telegram", telegramSection);
    }
    Path file = dir.resolve("config.json");
    Files.writeString(file, config.encodePrettily());
    return file;
  }

  private JsonObject bot() {
    return new JsonObject().put("webhook_secret", SECRET).put("bot_token", "${TG_TOKEN}")
        .put("api_base", telegram.baseUrl());
  }

  private int run(Path config, String... extra) {
    return run(config, Map.of("TG_TOKEN", FakeTelegram.TOKEN), extra);
  }

  private int run(Path config, Map<String, String> env, String... extra) {
    List<String> args = new ArrayList<>(List.of("telegram-webhook", "--workspace", WS_A, "--url",
        "https://router.example/", "--config", config.toString()));
    args.addAll(List.of(extra));
    return SetWebhookCommand.run(args.toArray(String[]::new), env,
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  @DisplayName("sets the receiver's URL with the config's secret and the updates the receiver reads")
  void setsWebhook() throws IOException {
    assertThat(run(config(bot()))).as(err.toString()).isZero();
    assertThat(telegram.calls("setWebhook")).hasSize(1);
    JsonObject call = telegram.calls("setWebhook").get(0).body();
    assertThat(call.getString("url")).isEqualTo("https://router.example/telegram/" + WS_A + "/webhook");
    assertThat(call.getString("secret_token")).isEqualTo(SECRET);
    assertThat(call.getJsonArray("allowed_updates"))
        .isEqualTo(new JsonArray().add("message").add("chat_join_request").add("chat_member"));
    assertThat(out.toString()).contains("/telegram/" + WS_A + "/webhook").doesNotContain(FakeTelegram.TOKEN)
        .doesNotContain(SECRET);
  }

  @Test
  @DisplayName("several bots: each set at its own path with its own secret and token (the first at the plain path); "
      + "--bot sets one; a refusal of one is said and fails the command, the other still set")
  void severalBots() throws IOException {
    String otherSecret = "tg-secret-beta-0123456789";
    Path config = config(new JsonArray().add(bot().put("bot_name", "alpha_bot"))
        .add(bot().put("bot_name", "beta_bot").put("webhook_secret", otherSecret).put("bot_token", "${TG_TOKEN_2}"))
        .add(new JsonObject().put("bot_name", "receiver_bot").put("webhook_secret", SECRET + "-receiver")));
    Map<String, String> env = Map.of("TG_TOKEN", FakeTelegram.TOKEN, "TG_TOKEN_2", FakeTelegram.TOKEN_2);
    assertThat(run(config, env)).as(err.toString()).isZero();
    assertThat(telegram.calls("setWebhook")).as("a bot without a token is not set")
        .extracting(call -> call.body().getString("url") + " " + call.body().getString("secret_token") + " "
            + call.token())
        .containsExactly("https://router.example/telegram/" + WS_A + "/webhook " + SECRET + " " + FakeTelegram.TOKEN,
            "https://router.example/telegram/" + WS_A + "/webhook/beta_bot " + otherSecret + " "
                + FakeTelegram.TOKEN_2);
    assertThat(out.toString()).contains("@alpha_bot's updates", "@beta_bot's updates");

    assertThat(run(config, env, "--bot", "@Beta_bot")).isZero();
    assertThat(telegram.calls("setWebhook")).hasSize(3);
    assertThat(telegram.calls("setWebhook").get(2).token()).isEqualTo(FakeTelegram.TOKEN_2);
    assertThat(run(config, env, "--bot", "gamma_bot")).isEqualTo(1);
    assertThat(err.toString()).contains("of a bot named gamma_bot");

    telegram.failNext("setWebhook", 400, "Bad Request: bad webhook: HTTPS url must be provided for webhook", null);
    assertThat(run(config, env)).isEqualTo(1);
    assertThat(err.toString()).contains("@alpha_bot: Telegram refused: setWebhook: 400");
    assertThat(telegram.calls("setWebhook")).as("the second bot set all the same").hasSize(5);
  }

  @Test
  @DisplayName("with a pass-through, the types the bot gets now (Telegram's default if it never chose) and the "
      + "receiver's; --allowed-updates chooses them by hand")
  void allowedUpdates() throws IOException {
    Path config = config(bot().put("pass_through", new JsonObject().put("url", "https://bot.example/hook")));
    assertThat(run(config)).isZero();
    assertThat(telegram.calls("setWebhook").get(0).body().getJsonArray("allowed_updates").getList())
        .containsAll(SetWebhookCommand.TELEGRAM_DEFAULT).contains("chat_member")
        .hasSize(SetWebhookCommand.TELEGRAM_DEFAULT.size() + 1).doesNotContain("message_reaction");

    telegram.webhookAllowedUpdates(List.of("message", "callback_query", "message_reaction"));
    assertThat(run(config)).isZero();
    assertThat(telegram.calls("setWebhook").get(1).body().getJsonArray("allowed_updates")).isEqualTo(new JsonArray()
        .add("message").add("callback_query").add("message_reaction").add("chat_join_request").add("chat_member"));

    assertThat(run(config, "--allowed-updates", "message,callback_query")).isZero();
    assertThat(telegram.calls("setWebhook").get(2).body().getJsonArray("allowed_updates"))
        .isEqualTo(new JsonArray().add("message").add("callback_query"));
    assertThat(telegram.calls("getWebhookInfo")).as("not asked when the types are given").hasSize(2);
  }

  @Test
  @DisplayName("Telegram's refusal is printed in its words without the token; no bot token or a bad URL is a usage "
      + "error")
  void refusals() throws IOException {
    telegram.failNext("setWebhook", 400, "Bad Request: bad webhook: Failed to resolve host", null);
    assertThat(run(config(bot()))).isEqualTo(1);
    assertThat(err.toString()).contains("Telegram refused: setWebhook: 400 Bad Request: bad webhook: "
        + "Failed to resolve host").doesNotContain(FakeTelegram.TOKEN);

    err.reset();
    assertThat(run(config(new JsonObject().put("webhook_secret", SECRET)))).isEqualTo(1);
    assertThat(err.toString()).contains("has no telegram.bot_token");

    err.reset();
    assertThat(SetWebhookCommand.run(new String[] {"telegram-webhook", "--workspace", WS_A, "--url",
        "http://router.example"}, Map.of(), new PrintStream(out), new PrintStream(err, true, StandardCharsets.UTF_8)))
        .as("Telegram calls HTTPS webhooks only").isEqualTo(2);
    assertThat(err.toString()).contains("usage:");
    assertThat(telegram.calls("setWebhook")).hasSize(1);
  }
}
