package dev.eventrouter.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A workspace's {@code alerts}: targets, conditions, their defaults and their refusals. */
class AlertsConfigUnitTest {

  private static final String TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";
  private static final String CONNECTOR_TOKEN = "987654321:BBxyzTcvCH1vGWJxfSeofSAs0K5PALDsbw";
  private static final String SECRET = "alert-secret-0123456789";

  private static JsonObject config(JsonObject alerts) {
    JsonObject workspace = new JsonObject().put("id", "7c9e6679-7425-40de-944b-e07fc1f90ae7").put("name", "demo")
        .put("api_keys", new JsonArray().add(ApiKeys.configValue("k1")))
        .put("telegram", new JsonArray()
            .add(new JsonObject().put("bot_name", "receiver_bot").put("webhook_secret", "s".repeat(16)))
            .add(new JsonObject().put("bot_name", "sender_bot").put("webhook_secret", "t".repeat(16))
                .put("bot_token", CONNECTOR_TOKEN)));
    if (alerts != null) {
      workspace.put("alerts", alerts);
    }
    return new JsonObject().put("database", new JsonObject().put("url", (Object) null))
        .put("workspaces", new JsonArray().add(workspace));
  }

  private static AlertsConfig alerts(JsonObject alerts) {
    return new ConfigLoader(Map.of("ALERT_TOKEN", TOKEN)).resolve(config(alerts)).workspaces().get(0).alerts();
  }

  private static JsonObject chat(Object chatId) {
    return new JsonObject().put("type", "telegram").put("chat_id", chatId);
  }

  private static JsonObject targets(JsonObject... targets) {
    return new JsonObject().put("targets", new JsonArray(new java.util.ArrayList<>(java.util.List.of((Object[]) targets))));
  }

