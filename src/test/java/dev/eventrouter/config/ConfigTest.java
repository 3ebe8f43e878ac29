package dev.eventrouter.config;

import dev.eventrouter.event.EventMapping;
import dev.eventrouter.http.ApiKeyAuthenticator;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExtendWith(VertxExtension.class)
class ConfigTest {

  private static final String HASH = ApiKeys.configValue("k1");

  private static JsonObject valid() {
    return new JsonObject()
        .put("http", new JsonObject().put("port", 9000))
        .put("database", new JsonObject().put("url", (Object) null))
        .put("workspaces", new JsonArray().add(new JsonObject()
            .put("id", "7c9e6679-7425-40de-944b-e07fc1f90ae7").put("name", "demo")
            .put("api_keys", new JsonArray().add(HASH)).put("integrations", new JsonArray())));
  }

  private static AppConfig resolve(JsonObject json, Map<String, String> env) {
    return new ConfigLoader(env).resolve(json);
  }

  @Test
  @DisplayName("the shipped conf/config.json loads, and the demo key named in the README opens the demo workspace")
  void shippedConfig(Vertx vertx) {
    ConfigLoader loader = new ConfigLoader(Map.of());
    AppConfig config = loader.load(vertx, loader.path(null)).await();

    assertThat(config.http().port()).isEqualTo(8080);
    assertThat(config.database().embedded()).isTrue();
    assertThat(config.database().dataDir()).isEqualTo(Path.of("data/postgres"));
    WorkspaceConfig demo = new ApiKeyAuthenticator(config.workspaces()).authenticate("demo-key-change-me");
    assertThat(demo).isNotNull();
    assertThat(demo.id()).isEqualTo(UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7"));
    assertThat(demo.rateLimit()).isEqualTo(new RateLimitConfig(500, 1000));
    assertThat(demo.botName()).isEqualTo("demo_router_bot");
  }

  @Test
  @DisplayName("omitted values take the documented defaults")
  void defaults() {
    AppConfig config = resolve(valid().put("http", new JsonObject()), Map.of());

    assertThat(config.http().host()).isEqualTo("0.0.0.0");
    assertThat(config.http().port()).isEqualTo(8080);
    assertThat(config.http().maxBodyBytes()).isEqualTo(65536);
    assertThat(config.workspaces().get(0).rateLimit()).isEqualTo(RateLimitConfig.DEFAULT);
  }

  static Stream<Arguments> invalidConfigs() {
    return Stream.of(
        bad("workspaces[0].id", c -> ws(c).put("id", "not-a-uuid")),
        bad("workspaces[1].id: duplicate", c -> c.getJsonArray("workspaces").add(ws(c).copy()
            .put("api_keys", new JsonArray().add(ApiKeys.configValue("k2"))))),
        bad("workspaces[0].api_keys[0]: malformed", c -> ws(c).put("api_keys", new JsonArray().add("sha256:ABC"))),
        bad("workspaces[0].api_keys[0]: looks like a plain API key",
            c -> ws(c).put("api_keys", new JsonArray().add("my-plain-secret-key"))),
        bad("workspaces[0].api_keys: required", c -> ws(c).put("api_keys", new JsonArray())),
        bad("workspaces[1].api_keys[0]: the same API key", c -> c.getJsonArray("workspaces").add(ws(c).copy()
            .put("id", "8c9e6679-7425-40de-944b-e07fc1f90ae7"))),
        bad("telemetry: unknown key", c -> c.put("telemetry", true)),
        bad("delivery.batchsize: unknown key", c -> c.put("delivery", new JsonObject().put("batchsize", 10))),
        bad("delivery.breaker.threshold: unknown key",
            c -> c.put("delivery", new JsonObject().put("breaker", new JsonObject().put("threshold", 3)))),
        bad("database.pool: unknown key", c -> c.getJsonObject("database").put("pool", 4)),
        bad("workspaces[0].apikeys: unknown key", c -> ws(c).put("apikeys", new JsonArray())),
        bad("workspaces[0].rate_limit.per_sec: unknown key",
            c -> ws(c).put("rate_limit", new JsonObject().put("per_sec", 5))),
        bad("workspaces[0].integrations[0].pixel_id: unknown key", c -> ws(c).put("integrations", new JsonArray()
            .add(tiktok().put("page_url", "https://x.example/").put("pixel_id", "1")))),
        bad("delivery.max_backoff_ms: must be at least delivery.initial_backoff_ms", c -> c.put("delivery",
            new JsonObject().put("initial_backoff_ms", 5000).put("max_backoff_ms", 4000))),
        bad("workspaces[0].rate_limit.burst: must be", c -> ws(c).put("rate_limit", new JsonObject().put("burst", 0.5))),
        bad("database.url: must look like postgresql://",
            c -> c.getJsonObject("database").put("url", "mysql://x")),
        bad("http.prot: unknown key", c -> c.getJsonObject("http").put("prot", 1)),
        bad("http.port: must be a whole number", c -> c.getJsonObject("http").put("port", 70000)),
        bad("workspaces[0].rate_limit.per_second", c -> ws(c).put("rate_limit", new JsonObject().put("per_second", 0))),
        bad("database.url: must look like postgresql://", c -> c.getJsonObject("database").put("url", "mysql://x")),
        bad("workspaces[0].bot_name", c -> ws(c).put("bot_name", "t.me/some bot")),
        bad("workspaces[0].attribution_window_days", c -> ws(c).put("attribution_window_days", 0)),
        bad("session.source_timeout_ms", c -> c.put("session", new JsonObject().put("source_timeout_ms", "fast"))),
        bad("session.timeout: unknown key", c -> c.put("session", new JsonObject().put("timeout", 1))),
        bad("workspaces[0].integrations[0].type", c -> ws(c).put("integrations", new JsonArray()
            .add(meta().put("type", "google")))),
        bad("workspaces[0].integrations[0].access_token: required", c -> ws(c).put("integrations", new JsonArray()
            .add(meta().put("access_token", null)))),
        bad("workspaces[0].integrations[0].pixel_id", c -> ws(c).put("integrations", new JsonArray()
            .add(meta().put("pixel_id", "abc")))),
        bad("workspaces[0].integrations[0].pixel_code: unknown key", c -> ws(c).put("integrations", new JsonArray()
            .add(meta().put("pixel_code", "C4")))),
        bad("workspaces[0].integrations[0].action_source", c -> ws(c).put("integrations", new JsonArray()
            .add(meta().put("action_source", "telegram")))),
        bad("workspaces[0].integrations[1].id: duplicate", c -> ws(c).put("integrations", new JsonArray()
            .add(meta()).add(meta()))),
        bad("workspaces[0].integrations[0].event_source", c -> ws(c).put("integrations", new JsonArray()
            .add(tiktok().put("event_source", "telegram")))),
        bad("delivery.batch_size", c -> c.put("delivery", new JsonObject().put("batch_size", 1001))),
        bad("delivery.breaker.failure_threshold", c -> c.put("delivery", new JsonObject()
            .put("breaker", new JsonObject().put("failure_threshold", 0)))),
        bad("workspaces[0].event_map.VIP.moneytary: unknown key", c -> ws(c).put("event_map", new JsonObject()
            .put("VIP", new JsonObject().put("moneytary", true)))));
  }

  private static JsonObject meta() {
    return new JsonObject().put("id", "m").put("type", "meta").put("pixel_id", "123").put("access_token", "tok-secret-1");
  }

  private static JsonObject tiktok() {
    return new JsonObject().put("id", "t").put("type", "tiktok").put("pixel_code", "C4AB").put("access_token", "tok-secret-2");
  }

  private static JsonObject ws(JsonObject config) {
    return config.getJsonArray("workspaces").getJsonObject(0);
  }

  private static Arguments bad(String expected, Consumer<JsonObject> change) {
    JsonObject config = valid();
    change.accept(config);
    return Arguments.of(expected, config);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidConfigs")
  @DisplayName("an invalid config stops the start with a message naming the path of the bad value")
  void invalidConfigNamesPath(String expected, JsonObject config) {
    assertThatThrownBy(() -> resolve(config, Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining(expected);
  }

  @Test
  @DisplayName("session settings: bot_name (a leading @ is dropped), attribution window and source time budget")
  void sessionSettings() {
    JsonObject config = valid().put("session", new JsonObject().put("source_timeout_ms", 150));
    ws(config).put("bot_name", "@MyPromoBot").put("attribution_window_days", 7);

    AppConfig resolved = resolve(config, Map.of());

    assertThat(resolved.session().sourceTimeoutMs()).isEqualTo(150);
    assertThat(resolved.workspaces().get(0).botName()).isEqualTo("MyPromoBot");
    assertThat(resolved.workspaces().get(0).attributionWindowDays()).isEqualTo(7);
    AppConfig defaults = resolve(valid(), Map.of());
    assertThat(defaults.session().sourceTimeoutMs()).isEqualTo(200);
    assertThat(defaults.workspaces().get(0).attributionWindowDays()).isEqualTo(28);
    assertThat(defaults.workspaces().get(0).botName()).isNull();
  }

  @Test
  @DisplayName("integrations take the documented defaults, and their tokens are printed nowhere")
  void integrationDefaults() {
    JsonObject config = valid();
    ws(config).put("bot_name", "demo_bot")
        .put("integrations", new JsonArray().add(meta()).add(tiktok().put("enabled", false)));

    AppConfig resolved = resolve(config, Map.of());

    IntegrationConfig meta = resolved.workspaces().get(0).integrations().get(0);
    assertThat(meta.network()).isEqualTo(Network.META);
    assertThat(meta.apiBase()).isEqualTo("https://graph.facebook.com");
    assertThat(meta.apiVersion()).isEqualTo("v25.0");
    assertThat(meta.source()).isEqualTo("chat");
    assertThat(meta.testEventCode()).isNull();
    assertThat(meta.enabled()).isTrue();
    assertThat(meta.dryRun()).isFalse();
    IntegrationConfig tiktok = resolved.workspaces().get(0).integrations().get(1);
    assertThat(tiktok.apiBase()).isEqualTo("https://business-api.tiktok.com");
    assertThat(tiktok.source()).isEqualTo("web");
    assertThat(tiktok.pageUrl()).as("the bot's link when no page_url is set").isEqualTo("https://t.me/demo_bot");
    assertThat(tiktok.enabled()).isFalse();
    assertThat(resolved.toString()).doesNotContain("tok-secret-1", "tok-secret-2");
    assertThat(resolved.delivery().batchSize()).isEqualTo(500);
    assertThat(resolved.delivery().breakerFailures()).isEqualTo(5);
  }

  @Test
  @DisplayName("a TikTok web integration needs a page URL: page_url wins over the bot link; neither is refused")
  void tiktokPageUrl() {
    JsonObject config = valid();
    ws(config).put("bot_name", "demo_bot").put("integrations", new JsonArray()
        .add(tiktok().put("page_url", "https://promo.example.com/landing")));
    assertThat(resolve(config, Map.of()).workspaces().get(0).integrations().get(0).pageUrl())
        .isEqualTo("https://promo.example.com/landing");

    JsonObject app = valid();
    ws(app).put("integrations", new JsonArray().add(tiktok().put("event_source", "app")));
    assertThat(resolve(app, Map.of()).workspaces().get(0).integrations().get(0).pageUrl()).isNull();

    JsonObject neither = valid();
    ws(neither).put("integrations", new JsonArray().add(tiktok()));
    assertThatThrownBy(() -> resolve(neither, Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("workspaces[0].integrations[0].page_url: required for a web integration");

    JsonObject badUrl = valid();
    ws(badUrl).put("bot_name", "demo_bot").put("integrations", new JsonArray().add(tiktok().put("page_url", "t.me/x")));
    assertThatThrownBy(() -> resolve(badUrl, Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("workspaces[0].integrations[0].page_url: must be an absolute http(s) URL");
  }

  @Test
  @DisplayName("an event_map row overrides only what it names; a new name can be made monetary")
  void eventMapOverrides() {
    JsonObject config = valid();
    ws(config).put("event_map", new JsonObject()
        .put("REG", new JsonObject().put("tiktok", "CompleteRegistration"))
        .put("VIP", new JsonObject().put("meta", "Purchase").put("tiktok", "CompletePayment").put("monetary", true)));

    WorkspaceConfig workspace = resolve(config, Map.of()).workspaces().get(0);

    assertThat(dev.eventrouter.event.EventMap.mapping(workspace, "REG"))
        .isEqualTo(new EventMapping("CompleteRegistration", "CompleteRegistration", false));
    assertThat(dev.eventrouter.event.EventMap.requiresValue(workspace, "VIP")).isTrue();
    assertThat(dev.eventrouter.event.EventMap.mapping(workspace, "FTD"))
        .isEqualTo(new EventMapping("Purchase", "CompletePayment", true));
    assertThat(dev.eventrouter.event.EventMap.mapping(workspace, "Level Up"))
        .isEqualTo(new EventMapping("Level Up", "Level Up", false));
  }

  @Test
  @DisplayName("a bad integration is reported without quoting its token")
  void tokenNotEchoed() {
    JsonObject config = valid();
    ws(config).put("integrations", new JsonArray().add(meta().put("pixel_id", "x")));

    assertThatThrownBy(() -> resolve(config, Map.of())).hasMessageNotContaining("tok-secret-1");
  }

  @Test
  @DisplayName("a plain key is refused without echoing it")
  void plainKeyNotEchoed() {
    JsonObject config = valid();
    ws(config).put("api_keys", new JsonArray().add("my-plain-secret-key"));

    assertThatThrownBy(() -> resolve(config, Map.of())).hasMessageNotContaining("my-plain-secret-key");
  }

  @Test
  @DisplayName("${ENV_NAME} inside strings is replaced from the environment; a missing variable is named with its path")
  void environmentSubstitution() {
    JsonObject config = valid();
    config.getJsonObject("database").put("url", "postgresql://app:${DB_PASS}@db:5432/events");

    AppConfig resolved = resolve(config, Map.of("DB_PASS", "s3cret"));
    assertThat(resolved.database().url()).isEqualTo("postgresql://app:s3cret@db:5432/events");
    assertThat(resolved.database().toString()).doesNotContain("s3cret");

    assertThatThrownBy(() -> resolve(config, Map.of()))
        .hasMessageContaining("database.url: environment variable DB_PASS is not set");
  }

  @Test
  @DisplayName("DATABASE_URL in the environment wins over database.url")
  void databaseUrlFromEnvironment() {
    JsonObject config = valid();
    config.getJsonObject("database").put("url", "postgresql://a@file:5432/x");

    AppConfig resolved = resolve(config, Map.of("DATABASE_URL", "postgresql://b@env:5432/y"));

    assertThat(resolved.database().url()).isEqualTo("postgresql://b@env:5432/y");
    assertThat(resolved.database().embedded()).isFalse();
  }

  @Test
  @DisplayName("--config wins over EVENT_ROUTER_CONFIG, which wins over conf/config.json")
  void configPath() {
    assertThat(new ConfigLoader(Map.of("EVENT_ROUTER_CONFIG", "/etc/er.json")).path("cli.json"))
        .isEqualTo(Path.of("cli.json"));
    assertThat(new ConfigLoader(Map.of("EVENT_ROUTER_CONFIG", "/etc/er.json")).path(null))
        .isEqualTo(Path.of("/etc/er.json"));
    assertThat(new ConfigLoader(Map.of()).path(null)).isEqualTo(Path.of("conf/config.json"));
  }

  @Test
  @DisplayName("a config file that is not JSON fails with a config error naming the file")
  void notJson(Vertx vertx, @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path file = dir.resolve("broken.json");
    java.nio.file.Files.writeString(file, "{\"http\": ");

    assertThatThrownBy(() -> new ConfigLoader(Map.of()).load(vertx, file).await())
        .isInstanceOf(ConfigException.class).hasMessageContaining("broken.json");
  }
}