  @Test
  @DisplayName("without alerts a workspace has none; the check interval defaults to 30 s")
  void none() {
    AppConfig config = new ConfigLoader(Map.of()).resolve(config(null));

    assertThat(config.workspaces().get(0).alerts()).isEqualTo(AlertsConfig.NONE);
    assertThat(config.workspaces().get(0).alerts().enabled()).isFalse();
    assertThat(config.alerts().everyMs()).isEqualTo(30_000);
    assertThat(config.workspaces().get(0).label()).isEqualTo("demo");
    JsonObject unnamed = config(null);
    unnamed.getJsonArray("workspaces").getJsonObject(0).remove("name");
    assertThat(new ConfigLoader(Map.of()).resolve(unnamed).workspaces().get(0).label()).as("no name: the id")
        .isEqualTo("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  }

  @Test
  @DisplayName("every condition is on with its documented thresholds unless the config says otherwise")
  void defaults() {
    AlertsConfig alerts = alerts(targets(chat("-1001234567890")));

    assertThat(alerts.enabled()).isTrue();
    assertThat(alerts.summaryPeriod()).isEqualTo(Duration.ofHours(1));
    assertThat(alerts.integrationPaused()).isTrue();
    assertThat(alerts.breakerOpen()).isEqualTo(Duration.ofMinutes(10));
    assertThat(alerts.deliveriesFailed()).isEqualTo(new AlertsConfig.Window(Duration.ofMinutes(15), 1));
    assertThat(alerts.conversionsStopped()).isEqualTo(new AlertsConfig.Quiet(3, 7));
    assertThat(alerts.postbacksUnmatched()).isEqualTo(new AlertsConfig.Window(Duration.ofHours(1), 1));
    assertThat(alerts.postbackMacros()).isEqualTo(new AlertsConfig.Window(Duration.ofHours(1), 1));
    assertThat(alerts.invitePoolEmpty()).isEqualTo(Duration.ofMinutes(5));
    assertThat(alerts.networkUndercounts()).as("off unless set").isNull();
  }

  @Test
  @DisplayName("network_undercounts: true takes 20 delivered at least, an object its own number, false or enabled: "
      + "false keeps it off; a bad number is named")
  void undercounts() {
    assertThat(alerts(targets(chat("1")).put("network_undercounts", true)).networkUndercounts())
        .isEqualTo(new AlertsConfig.Undercounts(20));
    assertThat(alerts(targets(chat("1")).put("network_undercounts", new JsonObject().put("min_delivered", 1)))
        .networkUndercounts()).isEqualTo(new AlertsConfig.Undercounts(1));
    assertThat(alerts(targets(chat("1")).put("network_undercounts", false)).networkUndercounts()).isNull();
    assertThat(alerts(targets(chat("1")).put("network_undercounts", new JsonObject().put("enabled", false)))
        .networkUndercounts()).isNull();
    JsonObject bad = config(targets(chat("1")).put("network_undercounts", new JsonObject().put("min_delivered", 0)));
    assertThatThrownBy(() -> new ConfigLoader(Map.of()).resolve(bad)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("alerts.network_undercounts.min_delivered: must be a whole number from 1 to 1000000");
  }

  @Test
  @DisplayName("conditions switch off with false or enabled: false, and take their thresholds (fractions of minutes)")
  void settings() {
    AlertsConfig alerts = alerts(targets(chat("-1001234567890")).put("summary_minutes", 0.5)
        .put("integration_paused", false)
        .put("breaker_open", new JsonObject().put("minutes", 0))
        .put("deliveries_failed", new JsonObject().put("window_minutes", 2.5).put("min_count", 10))
        .put("conversions_stopped", new JsonObject().put("hours", 6).put("days", 5))
        .put("postbacks_unmatched", new JsonObject().put("enabled", false))
        .put("postback_macros", true)
        .put("invite_pool_empty", false));

    assertThat(alerts.summaryPeriod()).isEqualTo(Duration.ofSeconds(30));
    assertThat(alerts.integrationPaused()).isFalse();
    assertThat(alerts.breakerOpen()).isEqualTo(Duration.ZERO);
    assertThat(alerts.deliveriesFailed()).isEqualTo(new AlertsConfig.Window(Duration.ofSeconds(150), 10));
    assertThat(alerts.conversionsStopped()).isEqualTo(new AlertsConfig.Quiet(6, 5));
    assertThat(alerts.postbacksUnmatched()).isNull();
    assertThat(alerts.postbackMacros()).isEqualTo(new AlertsConfig.Window(Duration.ofHours(1), 1));
    assertThat(alerts.invitePoolEmpty()).isNull();

    AlertsConfig others = alerts(targets(chat("-1001234567890")).put("summary_minutes", 10080)
        .put("breaker_open", false).put("conversions_stopped", new JsonObject().put("enabled", false))
        .put("deliveries_failed", false).put("postback_macros", false)
        .put("invite_pool_empty", new JsonObject().put("minutes", 0.5)));
    assertThat(others.summaryPeriod()).as("a week, the longest").isEqualTo(Duration.ofDays(7));
    assertThat(others.breakerOpen()).isNull();
    assertThat(others.conversionsStopped()).isNull();
    assertThat(others.deliveriesFailed()).isNull();
    assertThat(others.postbackMacros()).isNull();
    assertThat(others.integrationPaused()).isTrue();
    assertThat(others.invitePoolEmpty()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  @DisplayName("a Telegram target sends through the named connector bot, its own bot_token, or the first bot with a "
      + "token; a webhook target is a signed POST under the integrations' address rules")
  void targetsResolve() {
    AlertsConfig alerts = alerts(targets(
        chat(-1001234567890L),
        chat("@buyers_oncall").put("bot", "@sender_bot"),
        chat("42").put("bot_token", "${ALERT_TOKEN}").put("api_base", "http://127.0.0.1:9/"),
        new JsonObject().put("type", "webhook").put("url", "https://hooks.example/alerts?k=1")
            .put("secret", "s".repeat(16))
            .put("headers", new JsonObject().put("X-Team", "buyers"))));

    AlertTarget.Telegram first = (AlertTarget.Telegram) alerts.targets().get(0);
    assertThat(first.chatId()).isEqualTo("-1001234567890");
    assertThat(first.bot().botToken()).isEqualTo(CONNECTOR_TOKEN);
    assertThat(((AlertTarget.Telegram) alerts.targets().get(1)).bot().name()).isEqualTo("sender_bot");
    AlertTarget.Telegram own = (AlertTarget.Telegram) alerts.targets().get(2);
    assertThat(own.bot().botToken()).isEqualTo(TOKEN);
    assertThat(own.bot().apiBase()).isEqualTo("http://127.0.0.1:9");
    AlertTarget.Webhook hook = (AlertTarget.Webhook) alerts.targets().get(3);
    assertThat(hook.webhook().accessToken()).as("16 characters, the shortest").isEqualTo("s".repeat(16));
    assertThat(hook.webhook().webhook().headers()).containsEntry("X-Team", "buyers");
    assertThat(hook.webhook().allowPrivateNetwork()).isFalse();
    assertThat(alerts.targets()).extracting(AlertTarget::key).containsExactly("telegram:-1001234567890",
        "telegram:@buyers_oncall", "telegram:42", hook.key());
    assertThat(alerts.targets()).allSatisfy(target -> assertThat(target).hasToString(target.key()));
    assertThat(hook.key()).startsWith("webhook:").doesNotContain("hooks.example").doesNotContain("k=1");
    assertThat(alerts.targets().toString()).doesNotContain(TOKEN).doesNotContain(CONNECTOR_TOKEN)
        .doesNotContain("s".repeat(16));
  }

  @Test
  @DisplayName("the top-level alerts section sets how often the conditions are checked")
  void checkInterval() {
    AppConfig config = new ConfigLoader(Map.of()).resolve(config(null)
        .put("alerts", new JsonObject().put("check_every_ms", 250)));

    assertThat(config.alerts().everyMs()).isEqualTo(250);
    assertThatThrownBy(() -> new ConfigLoader(Map.of()).resolve(config(null)
        .put("alerts", new JsonObject().put("check_every_minutes", 1)))).isInstanceOf(ConfigException.class)
        .hasMessageContaining("alerts.check_every_minutes: unknown key (known: check_every_ms)");
  }

  private static Arguments bad(String expected, Consumer<JsonObject> alerts) {
    JsonObject json = targets(chat("-100123"));
    alerts.accept(json);
    return Arguments.of(expected, json);
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        bad("alerts.targets: required", json -> json.remove("targets")),
        bad("alerts.targets: required", json -> json.put("targets", new JsonArray())),
        bad("alerts.targets[0].type: required", json -> json.put("targets", new JsonArray().add(new JsonObject()))),
        bad("alerts.targets[0].chat_id: required", json -> json.put("targets", new JsonArray().add(chat("oncall")))),
        bad("alerts.targets[1]: the same target as workspaces[0].alerts.targets[0]", json -> json.getJsonArray("targets")
            .add(chat("-100123"))),
        bad("alerts.targets[0].bot: no bot named receiver_bot with a bot_token", json -> json.getJsonArray("targets")
            .getJsonObject(0).put("bot", "receiver_bot")),
        bad("alerts.targets[0]: bot or bot_token, not both", json -> json.getJsonArray("targets").getJsonObject(0)
            .put("bot", "sender_bot").put("bot_token", TOKEN)),
        bad("alerts.targets[0].bot_token: must be a Bot API token", json -> json.getJsonArray("targets")
            .getJsonObject(0).put("bot_token", "not-a-token")),
        bad("alerts.targets[0]: api_base and proxy go with bot_token", json -> json.getJsonArray("targets")
            .getJsonObject(0).put("api_base", "https://bots.example")),
        bad("alerts.targets[0].secret: required", json -> json.put("targets", new JsonArray().add(new JsonObject()
            .put("type", "webhook").put("url", "https://hooks.example/a")))),
        bad("alerts.targets[0].url: required, an absolute http(s) URL (no placeholders", json -> json.put("targets",
            new JsonArray().add(new JsonObject().put("type", "webhook").put("url", "https://hooks.example/{event_id}")
                .put("secret", SECRET)))),
        bad("alerts.targets[0].url: the host is a loopback", json -> json.put("targets", new JsonArray()
            .add(new JsonObject().put("type", "webhook").put("url", "http://127.0.0.1:9/a").put("secret", SECRET)))),
        bad("alerts.targets[0].method: unknown key", json -> json.put("targets", new JsonArray().add(new JsonObject()
            .put("type", "webhook").put("url", "https://hooks.example/a").put("secret", SECRET).put("method", "GET")))),
        bad("alerts.summary_minutes: must be a number of minutes from more than 0", json -> json
            .put("summary_minutes", 0)),
        bad("alerts.breaker_open.minutes: must be a number of minutes from 0", json -> json
            .put("breaker_open", new JsonObject().put("minutes", -1))),
        bad("alerts.deliveries_failed.min_count: must be a whole number from 1", json -> json
            .put("deliveries_failed", new JsonObject().put("min_count", 0))),
        bad("alerts.conversions_stopped.days: must be a whole number from 1 to 7", json -> json
            .put("conversions_stopped", new JsonObject().put("days", 8))),
        bad("alerts.deliveries_failed: must be true, false or an object", json -> json.put("deliveries_failed", 5)),
        bad("alerts.invite_pool_empty.window_minutes: unknown key", json -> json
            .put("invite_pool_empty", new JsonObject().put("window_minutes", 5))),
        bad("alerts.muted: unknown key", json -> json.put("muted", true)),
        bad("alerts.targets[0].secret: required, at least 16 characters", json -> json.put("targets",
            new JsonArray().add(new JsonObject().put("type", "webhook").put("url", "https://hooks.example/a")
                .put("secret", "s".repeat(15))))),
        bad("alerts.targets[0].color: unknown key", json -> json.getJsonArray("targets").getJsonObject(0)
            .put("color", "red")),
        bad("alerts.targets[0].chat_id: required", json -> json.getJsonArray("targets").getJsonObject(0)
            .put("chat_id", 1.5)),
        bad("alerts.targets[0].chat_id: required", json -> json.getJsonArray("targets").getJsonObject(0)
            .put("chat_id", true)),
        bad("alerts.targets[0].chat_id: required", json -> json.getJsonArray("targets").getJsonObject(0)
            .remove("chat_id")),
        bad("alerts.targets[0]: api_base and proxy go with bot_token", json -> json.getJsonArray("targets")
            .getJsonObject(0).put("proxy", "http://203.0.113.7:3128")),
        bad("alerts.summary_minutes: must be a number of minutes", json -> json.put("summary_minutes", "60")),
        bad("alerts.summary_minutes: must be a number of minutes", json -> json.put("summary_minutes", 10080.5)),
        bad("alerts.invite_pool_empty.minutes: must be a number of minutes", json -> json
            .put("invite_pool_empty", new JsonObject().put("minutes", 10081))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  @DisplayName("a bad alerts setting stops the start with a message naming its path, never a secret")
  void refused(String expected, JsonObject alerts) {
    assertThatThrownBy(() -> new ConfigLoader(Map.of()).resolve(config(alerts)))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("workspaces[0]." + expected)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(TOKEN).doesNotContain(SECRET));
  }

  @Test
  @DisplayName("a Telegram target without bot or bot_token needs a connector bot with a token")
  void needsABot() {
    JsonObject json = config(targets(chat("-100123")));
    json.getJsonArray("workspaces").getJsonObject(0).remove("telegram");

    assertThatThrownBy(() -> new ConfigLoader(Map.of()).resolve(json)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("workspaces[0].alerts.targets[0]: needs a bot_token");
  }
}
