package dev.eventrouter.config;

import dev.eventrouter.common.ProxyConfig;
import dev.eventrouter.event.EventMap;
import dev.eventrouter.event.EventMapping;
import dev.eventrouter.http.ApiKeyAuthenticator;
import dev.eventrouter.support.LogCapture;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

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
    WorkspaceConfig demo = new ApiKeyAuthenticator(config.workspaces()).authenticate("demo-key-change-me", Instant.now()).workspace();
    assertThat(demo).isNotNull();
    assertThat(demo.id()).isEqualTo(UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7"));
    assertThat(demo.rateLimit()).isEqualTo(new RateLimitConfig(500, 1000));
    assertThat(demo.botName()).isEqualTo("demo_router_bot");
    assertThat(demo.publishableKeys()).hasSize(1);
    assertThat(demo.publishableKeys().get(0).hash()).as("the demo page's key")
        .isEqualTo(ApiKeys.digest("demo-publishable-key"));
    assertThat(demo.publishableKeys().get(0).allowedOrigins())
        .containsExactly("http://localhost:8080", "http://127.0.0.1:8080");
  }

  @Test
  @DisplayName("the README's two cluster configs load: the same demo workspace, each node naming the other")
  void shippedClusterConfigs() {
    ConfigLoader loader = new ConfigLoader(Map.of());
    AppConfig a = loader.readNow(Path.of("conf/cluster-a.json"));
    AppConfig b = loader.readNow(Path.of("conf/cluster-b.json"));
    assertThat(a.cluster()).isEqualTo(new ClusterConfig(true, "127.0.0.1", 5701, 0, List.of("127.0.0.1:5702")));
    assertThat(b.cluster()).isEqualTo(new ClusterConfig(true, "127.0.0.1", 5702, 0, List.of("127.0.0.1:5701")));
    assertThat(List.of(a.http().port(), b.http().port())).containsExactly(8080, 8081);
    assertThat(a.database().url()).isEqualTo(b.database().url())
        .isEqualTo("postgresql://postgres@localhost:15432/postgres");
    assertThat(a.workspaces()).hasSameSizeAs(resolve(valid(), Map.of()).workspaces());
    assertThat(new ApiKeyAuthenticator(b.workspaces()).authenticate("demo-key-change-me", Instant.now())).isNotNull();

    AppConfig docker = new ConfigLoader(Map.of("NODE_HOST", "node-a", "PEER_HOST", "node-b",
        "DATABASE_URL", "postgresql://events:pw@db:5432/events")).readNow(Path.of("conf/cluster-docker.json"));
    assertThat(docker.cluster()).isEqualTo(new ClusterConfig(true, "node-a", 5701, 0, List.of("node-b:5701")));
    assertThat(docker.database().url()).isEqualTo("postgresql://events:pw@db:5432/events");
  }

  private static JsonObject publishable(String key, String origin) {
    return new JsonObject().put("key", key).put("allowed_origins", new JsonArray().add(origin));
  }

  @Test
  @DisplayName("publishable keys with their origins, trusted proxies and the per-IP limit are read as written")
  void publishableKeys() {
    JsonObject json = valid();
    ws(json).put("publishable_keys", new JsonArray()
        .add(publishable(ApiKeys.configValue("pk-1"), "https://lp.example"))
        .add(new JsonObject().put("key", ApiKeys.configValue("pk-2")).put("allowed_origins", new JsonArray()
            .add("http://localhost:8080").add("https://[2001:db8::1]:8443").add("https://a-b.c.example"))));
    json.getJsonObject("http").put("trusted_proxies", new JsonArray().add("127.0.0.1").add("10.0.0.0/8")
        .add("2001:db8::/32")).put("publishable_rate_limit", new JsonObject().put("per_second", 2).put("burst", 5));

    AppConfig config = resolve(json, Map.of());

    List<PublishableKey> keys = config.workspaces().get(0).publishableKeys();
    assertThat(keys).hasSize(2);
    assertThat(keys.get(0).hash()).isEqualTo(ApiKeys.digest("pk-1"));
    assertThat(keys.get(0).allowedOrigins()).containsExactly("https://lp.example");
    assertThat(keys.get(1).allowedOrigins()).containsExactly("http://localhost:8080", "https://[2001:db8::1]:8443",
        "https://a-b.c.example");
    assertThat(config.http().trustedProxies()).containsExactly("127.0.0.1", "10.0.0.0/8", "2001:db8::/32");
    assertThat(config.http().publishableRateLimit()).isEqualTo(new RateLimitConfig(2, 5));
    AppConfig bare = resolve(valid(), Map.of());
    assertThat(bare.workspaces().get(0).telegram()).isNull();
    JsonObject withTelegram = valid();
    ws(withTelegram).put("telegram", new JsonObject().put("webhook_secret", "${TG_SECRET}")
        .put("start_event", "BotStart"));
    AppConfig telegram = resolve(withTelegram, Map.of("TG_SECRET", "s3cret_0123456789-abc"));
    assertThat(telegram.workspaces().get(0).telegram()).isEqualTo(TelegramConfig.receiverOnly(null, "s3cret_0123456789-abc",
        "BotStart"));
    assertThat(telegram.toString()).as("the secret is never printed").doesNotContain("s3cret_0123456789-abc");
    assertThat(telegram.workspaces().get(0).telegram().toString())
        .isEqualTo("TelegramConfig[bot=null start_event=BotStart channels=[]]");
    ws(withTelegram).getJsonObject("telegram").put("bot_token", "${TG_TOKEN}").put("channel_id", -1001234567890L)
        .put("invite_link_pool", 3).put("approve_join_requests", true).put("api_base", "http://127.0.0.1:9/")
        .put("pass_through", new JsonObject().put("url", "https://bot.example/hook")
            .put("secret_token", "${BOT_SECRET}"));
    TelegramConfig bot = resolve(withTelegram, Map.of("TG_SECRET", "s3cret_0123456789-abc",
        "TG_TOKEN", "123456:AAbbCCdd_eeFF-gg0123456789", "BOT_SECRET", "bots-own-secret-0123"))
        .workspaces().get(0).telegram();
    assertThat(bot).isEqualTo(new TelegramConfig(null, "s3cret_0123456789-abc", "BotStart",
        "123456:AAbbCCdd_eeFF-gg0123456789", List.of("-1001234567890"), 3, true, "http://127.0.0.1:9",
        new TelegramConfig.PassThrough("https://bot.example/hook", "bots-own-secret-0123", false), null));
    assertThat(bot.makesInviteLinks()).isTrue();
    ws(withTelegram).put("telegram", new JsonObject().put("webhook_secret", "${TG_SECRET}")
        .put("bot_token", "${TG_TOKEN}").put("channel_id", "@signals_ch"));
    TelegramConfig defaults = resolve(withTelegram, Map.of("TG_SECRET", "s3cret_0123456789-abc",
        "TG_TOKEN", "123456:AAbbCCdd_eeFF-gg0123456789")).workspaces().get(0).telegram();
    assertThat(defaults).isEqualTo(new TelegramConfig(null, "s3cret_0123456789-abc", null,
        "123456:AAbbCCdd_eeFF-gg0123456789", List.of("@signals_ch"), TelegramConfig.DEFAULT_INVITE_LINK_POOL, false,
        TelegramConfig.DEFAULT_API_BASE, null, null));
    ws(withTelegram).getJsonObject("telegram").remove("channel_id");
    assertThat(resolve(withTelegram, Map.of("TG_SECRET", "s3cret_0123456789-abc",
        "TG_TOKEN", "123456:AAbbCCdd_eeFF-gg0123456789")).workspaces().get(0).telegram().makesInviteLinks())
        .as("a bot without a channel makes no links").isFalse();
    assertThat(bot.passThrough().toString()).isEqualTo("PassThrough[https://bot.example/hook]");
    assertThat(bot.toString() + bot.passThrough()).doesNotContain("AAbbCCdd").doesNotContain("bots-own-secret");
    assertThat(bare.workspaces().get(0).publishableKeys()).isEmpty();
    assertThat(bare.http().trustedProxies()).isEmpty();
    assertThat(bare.http().publishableRateLimit()).isEqualTo(HttpConfig.DEFAULT_PUBLISHABLE_RATE_LIMIT);
  }

  @Test
  @DisplayName("omitted values take the documented defaults")
  void defaults() {
    AppConfig config = resolve(valid().put("http", new JsonObject()), Map.of());

    assertThat(config.http().host()).isEqualTo("0.0.0.0");
    assertThat(config.http().port()).isEqualTo(8080);
    assertThat(config.http().maxBodyBytes()).isEqualTo(65536);
    assertThat(config.workspaces().get(0).rateLimit()).isEqualTo(RateLimitConfig.DEFAULT);
    assertThat(config.http().publishableShare()).isEqualTo(0.5);
    assertThat(config.http().limits()).isEqualTo(new HttpConfig.ServerLimits(60, 10_000, 4096, 64L * 1024 * 1024));
    assertThat(config.management()).isEqualTo(new ManagementConfig("127.0.0.1", 9464, null, false));
  }

  @Test
  @DisplayName("the server's limits, the publishable share and the management listener are read as given")
  void limitsAndManagement() {
    JsonObject config = valid();
    config.getJsonObject("http").put("publishable_share", 1).put("idle_timeout_s", 1).put("read_timeout_ms", 100)
        .put("max_connections", 1).put("max_buffered_bytes", 1024);
    config.put("management", new JsonObject().put("host", "0.0.0.0").put("port", 0)
        .put("token", "${MGMT_TOKEN}").put("http_server_metrics", true));
    AppConfig resolved = resolve(config, Map.of("MGMT_TOKEN", "t".repeat(24)));
    assertThat(resolved.http().publishableShare()).isEqualTo(1.0);
    assertThat(resolved.http().limits()).isEqualTo(new HttpConfig.ServerLimits(1, 100, 1, 1024));
    assertThat(resolved.management()).isEqualTo(new ManagementConfig("0.0.0.0", 0, "t".repeat(24), true));
    config.getJsonObject("http").put("idle_timeout_s", 3600).put("read_timeout_ms", 600_000)
        .put("max_connections", 1_000_000).put("max_buffered_bytes", 64L * 1024 * 1024 * 1024)
        .put("publishable_share", 0.01);
    config.getJsonObject("management").put("port", 65535).put("token", "A-z0.9_~+/=".repeat(24).substring(0, 256));
    AppConfig edges = resolve(config, Map.of());
    assertThat(edges.http().limits()).isEqualTo(new HttpConfig.ServerLimits(3600, 600_000, 1_000_000,
        64L * 1024 * 1024 * 1024));
    assertThat(edges.http().publishableShare()).isEqualTo(0.01);
    assertThat(edges.management().port()).isEqualTo(65535);
    assertThat(resolved.http().withLimits(HttpConfig.ServerLimits.DEFAULT).limits())
        .isEqualTo(HttpConfig.ServerLimits.DEFAULT);
    assertThat(resolved.http().withLimits(HttpConfig.ServerLimits.DEFAULT).publishableShare()).isEqualTo(1.0);
  }

  @Test
  @DisplayName("a visitor's capture leaves a fifth of the invite-link pool, rounded down, to the bot's own")
  void anonymousReserve() {
    assertThat(new TelegramConfig(null, "s".repeat(16), null, "t", List.of("-1001"), 5, false, null, null, null).anonymousReserve())
        .isEqualTo(1);
    assertThat(new TelegramConfig(null, "s".repeat(16), null, "t", List.of("-1001"), 4, false, null, null, null).anonymousReserve())
        .isZero();
    assertThat(new TelegramConfig(null, "s".repeat(16), null, "t", List.of("-1001"), 20, false, null, null, null).anonymousReserve())
        .isEqualTo(4);
  }

  @Test
  @DisplayName("the report's settings: currency, aliases (any case, to ISO codes), funnel events, the rollups' "
      + "upkeep; their defaults; each bad one named")
  void reportSettings() {
    AppConfig defaults = resolve(valid(), Map.of());
    assertThat(defaults.workspaces().get(0).report()).isEqualTo(ReportConfig.DEFAULT);
    assertThat(defaults.reports()).isEqualTo(ReportsConfig.DEFAULT);
    JsonObject json = valid().put("reports", new JsonObject().put("rates_file", "conf/rates.csv")
        .put("rollup_every_ms", 100).put("rollup_lag_ms", 0).put("retention_days", 3650)
        .put("rollup_budget_percent", 100).put("cohorts", false));
    ws(json).put("report_currency", "eur").put("currency_aliases", new JsonObject().put("usdt", "usd")
        .put("Ab", "GBP").put("X123456789", "jpy")).put("funnel_events", new JsonArray().add("Reg").add("FTD 2"))
        .put("report_timezone", "Europe/Kyiv");
    AppConfig config = resolve(json, Map.of());
    assertThat(config.workspaces().get(0).report()).isEqualTo(new ReportConfig("EUR",
        Map.of("USDT", "USD", "AB", "GBP", "X123456789", "JPY"), List.of("Reg", "FTD 2"),
        java.time.ZoneId.of("Europe/Kyiv")));
    assertThat(ReportConfig.DEFAULT.zone()).isEqualTo(java.time.ZoneOffset.UTC);
    ws(json).put("report_timezone", "Etc/UTC");
    assertThat(resolve(json, Map.of()).workspaces().get(0).report().zone()).as("one id for UTC")
        .isEqualTo(java.time.ZoneOffset.UTC);
    ws(json).put("report_timezone", "Etc/GMT-14");
    assertThat(resolve(json, Map.of()).workspaces().get(0).report().zone().getId())
        .as("a fixed zone keeps its region id: PostgreSQL reads +14:00 as UTC-14").isEqualTo("Etc/GMT-14");
    for (String offset : List.of("+14:00", "UTC+14:00", "GMT+5", "CET")) {
      ws(json).put("report_timezone", offset);
      assertThatThrownBy(() -> resolve(json, Map.of())).as(offset).isInstanceOf(ConfigException.class)
          .hasMessageContaining("workspaces[0].report_timezone: " + ReportZone.RULE);
    }
    ws(json).put("report_timezone", "Europe/Kyiv");
    assertThat(config.workspaces().get(0).report().unaliased("usdt")).isEqualTo("USD");
    assertThat(config.workspaces().get(0).report().unaliased("eur")).isEqualTo("eur");
    assertThat(config.reports()).isEqualTo(new ReportsConfig("conf/rates.csv", 100, 0, 3650, 100, 4, 2, false));

    JsonObject bad = valid().put("reports", new JsonObject().put("rollup_every_ms", 99).put("rollup_lag_ms", -1)
        .put("retention_days", 0).put("rollup_budget_percent", 0).put("keep", true).put("cohorts", "no"));
    ws(bad).put("report_currency", "XYZ").put("currency_aliases", new JsonObject().put("U", "USD")
        .put("USDT", "XYZ").put("X1234567890", "USD").put("US-T", "USD").put("USDC", 840))
        .put("funnel_events", new JsonArray().add("bad/name")).put("report_timezone", "Mars/Base");
    assertThatThrownBy(() -> resolve(bad, Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("workspaces[0].report_timezone: must be an IANA time zone")
        .hasMessageContaining("reports.keep: unknown key")
        .hasMessageContaining("reports.rollup_every_ms: must be")
        .hasMessageContaining("reports.rollup_lag_ms: must be")
        .hasMessageContaining("reports.retention_days: must be")
        .hasMessageContaining("reports.rollup_budget_percent: must be")
        .hasMessageContaining("reports.cohorts: must be true or false")
        .hasMessageContaining("workspaces[0].report_currency: must be a 3-letter ISO 4217 code such as USD")
        .hasMessageContaining("workspaces[0].currency_aliases.U: must map")
        .hasMessageContaining("workspaces[0].currency_aliases.USDT: must map")
        .hasMessageContaining("workspaces[0].currency_aliases.X1234567890: must map")
        .hasMessageContaining("workspaces[0].currency_aliases.US-T: must map")
        .hasMessageContaining("workspaces[0].currency_aliases.USDC: must map")
        .hasMessageContaining("workspaces[0].funnel_events[0]: must be an event name");
  }

  @Test
  @DisplayName("the reconciliation's settings: a workspace's threshold and its table per network, the recount's "
      + "hours; their defaults; each bad one named")
  void reconcileSettings() {
    AppConfig defaults = resolve(valid(), Map.of());
    assertThat(defaults.workspaces().get(0).report().reconcile()).isEqualTo(ReportConfig.Reconcile.DEFAULT);
    assertThat(ReportConfig.Reconcile.DEFAULT.threshold()).isEqualTo(0.8);
    assertThat(defaults.reports().reconcileLookbackHours()).isEqualTo(48);
    JsonObject json = valid().put("reports", new JsonObject().put("reconcile_lookback_hours", 168));
    ws(json).put("reconcile", new JsonObject().put("threshold", 1).put("actions", new JsonObject()
        .put("meta", new JsonObject().put("StartTrial", "offsite_conversion.fb_pixel_start_trial"))
        .put("tiktok", new JsonObject().put("SubmitForm", "conversion"))));
    AppConfig config = resolve(json, Map.of());
    ReportConfig.Reconcile reconcile = config.workspaces().get(0).report().reconcile();
    assertThat(reconcile.threshold()).isEqualTo(1.0);
    assertThat(reconcile.actions("meta")).isEqualTo(Map.of("StartTrial", "offsite_conversion.fb_pixel_start_trial"));
    assertThat(reconcile.actions("tiktok")).isEqualTo(Map.of("SubmitForm", "conversion"));
    assertThat(config.reports().reconcileLookbackHours()).isEqualTo(168);
    ws(json).put("reconcile", new JsonObject().put("threshold", 0.05));
    assertThat(resolve(json, Map.of()).workspaces().get(0).report().reconcile())
        .isEqualTo(new ReportConfig.Reconcile(0.05, Map.of()));
    assertThat(ReportConfig.Reconcile.DEFAULT.actions("meta")).isEmpty();

    JsonObject bad = valid().put("reports", new JsonObject().put("reconcile_lookback_hours", 169));
    ws(bad).put("reconcile", new JsonObject().put("threshold", 1.5).put("colour", 1).put("actions", new JsonObject()
        .put("google", new JsonObject()).put("tiktok", "conversion")
        .put("meta", new JsonObject().put("bad/name", "x").put("Lead", "Offsite.Lead").put("Chat", 3))));
    assertThatThrownBy(() -> resolve(bad, Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("reports.reconcile_lookback_hours: must be a whole number from 1 to 168")
        .hasMessageContaining("workspaces[0].reconcile.threshold: must be a share above 0 and at most 1")
        .hasMessageContaining("workspaces[0].reconcile.colour: unknown key")
        .hasMessageContaining("workspaces[0].reconcile.actions.google: must be meta or tiktok")
        .hasMessageContaining("workspaces[0].reconcile.actions.tiktok: must be meta or tiktok")
        .hasMessageContaining("workspaces[0].reconcile.actions.meta.bad/name: must map an event name")
        .hasMessageContaining("workspaces[0].reconcile.actions.meta.Lead: must map an event name")
        .hasMessageContaining("workspaces[0].reconcile.actions.meta.Chat: must map an event name");
    ws(bad).put("reconcile", new JsonObject().put("threshold", 0));
    assertThatThrownBy(() -> resolve(bad, Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("workspaces[0].reconcile.threshold: must be a number greater than 0");
  }


  @Test
  @DisplayName("reports running at once: by default the report pool's connections (the read pool's, database.pool_size "
      + "/ 2, at least 2) per node and half of them per workspace; at most that many, each")
  void concurrentReports() {
    ReportsConfig defaults = resolve(valid(), Map.of()).reports();
    assertThat(List.of(defaults.maxConcurrent(), defaults.maxConcurrentPerWorkspace())).containsExactly(4, 2);
    assertThat(ReportsConfig.DEFAULT).isEqualTo(defaults);
    JsonObject small = valid();
    small.getJsonObject("database").put("pool_size", 3);
    ReportsConfig two = resolve(small, Map.of()).reports();
    assertThat(List.of(two.maxConcurrent(), two.maxConcurrentPerWorkspace())).containsExactly(2, 1);
    JsonObject large = valid();
    large.getJsonObject("database").put("pool_size", 200);
    ReportsConfig hundred = resolve(large, Map.of()).reports();
    assertThat(List.of(hundred.maxConcurrent(), hundred.maxConcurrentPerWorkspace())).containsExactly(100, 50);
    ReportsConfig set = resolve(valid().put("reports", new JsonObject().put("max_concurrent", 3)), Map.of())
        .reports();
    assertThat(List.of(set.maxConcurrent(), set.maxConcurrentPerWorkspace())).containsExactly(3, 1);
    ReportsConfig both = resolve(valid().put("reports", new JsonObject().put("max_concurrent", 1)
        .put("max_concurrent_per_workspace", 1)), Map.of()).reports();
    assertThat(List.of(both.maxConcurrent(), both.maxConcurrentPerWorkspace())).containsExactly(1, 1);
    ReportsConfig all = resolve(valid().put("reports", new JsonObject().put("max_concurrent_per_workspace", 4)),
        Map.of()).reports();
    assertThat(all.maxConcurrentPerWorkspace()).isEqualTo(4);

    assertThatThrownBy(() -> resolve(valid().put("reports", new JsonObject().put("max_concurrent", 5)
        .put("max_concurrent_per_workspace", 5)), Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("reports.max_concurrent: must be a whole number from 1 to 4")
        .hasMessageContaining("reports.max_concurrent_per_workspace: must be a whole number from 1 to 4");
    assertThatThrownBy(() -> resolve(valid().put("reports", new JsonObject().put("max_concurrent", 0)
        .put("max_concurrent_per_workspace", 0)), Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("reports.max_concurrent: must be a whole number from 1 to 4")
        .hasMessageContaining("reports.max_concurrent_per_workspace: must be a whole number from 1 to 4");
    assertThatThrownBy(() -> resolve(valid().put("reports", new JsonObject().put("max_concurrent", 2)
        .put("max_concurrent_per_workspace", 3)), Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("reports.max_concurrent_per_workspace: must be a whole number from 1 to 2");
  }
  @Test
  @DisplayName("a postback source: its token kept as a digest, the partner's names over the synonyms, its words over "
      + "the defaults; send_on defaults to approved for the networks and every status for webhooks")
  void postbackSource() {
    JsonObject json = valid();
    ws(json).put("postback_sources", new JsonArray().add(new JsonObject().put("id", "casino")
            .put("token", ApiKeys.configValue("token-0123456789abcdefghij")).put("click_id_holds", "telegram_id")
            .put("params", new JsonObject().put("click_id", new JsonArray().add("sub1").add("aff_sub")))
            .put("events", new JsonObject().put("Dep", "FTD"))
            .put("statuses", new JsonObject().put("approved", new JsonArray().add(1)).put("rejected", "fraud"))
            .put("macros", new JsonObject().put("telegram_id", "{uid}").put("value", "[PAYOUT]"))
            .put("default_event", "FTD").put("default_currency", "eur"))
            .add(new JsonObject().put("id", "second").put("token", ApiKeys.configValue("token-second-0123456789"))
                .put("params", new JsonObject().put("value", "sum"))))
        .put("integrations", new JsonArray().add(new JsonObject().put("id", "h").put("type", "webhook")
            .put("url", "https://hook.example/x").put("secret", "s".repeat(16)))
            .add(new JsonObject().put("id", "m").put("type", "meta").put("pixel_id", "1").put("access_token", "t")
                .put("send_on", new JsonArray().add("pending").add("approved"))));
    WorkspaceConfig workspace = resolve(json, Map.of()).workspaces().get(0);
    PostbackSource source = workspace.postbackSources().get(0);
    assertThat(source.tokenHash()).isEqualTo(ApiKeys.digest("token-0123456789abcdefghij"));
    assertThat(source.clickIdHolds()).isEqualTo("telegram_id");
    assertThat(source.params().get("click_id")).containsExactly("sub1", "aff_sub");
    assertThat(source.params().get("value")).containsExactly("payout", "revenue", "amount", "sum", "value");
    assertThat(source.events()).containsEntry("dep", "FTD").containsEntry("ftd", "FTD")
        .containsEntry("registration", "REG");
    assertThat(source.statuses()).containsEntry("1", "approved").containsEntry("fraud", "rejected")
        .containsEntry("hold", "pending").containsEntry("chargeback", "chargeback");
    assertThat(source.defaultCurrency()).isEqualTo("EUR");
    assertThat(workspace.unsubscribeWindowDays()).isEqualTo(WorkspaceConfig.DEFAULT_UNSUBSCRIBE_WINDOW_DAYS);
    assertThat(workspace.integrations().get(0).sendOn())
        .containsExactlyInAnyOrder("pending", "approved", "rejected", "chargeback");
    assertThat(IntegrationConfig.defaultSendOn(Network.META)).containsExactly("approved");
    IntegrationConfig hook = workspace.integrations().get(0);
    assertThat(hook.sendsOnce()).as("a webhook gets every change").isFalse();
    assertThat(hook.sendsOn("chargeback")).isTrue();
    assertThat(hook.withTestEventCode("T").sendOn()).isEqualTo(hook.sendOn());
    assertThat(source.urlTemplate("https://t.example", "<token>")).as("no event with a default one; the user with a "
        + "macro").isEqualTo("https://t.example/api/v1/postbacks/<token>?sub1={sub1}&telegram_id={uid}"
        + "&payout=[PAYOUT]&status={status}&tid={tid}");
    assertThat(source.macros()).containsOnly(Map.entry("telegram_id", "{uid}"), Map.entry("value", "[PAYOUT]"));
    assertThat(source.defaultEvent()).isEqualTo("FTD");
    assertThat(source.toString()).isEqualTo("PostbackSource[casino]");
    PostbackSource second = workspace.postbackSources().get(1);
    assertThat(second.params().get("value")).containsExactly("sum");
    assertThat(second.urlTemplate("https://t.example", "T")).isEqualTo("https://t.example/api/v1/postbacks/T"
        + "?subid={subid}&event={event}&sum={sum}&status={status}&tid={tid}");
    JsonObject cake = valid();
    ws(cake).put("postback_sources", new JsonArray().add(new JsonObject().put("id", "cake")
        .put("token", ApiKeys.configValue("token-cake-0123456789abcd")).put("params", new JsonObject()
            .put("click_id", "s2").put("value", "price"))
        .put("macros", new JsonObject().put("click_id", "#s2#").put("value", "#price#")
            .put("transaction_id", "#tid#"))));
    assertThat(resolve(cake, Map.of()).workspaces().get(0).postbackSources().get(0)
        .urlTemplate("https://t.example", "T")).as("CAKE's macros").isEqualTo("https://t.example/api/v1/postbacks/T"
        + "?s2=#s2#&event={event}&price=#price#&status={status}&tid=#tid#");
    IntegrationConfig meta = workspace.integrations().get(1);
    assertThat(meta.sendOn()).containsExactlyInAnyOrder("pending", "approved");
    assertThat(meta.sendsOn("pending")).isTrue();
    assertThat(meta.sendsOn("rejected")).isFalse();
    assertThat(meta.sendsOnce()).isTrue();
  }

  /** A valid postback source, for the refusals to change one thing of. */
  private static JsonObject source() {
    return new JsonObject().put("id", "p").put("token", ApiKeys.configValue("t1"));
  }

  static Stream<Arguments> invalidConfigs() {
    return Stream.of(
        bad("http.publishable_share: must be at most 1", c -> c.getJsonObject("http").put("publishable_share", 1.01)),
        bad("http.publishable_share: must be a number greater than 0",
            c -> c.getJsonObject("http").put("publishable_share", 0)),
        bad("http.idle_timeout_s", c -> c.getJsonObject("http").put("idle_timeout_s", 0)),
        bad("http.read_timeout_ms", c -> c.getJsonObject("http").put("read_timeout_ms", 99)),
        bad("http.max_connections", c -> c.getJsonObject("http").put("max_connections", 0)),
        bad("http.max_buffered_bytes", c -> c.getJsonObject("http").put("max_buffered_bytes", 1023)),
        bad("management.token: 24 to 256", c -> c.put("management", new JsonObject().put("token", "short"))),
        bad("management.token: 24 to 256", c -> c.put("management", new JsonObject().put("token",
            "x".repeat(257)))),
        bad("management.token: 24 to 256", c -> c.put("management", new JsonObject().put("token",
            "has a space in it, twenty-four"))),
        bad("management.port", c -> c.put("management", new JsonObject().put("port", 65536))),
        bad("management.path: unknown key", c -> c.put("management", new JsonObject().put("path", "/m"))),
        bad("workspaces[0].id", c -> ws(c).put("id", "not-a-uuid")),
        bad("workspaces[0].postback_sources[0].token: looks like a plain API key", c -> ws(c)
            .put("postback_sources", new JsonArray().add(new JsonObject().put("id", "p").put("token", "plain")))),
        bad("workspaces[0].postback_sources[0].token: the same API key is already configured", c -> ws(c)
            .put("postback_sources", new JsonArray().add(new JsonObject().put("id", "p").put("token", HASH)))),
        bad("workspaces[0].postback_sources[0].id: required", c -> ws(c).put("postback_sources", new JsonArray()
            .add(new JsonObject().put("token", ApiKeys.configValue("t1"))))),
        bad("workspaces[0].postback_sources[0].id: required", c -> ws(c).put("postback_sources", new JsonArray()
            .add(new JsonObject().put("id", "has space").put("token", ApiKeys.configValue("t1"))))),
        bad("workspaces[0].postback_sources[0].default_currency", c -> ws(c).put("postback_sources", new JsonArray()
            .add(source().put("default_currency", "XYZ")))),
        bad("workspaces[0].postback_sources[0].default_event", c -> ws(c).put("postback_sources", new JsonArray()
            .add(source().put("default_event", "bad/name")))),
        bad("workspaces[0].postback_sources[0].events.dep: must map to an event name", c -> ws(c)
            .put("postback_sources", new JsonArray().add(source().put("events", new JsonObject().put("dep", "a/b"))))),
        bad("workspaces[0].postback_sources[0].events.a/b: the partner's word", c -> ws(c)
            .put("postback_sources", new JsonArray().add(source().put("events", new JsonObject().put("a/b", "X"))))),
        bad("workspaces[0].postback_sources[0].events.x: the partner's word", c -> ws(c)
            .put("postback_sources", new JsonArray().add(source().put("events", new JsonObject().put("x", 5))))),
        bad("workspaces[0].postback_sources[0].statuses.approved: must be the partner's word", c -> ws(c)
            .put("postback_sources", new JsonArray().add(source().put("statuses", new JsonObject()
                .put("approved", new JsonArray().add(new JsonObject())))))),
        bad("workspaces[0].postback_sources[0].statuses.rejected: must be the partner's word", c -> ws(c)
            .put("postback_sources", new JsonArray().add(source().put("statuses", new JsonObject()
                .put("rejected", "a/b"))))),
        bad("workspaces[0].postback_sources[0].macros.click_id: must be the partner's macro", c -> ws(c)
            .put("postback_sources", new JsonArray().add(source().put("macros", new JsonObject()
                .put("click_id", "{sub id}"))))),
        bad("workspaces[0].postback_sources[0].macros.click_id: must be the partner's macro", c -> ws(c)
            .put("postback_sources", new JsonArray().add(source().put("macros", new JsonObject()
                .put("click_id", 5))))),
        bad("workspaces[0].postback_sources[0].macros.click_id: must be the partner's macro", c -> ws(c)
            .put("postback_sources", new JsonArray().add(source().put("macros", new JsonObject()
                .put("click_id", "{sub}#frag"))))),
        bad("workspaces[0].postback_sources[0].macros.value: must be the partner's macro", c -> ws(c)
            .put("postback_sources", new JsonArray().add(source().put("macros", new JsonObject()
                .put("value", "#a b#"))))),
        bad("workspaces[0].postback_sources[0].macros.sub: unknown key", c -> ws(c)
            .put("postback_sources", new JsonArray().add(source().put("macros", new JsonObject()
                .put("sub", "{s}"))))),
        bad("workspaces[0].postback_sources[0].params.click_id: must be a parameter name", c -> ws(c)
            .put("postback_sources", new JsonArray().add(source().put("params", new JsonObject()
                .put("click_id", "a b"))))),
        bad("workspaces[0].postback_sources[0].params.click_id: must name at least one parameter", c -> ws(c)
            .put("postback_sources", new JsonArray().add(source().put("params", new JsonObject()
                .put("click_id", new JsonArray()))))),
        bad("workspaces[0].postback_sources[0].secret: unknown key", c -> ws(c)
            .put("postback_sources", new JsonArray().add(source().put("secret", "x")))),
        bad("workspaces[0].postback_sources[0].click_id_holds", c -> ws(c).put("postback_sources", new JsonArray()
            .add(new JsonObject().put("id", "p").put("token", ApiKeys.configValue("t1")).put("click_id_holds", "x")))),
        bad("workspaces[0].postback_sources[0].statuses.paid: unknown key", c -> ws(c).put("postback_sources",
            new JsonArray().add(new JsonObject().put("id", "p").put("token", ApiKeys.configValue("t1"))
                .put("statuses", new JsonObject().put("paid", "ok"))))),
        bad("workspaces[0].postback_sources[0].params.clickid: unknown key", c -> ws(c).put("postback_sources",
            new JsonArray().add(new JsonObject().put("id", "p").put("token", ApiKeys.configValue("t1"))
                .put("params", new JsonObject().put("clickid", "sub1"))))),
        bad("workspaces[0].integrations[0].send_on[0]: must be a status", c -> ws(c).put("integrations",
            new JsonArray().add(new JsonObject().put("id", "h").put("type", "webhook")
                .put("url", "https://hook.example/x").put("secret", "s".repeat(16))
                .put("send_on", new JsonArray().add("paid"))))),
        bad("workspaces[1].id: duplicate", c -> c.getJsonArray("workspaces").add(ws(c).copy()
            .put("api_keys", new JsonArray().add(ApiKeys.configValue("k2"))))),
        bad("workspaces[0].api_keys[0]: malformed", c -> ws(c).put("api_keys", new JsonArray().add("sha256:ABC"))),
        bad("workspaces[0].api_keys[0]: looks like a plain API key",
            c -> ws(c).put("api_keys", new JsonArray().add("my-plain-secret-key"))),
        bad("workspaces[0].api_keys: required", c -> ws(c).put("api_keys", new JsonArray())),
        bad("workspaces[1].api_keys[0]: the same API key", c -> c.getJsonArray("workspaces").add(ws(c).copy()
            .put("id", "8c9e6679-7425-40de-944b-e07fc1f90ae7"))),
        bad("workspaces[0].publishable_keys[0].key: looks like a plain API key", c -> ws(c).put("publishable_keys",
            new JsonArray().add(publishable("pk-plain", "https://lp.example")))),
        bad("workspaces[0].publishable_keys[0].key: the same API key is already configured at "
            + "workspaces[0].api_keys[0]", c -> ws(c).put("publishable_keys", new JsonArray()
            .add(publishable(HASH, "https://lp.example")))),
        bad("workspaces[0].publishable_keys[0].allowed_origins: required", c -> ws(c).put("publishable_keys",
            new JsonArray().add(new JsonObject().put("key", ApiKeys.configValue("pk"))))),
        bad("workspaces[0].publishable_keys[0].allowed_origins[0]: must be an origin", c -> ws(c)
            .put("publishable_keys", new JsonArray().add(publishable(ApiKeys.configValue("pk"),
                "https://lp.example/offer")))),
        bad("workspaces[0].publishable_keys[0].allowed_origins[0]: must be an origin", c -> ws(c)
            .put("publishable_keys", new JsonArray()
                .add(publishable(ApiKeys.configValue("pk"), "https://LP.example")))),
        bad("workspaces[0].publishable_keys[0].allowed_origins: required", c -> ws(c).put("publishable_keys",
            new JsonArray().add(new JsonObject().put("key", ApiKeys.configValue("pk"))
                .put("allowed_origins", new JsonArray())))),
        bad("workspaces[0].publishable_keys[0].allowed_origins[1]: must be an origin", c -> ws(c)
            .put("publishable_keys", new JsonArray().add(new JsonObject().put("key", ApiKeys.configValue("pk"))
                .put("allowed_origins", new JsonArray().add("https://lp.example").add(443))))),
        bad("workspaces[0].publishable_keys[0].origins: unknown key", c -> ws(c).put("publishable_keys",
            new JsonArray().add(publishable(ApiKeys.configValue("pk"), "https://lp.example").put("origins", 1)))),
        bad("workspaces[0].publishable_keys: must be an array", c -> ws(c).put("publishable_keys", "pk")),
        bad("workspaces[0].publishable_keys[0]: must be an object", c -> ws(c).put("publishable_keys",
            new JsonArray().add("pk"))),
        bad("http.trusted_proxies[0]: must be an IP address or a CIDR block", c -> c.getJsonObject("http")
            .put("trusted_proxies", new JsonArray().add("proxy.internal"))),
        bad("http.trusted_proxies: 10.0.0.0/33 is not an IP address or a CIDR block", c -> c.getJsonObject("http")
            .put("trusted_proxies", new JsonArray().add("10.0.0.0/33"))),
        bad("http.trusted_proxies: 1.2.3 is not an IP address", c -> c.getJsonObject("http")
            .put("trusted_proxies", new JsonArray().add("1.2.3"))),
        bad("http.publishable_rate_limit.burst: must be at least 1", c -> c.getJsonObject("http")
            .put("publishable_rate_limit", new JsonObject().put("burst", 0.5))),
        bad("workspaces[0].telegram.webhook_secret: required", c -> ws(c).put("telegram", new JsonObject())),
        bad("workspaces[0].telegram.webhook_secret: required, 16 to 256", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "short"))),
        bad("workspaces[0].telegram.webhook_secret: required, 16 to 256", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "has spaces in it, 0123456789"))),
        bad("workspaces[0].telegram.start_event: must be an event name", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "0123456789abcdef").put("start_event", "<b>"))),
        bad("workspaces[0].telegram.bot: unknown key", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "0123456789abcdef").put("bot", "x"))),
        bad("workspaces[0].telegram: must be an object", c -> ws(c).put("telegram", "on")),
        bad("workspaces[0].telegram.bot_token: must be a Bot API token", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "0123456789abcdef").put("bot_token", "not a token"))),
        bad("workspaces[0].telegram.channel_id: must be the channel's numeric id", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "0123456789abcdef").put("bot_token", "1:abcdefghijklmnopqrstuvwxyz")
                .put("channel_id", "my channel"))),
        bad("workspaces[0].telegram: channel_id or channels and approve_join_requests need the bot's bot_token",
            c -> ws(c).put("telegram", new JsonObject().put("webhook_secret", "0123456789abcdef")
                .put("channel_id", "@mychannel"))),
        bad("workspaces[0].telegram.channel_id: must be the channel's numeric id", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "0123456789abcdef").put("bot_token", "1:abcdefghijklmnopqrstuvwxyz")
                .put("channel_id", -100.5))),
        bad("workspaces[0].telegram.channel_id: must be the channel's numeric id", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "0123456789abcdef").put("bot_token", "1:abcdefghijklmnopqrstuvwxyz")
                .put("channel_id", true))),
        bad("workspaces[0].telegram.pass_through: must be an object", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "0123456789abcdef").put("pass_through", "https://bot.example/"))),
        bad("workspaces[0].telegram.pass_through.token: unknown key", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "0123456789abcdef").put("pass_through", new JsonObject()
                .put("url", "https://bot.example/hook").put("token", "x")))),
        bad("workspaces[0].telegram: channel_id or channels and approve_join_requests need the bot's bot_token",
            c -> ws(c).put("telegram", new JsonObject().put("webhook_secret", "0123456789abcdef")
                .put("approve_join_requests", true))),
        bad("workspaces[0].telegram.approve_join_requests: needs channel_id", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "0123456789abcdef").put("bot_token", "1:abcdefghijklmnopqrstuvwxyz")
                .put("approve_join_requests", true))),
        bad("workspaces[0].telegram: must be an object", c -> ws(c).put("telegram", new JsonArray())),
        bad("workspaces[0].telegram[0]: must be an object", c -> ws(c).put("telegram", new JsonArray().add("bot"))),
        bad("workspaces[0].telegram[1].bot_name: required in a list of bots", c -> ws(c).put("telegram",
            new JsonArray().add(listedBot("alpha_bot", -1001)).add(listedBot(null, -1002)))),
        bad("workspaces[0].telegram[1].bot_name: bot_name Alpha_bot is also at workspaces[0].telegram[0].bot_name",
            c -> ws(c).put("telegram", new JsonArray().add(listedBot("alpha_bot", -1001))
                .add(listedBot("Alpha_bot", -1002)))),
        bad("workspaces[0].telegram[1].channels: channel -1001 is also at workspaces[0].telegram[0].channels",
            c -> ws(c).put("telegram", new JsonArray().add(listedBot("alpha_bot", -1001))
                .add(listedBot("beta_bot", -1001)))),
        bad("workspaces[0].telegram: channel_id or channels, not both", c -> ws(c).put("telegram",
            listedBot("alpha_bot", -1001).put("channel_id", -1002))),
        bad("workspaces[0].telegram.channels: must be a list of channel ids", c -> ws(c).put("telegram",
            listedBot("alpha_bot", -1001).put("channels", "-1001"))),
        bad("workspaces[0].telegram.channels: must be a list of the channel's numeric id", c -> ws(c).put("telegram",
            listedBot("alpha_bot", -1001).put("channels", new JsonArray().add(-1001).add("my channel")))),
        bad("workspaces[0].telegram.invite_link_pool: must be a whole number from 1 to 100", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "0123456789abcdef").put("invite_link_pool", 101))),
        bad("workspaces[0].telegram.api_base: must be an https URL", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "0123456789abcdef").put("api_base", "api.telegram.org"))),
        bad("workspaces[0].telegram.api_base: must be an https URL", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "0123456789abcdef").put("api_base", "http://tg.internal"))),
        bad("workspaces[0].telegram.pass_through.url: required", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "0123456789abcdef").put("pass_through", new JsonObject()))),
        bad("workspaces[0].telegram.pass_through.secret_token: must be 16 to 256", c -> ws(c).put("telegram",
            new JsonObject().put("webhook_secret", "0123456789abcdef").put("pass_through", new JsonObject()
                .put("url", "https://bot.example/hook").put("secret_token", "short")))),

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
        bad("database.retention_days: must be a whole number", c -> c.getJsonObject("database")
            .put("retention_days", DatabaseConfig.MIN_RETENTION_DAYS - 1)),
        bad("workspaces[0].bot_name", c -> ws(c).put("bot_name", "t.me/some bot")),
        bad("cluster.enabled: a cluster needs one shared PostgreSQL: set database.url or DATABASE_URL",
            c -> c.put("cluster", new JsonObject().put("enabled", true))),
        bad("cluster.enabled: must be true or false", c -> c.put("cluster", new JsonObject().put("enabled", "yes"))),
        bad("cluster.nodes: unknown key", c -> c.put("cluster", new JsonObject().put("nodes", new JsonArray()))),
        bad("cluster.port: must be a whole number from 1 to 65535",
            c -> c.put("cluster", new JsonObject().put("port", 0))),
        bad("cluster.bus_port: must be a whole number from 0 to 65535",
            c -> c.put("cluster", new JsonObject().put("bus_port", 65536))),
        bad("cluster.members: must be an array", c -> c.put("cluster", new JsonObject().put("members", "a:1"))),
        bad("cluster.public_host: must be the address the other members reach this node at, not the wildcard "
            + "0.0.0.0 (a wildcard cluster.host listens on every interface and needs it set)",
            c -> c.put("cluster", new JsonObject().put("host", "0.0.0.0"))),
        bad("cluster.public_host: must be the address the other members reach this node at, not the wildcard ::",
            c -> c.put("cluster", new JsonObject().put("host", "10.0.0.4").put("public_host", "::"))),
        bad("cluster.public_host: must be a non-empty string",
            c -> c.put("cluster", new JsonObject().put("public_host", 10))),
        bad("cluster.members[1]: must be \"host:port\"", c -> c.put("cluster", new JsonObject()
            .put("members", new JsonArray().add("10.0.0.5:5701").add("10.0.0.6")))),
        bad("cluster.members[0]: must be \"host:port\"", c -> c.put("cluster", new JsonObject()
            .put("members", new JsonArray().add(5701)))),
        bad("roles[1]: must be \"ingest\" or \"forward\"", c -> c.put("roles", new JsonArray().add("ingest")
            .add("deliver"))),
        bad("roles: must be a non-empty array", c -> c.put("roles", new JsonArray())),
        bad("roles: must be a non-empty array", c -> c.put("roles", "ingest")),
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
            .put("VIP", new JsonObject().put("moneytary", true)))),
        // Each typed read, each with the value's path.
        bad("delivery: must be an object", c -> c.put("delivery", 5)),
        bad("http.host: must be a non-empty string", c -> c.getJsonObject("http").put("host", " ")),
        bad("http.host: must be a non-empty string", c -> c.getJsonObject("http").put("host", 80)),
        bad("http.port: must be a whole number from 0 to 65535", c -> c.getJsonObject("http").put("port", "9000")),
        bad("http.port: must be a whole number from 0 to 65535", c -> c.getJsonObject("http").put("port", 9000.5)),
        bad("http.port: must be a whole number from 0 to 65535", c -> c.getJsonObject("http").put("port", -1)),
        bad("workspaces[0].rate_limit.per_second: must be a number greater than 0",
            c -> ws(c).put("rate_limit", new JsonObject().put("per_second", "5"))),
        bad("workspaces[0].rate_limit.per_second: must be a number greater than 0",
            c -> ws(c).put("rate_limit", new JsonObject().put("per_second", -2))),
        bad("workspaces[0].rate_limit.per_second: must be a number greater than 0",
            c -> ws(c).put("rate_limit", new JsonObject().put("per_second", Double.POSITIVE_INFINITY))),
        bad("workspaces: must be an array", c -> c.put("workspaces", new JsonObject())),
        bad("workspaces[1]: must be an object", c -> c.getJsonArray("workspaces").add("demo")),
        bad("workspaces[0].api_keys: required", c -> ws(c).put("api_keys", HASH)),
        bad("workspaces[0].api_keys[0]: must be a string", c -> ws(c).put("api_keys", new JsonArray().add(5))),
        bad("workspaces[0].event_map.VIP: must be an object", c -> ws(c).put("event_map", new JsonObject()
            .put("VIP", "Purchase"))),
        bad("workspaces[0].event_map.VIP: event names must be", c -> ws(c).put("event_map", new JsonObject()
            .put("VIP", new JsonObject().put("meta", "Purchase/2")))),
        bad("workspaces[0].event_map.VIP: event names must be", c -> ws(c).put("event_map", new JsonObject()
            .put("VIP", new JsonObject().put("tiktok", "x".repeat(51))))),
        bad("workspaces[0].event_map.VIP.monetary: must be true or false", c -> ws(c).put("event_map",
            new JsonObject().put("VIP", new JsonObject().put("monetary", "yes")))),
        // Each integration rule.
        bad("workspaces[0].integrations[0].id: required", c -> ws(c).put("integrations", new JsonArray()
            .add(meta().put("id", null)))),
        bad("workspaces[0].integrations[0].id: required, 1 to 64", c -> ws(c).put("integrations", new JsonArray()
            .add(meta().put("id", "my pixel")))),
        bad("workspaces[0].integrations[0].type: required", c -> ws(c).put("integrations", new JsonArray()
            .add(meta().put("type", null)))),
        bad("workspaces[0].integrations[0].pixel_code: required, the TikTok pixel code", c -> ws(c)
            .put("bot_name", "demo_bot").put("integrations", new JsonArray().add(tiktok().put("pixel_code", null)))),
        bad("workspaces[0].integrations[0].pixel_code: required, the TikTok pixel code", c -> ws(c)
            .put("bot_name", "demo_bot").put("integrations", new JsonArray().add(tiktok().put("pixel_code", "C-4")))),
        bad("workspaces[0].integrations[0].pixel_id: required, the numeric pixel (dataset) id", c -> ws(c)
            .put("integrations", new JsonArray().add(meta().put("pixel_id", null)))),
        bad("workspaces[0].integrations[0].pixel_id: required, the numeric pixel (dataset) id", c -> ws(c)
            .put("integrations", new JsonArray().add(meta().put("pixel_id", "")))),
        bad("workspaces[0].integrations[0].access_token: must be a non-empty string", c -> ws(c)
            .put("integrations", new JsonArray().add(meta().put("access_token", "").put("enabled", true)))),
        bad("workspaces[0].integrations[0].pixel_code: required, the TikTok pixel code", c -> ws(c)
            .put("integrations", new JsonArray().add(tiktok().put("pixel_code", "C-4").put("enabled", false)))),
        bad("workspaces[0].integrations[0].access_token: required", c -> ws(c)
            .put("integrations", new JsonArray().add(tiktok().put("access_token", null).put("enabled", false)))),
        bad("workspaces[0].integrations[0].api_base: must be an http(s) URL", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("api_base", "ftp://graph.example")))),
        bad("workspaces[0].integrations[0].api_base: must be an http(s) URL", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("api_base", "https://graph.example/?debug=1")))),
        bad("workspaces[0].integrations[0].api_version: must look like v25.0", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("api_version", "25.0")))),
        bad("workspaces[0].integrations[0].enabled: must be true or false", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("enabled", "yes")))),
        bad("workspaces[0].integrations[0].action_source: must be one of business_messaging, chat, email, "
            + "other, phone_call, physical_store, system_generated, website", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("action_source", "telegram")))),
        bad("workspaces[0].integrations[0].event_source: must be one of app, crm, offline, web", c -> ws(c)
            .put("integrations", new JsonArray().add(tiktok().put("event_source", "telegram")))),
        bad("workspaces[0].integrations[0].proxy: must be a URL such as http://host:3128", c -> ws(c)
            .put("integrations", new JsonArray().add(meta().put("proxy", "ftp://user:hunter2@proxy.example:21")))),
        bad("workspaces[0].integrations[0].proxy: must be a URL such as", c -> ws(c)
            .put("integrations", new JsonArray().add(meta().put("proxy", "http://proxy.example")))),
        bad("workspaces[0].integrations[0].proxy.url: must be a URL such as", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("proxy", new JsonObject().put("url", "socks5://p.example:1080/x"))))),
        bad("workspaces[0].integrations[0].proxy.url: required", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("proxy", new JsonObject().put("username", "u"))))),
        bad("workspaces[0].integrations[0].proxy: credentials in the URL and as username/password", c -> ws(c)
            .put("integrations", new JsonArray().add(meta().put("proxy", new JsonObject()
                .put("url", "http://a:b@p.example:3128").put("username", "u"))))),
        bad("workspaces[0].integrations[0].proxy: a password needs its username", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("proxy", new JsonObject().put("url", "http://p.example:3128")
                .put("password", "x"))))),
        bad("workspaces[0].integrations[0].proxy: ca_file is for an https proxy", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("proxy", new JsonObject().put("url", "socks5://p.example:1080")
                .put("ca_file", "pom.xml"))))),
        bad("workspaces[0].integrations[0].proxy.ca_file: cannot read", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("proxy", new JsonObject().put("url", "https://p.example:443")
                .put("ca_file", "no/such.pem"))))),
        bad("workspaces[0].integrations[0].proxy: must be a URL or an object", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("proxy", 3128)))),
        bad("workspaces[0].integrations[0].proxy: must be a URL such as", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("proxy", "//p.example:3128")))),
        bad("workspaces[0].integrations[0].proxy: must be a URL such as", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("proxy", "http://p.example:3128?x=1")))),
        bad("workspaces[0].integrations[0].proxy: must be a URL such as", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("proxy", "http://p.example:3128#f")))),
        bad("workspaces[0].integrations[0].proxy: must be a URL such as", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("proxy", "http://p.example:0")))),
        bad("workspaces[0].integrations[0].proxy.pass: unknown key", c -> ws(c).put("integrations",
            new JsonArray().add(meta().put("proxy", new JsonObject().put("url", "http://p.example:3128")
                .put("pass", "x"))))),
        bad("workspaces[0].integrations[0].proxy: credentials in the URL and as username/password", c -> ws(c)
            .put("integrations", new JsonArray().add(meta().put("proxy", new JsonObject()
                .put("url", "http://a@p.example:3128").put("password", "p"))))),
        bad("workspaces[0].telegram.proxy: must be a URL such as", c -> ws(c).put("telegram", new JsonObject()
            .put("webhook_secret", "s3cret_0123456789-abc").put("proxy", "http://[::1"))));
  }

  @Test
  @DisplayName("a proxy per integration and per bot: a URL with percent-encoded credentials, or an object taking "
      + "them from ${ENV} as they are; printed without credentials; a bad URL's message never quotes it")
  void proxies() {
    JsonObject config = valid();
    ws(config).put("integrations", new JsonArray()
        .add(meta().put("proxy", "SOCKS5://de%40buyer:p%3Ass@10.1.2.3:1080"))
        .add(tiktok().put("page_url", "https://lp.example/").put("proxy", new JsonObject()
            .put("url", "https://[2001:db8::1]:8443")
            .put("username", "${PROXY_USER}").put("password", "${PROXY_PASSWORD}").put("ca_file", "pom.xml")))
        .add(meta().put("id", "meta-2").put("proxy", "http://proxy.example:1/"))
        .add(meta().put("id", "meta-3").put("proxy", "http://just-a-user@[::1]:3128")))
        .put("telegram", new JsonObject().put("webhook_secret", "s3cret_0123456789-abc")
            .put("proxy", "http://proxy.example:3128"));
    WorkspaceConfig workspace = resolve(config, Map.of("PROXY_USER", "tt", "PROXY_PASSWORD", "a:b@c/d"))
        .workspaces().get(0);
    assertThat(workspace.integrations().get(0).proxy())
        .isEqualTo(new ProxyConfig("socks5", "10.1.2.3", 1080, null, "de@buyer", "p:ss"));
    assertThat(workspace.integrations().get(1).proxy())
        .isEqualTo(new ProxyConfig("https", "2001:db8::1", 8443, "pom.xml", "tt", "a:b@c/d"));
    assertThat(workspace.integrations().get(1).proxy()).hasToString("https://[2001:db8::1]:8443");
    assertThat(workspace.integrations().get(2).proxy())
        .isEqualTo(new ProxyConfig("http", "proxy.example", 1, null, null, null));
    assertThat(workspace.integrations().get(3).proxy())
        .isEqualTo(new ProxyConfig("http", "::1", 3128, null, "just-a-user", null));
    assertThat(workspace.integrations().get(3).proxy()).hasToString("http://[::1]:3128");
    assertThat(workspace.integrations().get(0).proxy().toString()).isEqualTo("socks5://10.1.2.3:1080");
    assertThat(workspace.telegram().proxy()).hasToString("http://proxy.example:3128");
    assertThat(resolve(valid(), Map.of()).workspaces().get(0).integrations()).allSatisfy(i ->
        assertThat(i.proxy()).isNull());

    JsonObject leaky = valid();
    ws(leaky).put("integrations", new JsonArray().add(meta().put("proxy", "gopher://u:hunter2@p.example:70")));
    assertThatThrownBy(() -> resolve(leaky, Map.of())).isInstanceOf(ConfigException.class)
        .message().doesNotContain("hunter2");
  }

  @Test
  @DisplayName("every mistake is reported at once, each by its exact path; a top-level key has no leading dot")
  void everyProblemAtOnce() {
    JsonObject config = valid().put("telemetry", true).put("session", new JsonObject().put("timeout", 1));
    ws(config).put("id", "nope");

    assertThatThrownBy(() -> resolve(config, Map.of())).isInstanceOf(ConfigException.class)
        .hasMessage("invalid configuration:\n  - telemetry: unknown key (known: alerts, cluster, database, delivery, http, "
            + "management, reports, roles, "
            + "session, workspaces)\n  - session.timeout: unknown key (known: source_timeout_ms)\n  - workspaces[0].id: "
            + "required, a UUID such as 7c9e6679-7425-40de-944b-e07fc1f90ae7");
  }

  @Test
  @DisplayName("cluster off and both roles by default; a cluster section and roles as given; --cluster turns it on")
  void clusterAndRoles() {
    AppConfig defaults = resolve(valid(), Map.of());
    assertThat(defaults.cluster()).isEqualTo(new ClusterConfig(false, "127.0.0.1", 5701, 0, List.of()));
    assertThat(defaults.roles()).containsExactlyInAnyOrder(Role.INGEST, Role.FORWARD);
    assertThat(defaults.runs(Role.INGEST)).isTrue();

    JsonObject clustered = valid().put("cluster", new JsonObject().put("enabled", true).put("host", "10.0.0.4")
            .put("port", 1).put("bus_port", 65535)
            .put("members", new JsonArray().add("10.0.0.5:5701").add("node-b.local:5701").add("[fd00::5]:5701")))
        .put("roles", new JsonArray().add("forward").add("forward"));
    clustered.getJsonObject("database").put("url", "postgresql://db/events");
    AppConfig config = resolve(clustered, Map.of());
    assertThat(config.cluster()).isEqualTo(new ClusterConfig(true, "10.0.0.4", 1, 65535,
        List.of("10.0.0.5:5701", "node-b.local:5701", "[fd00::5]:5701")));
    assertThat(config.roles()).containsExactly(Role.FORWARD);
    assertThat(config.runs(Role.INGEST)).isFalse();

    JsonObject shared = valid();
    shared.getJsonObject("database").put("url", "postgresql://db/events");
    assertThat(new ConfigLoader(Map.of(), true).resolve(shared).cluster().enabled()).isTrue();
    assertThat(new ConfigLoader(Map.of(), true).resolve(shared.copy().put("cluster", new JsonObject()
        .put("port", 5801))).cluster()).isEqualTo(new ClusterConfig(true, "127.0.0.1", 5801, 0, List.of()));
    assertThat(new ConfigLoader(Map.of(ConfigLoader.DATABASE_URL_ENV, "postgresql://db/e"), true).resolve(valid())
        .cluster().enabled()).as("DATABASE_URL is a shared database too").isTrue();
    assertThatThrownBy(() -> new ConfigLoader(Map.of(), true).resolve(valid()))
        .hasMessageContaining("cluster.enabled: a cluster needs one shared PostgreSQL");
  }

  @Test
  @DisplayName("cluster.public_host is announced instead of the host; only a wildcard host listens on every interface")
  void clusterPublicHost() {
    JsonObject everyInterface = valid().put("cluster", new JsonObject().put("enabled", true).put("host", "0.0.0.0")
        .put("public_host", "203.0.113.7"));
    everyInterface.getJsonObject("database").put("url", "postgresql://db/events");
    ClusterConfig cluster = resolve(everyInterface, Map.of()).cluster();
    assertThat(cluster).isEqualTo(new ClusterConfig(true, "0.0.0.0", "203.0.113.7", 5701, 0, List.of()));
    assertThat(cluster.everyInterface()).isTrue();
    assertThat(new ClusterConfig(true, "::", "fd00::7", 5701, 0, List.of()).everyInterface()).isTrue();
    assertThat(new ClusterConfig(true, "10.0.0.4", "203.0.113.7", 5701, 0, List.of()).everyInterface()).isFalse();
    assertThat(new ClusterConfig(true, "10.0.0.4", 5701, 0, List.of()).publicHost()).isEqualTo("10.0.0.4");
    assertThat(resolve(valid(), Map.of()).cluster().everyInterface()).as("127.0.0.1 by default").isFalse();
  }

  @Test
  @DisplayName("the edges of each range are accepted")
  void rangeEdges() {
    JsonObject config = valid().put("delivery", new JsonObject().put("initial_backoff_ms", 4000)
        .put("max_backoff_ms", 4000).put("batch_size", 1000));
    config.getJsonObject("http").put("port", 65535).put("max_body_bytes", 4096L);
    config.getJsonObject("database").put("url", "postgres://app@db:5432/events").put("retention_days", 8);
    ws(config).put("rate_limit", new JsonObject().put("per_second", 0.5).put("burst", 1));

    AppConfig resolved = resolve(config, Map.of());

    assertThat(resolved.delivery().initialBackoffMs()).isEqualTo(4000);
    assertThat(resolved.delivery().maxBackoffMs()).isEqualTo(4000);
    assertThat(resolved.delivery().batchSize()).isEqualTo(1000);
    assertThat(resolve(valid().put("delivery", new JsonObject().put("keep_payloads", false)), Map.of()).delivery()
        .keepPayloads()).isFalse();
    assertThat(resolved.http().port()).isEqualTo(65535);
    assertThat(resolved.http().maxBodyBytes()).as("a long in range is a whole number too").isEqualTo(4096);
    assertThat(resolved.database().url()).isEqualTo("postgres://app@db:5432/events");
    assertThat(resolved.database().retentionDays()).isEqualTo(8);
    assertThat(resolve(valid(), Map.of()).database().retentionDays()).as("default").isEqualTo(30);
    assertThat(resolved.workspaces().get(0).rateLimit()).isEqualTo(new RateLimitConfig(0.5, 1));
    assertThat(resolve(valid().put("http", new JsonObject().put("port", 0)), Map.of()).http().port()).isZero();
  }

  @Test
  @DisplayName("configs print their identity, never a secret")
  void printedForms() {
    JsonObject config = valid();
    ws(config).put("integrations", new JsonArray().add(meta()));
    AppConfig resolved = resolve(config, Map.of());

    assertThat(resolved.database()).hasToString("DatabaseConfig[embedded at data/postgres]");
    assertThat(resolve(valid(), Map.of("DATABASE_URL", "postgresql://app:pw@db/x")).database())
        .hasToString("DatabaseConfig[external]");
    assertThat(resolved.workspaces().get(0)).hasToString("WorkspaceConfig[7c9e6679-7425-40de-944b-e07fc1f90ae7 demo]");
    assertThat(resolved.workspaces().get(0).integrations().get(0)).hasToString("IntegrationConfig[m meta 123]");
  }

  @Test
  @DisplayName("a reload keeps the running http and database settings, and says so only when they differ")
  void reloadKeepsRestartSettings() {
    LiveConfig live = new LiveConfig(resolve(valid(), Map.of()));
    List<AppConfig> seen = new ArrayList<>();
    live.onChange(seen::add);
    LogCapture logs = LogCapture.start();
    try {
      JsonObject same = valid();
      ws(same).put("name", "renamed");
      live.replace(resolve(same, Map.of()));
      assertThat(logs.text()).doesNotContain("change only on restart");
      assertThat(live.current().workspaces().get(0).name()).isEqualTo("renamed");

      live.replace(resolve(valid().put("http", new JsonObject().put("port", 9001)), Map.of()));
      assertThat(logs.text()).contains("http, database, cluster and roles settings change only on restart");
      assertThat(live.current().http().port()).isEqualTo(9000);
      assertThat(seen).hasSize(2).last().isSameAs(live.current());

      live.replace(resolve(valid(), Map.of("DATABASE_URL", "postgresql://b@env:5432/y")));
      assertThat(logs.text().split("change only on restart", -1)).hasSize(3);
      assertThat(live.current().database().embedded()).isTrue();

      live.replace(resolve(valid().put("roles", new JsonArray().add("ingest")), Map.of()));
      assertThat(logs.text().split("change only on restart", -1)).hasSize(4);
      assertThat(live.current().roles()).containsExactlyInAnyOrder(Role.INGEST, Role.FORWARD);
      live.replace(resolve(valid().put("cluster", new JsonObject().put("port", 5702)), Map.of()));
      assertThat(logs.text().split("change only on restart", -1)).hasSize(5);
      assertThat(live.current().cluster().port()).isEqualTo(5701);
    } finally {
      logs.stop();
    }
  }

  private static JsonObject meta() {
    return new JsonObject().put("id", "m").put("type", "meta").put("pixel_id", "123").put("access_token", "tok-secret-1");
  }

  private static JsonObject tiktok() {
    return new JsonObject().put("id", "t").put("type", "tiktok").put("pixel_code", "C4AB").put("access_token", "tok-secret-2");
  }

  /** A bot of a list: its name (or none), a channel, a token. */
  private static JsonObject listedBot(String name, long channel) {
    return new JsonObject().put("bot_name", name).put("webhook_secret", "0123456789abcdef-" + channel)
        .put("bot_token", "1:abcdefghijklmnopqrstuvwxyz").put("channels", new JsonArray().add(channel));
  }

  @Test
  @DisplayName("a disabled integration may leave its pixel and access token blank, as init writes it; enabled, "
      + "neither may be")
  void blankWhileDisabled() {
    JsonObject config = valid();
    ws(config).put("bot_name", "demo_bot").put("integrations", new JsonArray()
        .add(meta().put("pixel_id", "").put("access_token", "${META_ACCESS_TOKEN}").put("enabled", false))
        .add(tiktok().put("pixel_code", "").put("access_token", "").put("enabled", false)));
    List<IntegrationConfig> integrations = resolve(config, Map.of("META_ACCESS_TOKEN", "")).workspaces().get(0)
        .integrations();
    assertThat(integrations).extracting(IntegrationConfig::pixel).containsExactly("", "");
    assertThat(integrations).extracting(IntegrationConfig::accessToken).containsExactly("", "");
    assertThat(integrations).extracting(IntegrationConfig::enabled).containsExactly(false, false);
    ws(config).getJsonArray("integrations").getJsonObject(1).put("enabled", true);
    Throwable refused = catchThrowable(() -> resolve(config, Map.of("META_ACCESS_TOKEN", "")));
    assertThat(refused).isInstanceOf(ConfigException.class)
        .hasMessageContaining("integrations[1].pixel_code: required")
        .hasMessageContaining("integrations[1].access_token: must be a non-empty string");
    assertThat(refused.getMessage()).as("the disabled one's blanks are fine").doesNotContain("integrations[0]");
  }

  @Test
  @DisplayName("telegram as a list of bots: each named, with its channels; the first is the default (plain webhook "
      + "path, start links when the workspace names no bot); a bot by its name in any case; a channel's bot")
  void severalBots() {
    JsonObject config = valid();
    ws(config).put("telegram", new JsonArray().add(listedBot("alpha_bot", -1001))
        .add(listedBot("@Beta_bot", -1002).put("channels", new JsonArray().add(-1002).add("@beta_ch").add(-1002))));
    WorkspaceConfig workspace = resolve(config, Map.of()).workspaces().get(0);
    assertThat(workspace.bots()).extracting(TelegramConfig::name).containsExactly("alpha_bot", "Beta_bot");
    assertThat(workspace.bots().get(1).channels()).as("each once, in order").containsExactly("-1002", "@beta_ch");
    assertThat(workspace.botName()).as("the first bot's").isEqualTo("alpha_bot");
    assertThat(workspace.telegram()).isEqualTo(workspace.bots().get(0));
    assertThat(workspace.bot("")).isEqualTo(workspace.bots().get(0));
    assertThat(workspace.bot(null)).as("no name: the default").isEqualTo(workspace.bots().get(0));
    assertThat(workspace.bot("beta_BOT")).isEqualTo(workspace.bots().get(1));
    assertThat(workspace.bot("gamma_bot")).isNull();
    assertThat(workspace.botKey(workspace.bots().get(0))).isEmpty();
    assertThat(workspace.botKey(workspace.bots().get(1))).isEqualTo("Beta_bot");
    assertThat(workspace.botOfChannel("@beta_ch")).isEqualTo(workspace.bots().get(1));
    assertThat(workspace.botOfChannel("-1003")).isNull();
    ws(config).put("bot_name", "promo_bot");
    assertThat(resolve(config, Map.of()).workspaces().get(0).botName()).as("the workspace's own").isEqualTo(
        "promo_bot");
    ws(config).put("telegram", new JsonObject().put("webhook_secret", "0123456789abcdef"));
    assertThat(resolve(config, Map.of()).workspaces().get(0).telegram().name())
        .as("a single bot is named by the workspace's bot_name").isEqualTo("promo_bot");
    assertThat(new WorkspaceConfig(UUID.randomUUID(), "w", List.of(), List.of(), RateLimitConfig.DEFAULT, null, 28,
        List.of(), Map.of(), null).bot("")).as("no connector").isNull();
  }

  private static JsonObject accessKey(String name, String key, String role) {
    return new JsonObject().put("name", name).put("key", ApiKeys.configValue(key)).put("role", role);
  }

  @Test
  @DisplayName("keys with roles are read with their names, scopes and expiry; api_keys are admins before them")
  void keysWithRoles() {
    JsonObject json = valid();
    ws(json).put("keys", new JsonArray()
        .add(accessKey("bot", "key-bot", "ingest"))
        .add(accessKey("analyst", "key-analyst", "viewer").put("expires_at", "2027-03-01T00:00:00Z"))
        .add(accessKey("anna b.", "key-anna", "buyer").put("scope", new JsonObject()
            .put("campaign_ids", new JsonArray().add("120210000000001")).put("ad_account_ids", new JsonArray()
                .add("123456"))))
        .add(accessKey("owner@team", "key-owner", "admin"))
        .add(accessKey("boris", "key-boris", "buyer").put("scope", new JsonObject().put("ad_account_ids",
            new JsonArray().add("act_123456").add("7012345")))))
        .put("cost_sources", new JsonArray().add(new JsonObject().put("id", "fb").put("type", "meta")
            .put("ad_account_id", "123456").put("access_token", "tok"))
            .add(new JsonObject().put("id", "tt").put("type", "tiktok").put("advertiser_id", "7012345")
                .put("access_token", "tok").put("timezone", "UTC")));
    WorkspaceConfig workspace = resolve(json, Map.of()).workspaces().get(0);
    List<AccessKey> keys = workspace.accessKeys();
    assertThat(keys).extracting(AccessKey::name).containsExactly("api_keys[0]", "bot", "analyst", "anna b.",
        "owner@team", "boris");
    assertThat(keys).extracting(AccessKey::role).containsExactly(KeyRole.ADMIN, KeyRole.INGEST, KeyRole.VIEWER,
        KeyRole.BUYER, KeyRole.ADMIN, KeyRole.BUYER);
    assertThat(keys.get(5).scope()).as("accounts alone, as written with act_ and a TikTok advertiser's")
        .isEqualTo(new AccessKey.Scope(List.of(), List.of("act_123456", "7012345")));
    assertThat(keys.get(0).hash()).isEqualTo(ApiKeys.digest("k1"));
    assertThat(keys.get(1).hash()).isEqualTo(ApiKeys.digest("key-bot"));
    assertThat(keys.get(2).expiresAt()).isEqualTo(Instant.parse("2027-03-01T00:00:00Z"));
    assertThat(keys.get(2).expired(Instant.parse("2027-02-28T23:59:59Z"))).isFalse();
    assertThat(keys.get(2).expired(Instant.parse("2027-03-01T00:00:00Z"))).isTrue();
    assertThat(keys.get(1).expired(Instant.MAX)).isFalse();
    assertThat(keys.get(3).scope()).isEqualTo(new AccessKey.Scope(List.of("120210000000001"), List.of("act_123456")));
    assertThat(keys.get(1).scope()).isNull();
    assertThat(keys.get(3).toString()).isEqualTo("AccessKey[anna b. buyer]");
    ws(json).remove("api_keys");
    assertThat(resolve(json, Map.of()).workspaces().get(0).accessKeys()).hasSize(5);
    ws(json).put("api_keys", new JsonArray().add(HASH)).put("keys", new JsonArray());
    assertThat(resolve(json, Map.of()).workspaces().get(0).accessKeys()).as("api_keys beside no keys")
        .extracting(AccessKey::name).containsExactly("api_keys[0]");
  }

  @Test
  @DisplayName("a key without a name, a role or a good hash, a scope where none belongs or missing, a bad expiry "
      + "or an unknown account are refused, each by path")
  void badKeys() {
    JsonObject json = valid();
    ws(json).remove("api_keys");
    ws(json).put("keys", new JsonArray()
        .add(accessKey("[0]", "key-a", "viewer"))
        .add(accessKey("b", "key-b", "owner"))
        .add(new JsonObject().put("name", "c").put("key", "plain-key").put("role", "viewer"))
        .add(accessKey("d", "key-d", "viewer").put("scope", new JsonObject().put("campaign_ids",
            new JsonArray().add("1"))))
        .add(accessKey("e", "key-e", "buyer"))
        .add(accessKey("f", "key-f", "buyer").put("scope", new JsonObject()))
        .add(accessKey("g", "key-g", "buyer").put("scope", new JsonObject().put("ad_account_ids",
            new JsonArray().add("999"))).put("expires_at", "tomorrow"))
        .add(accessKey("h", "key-h", "buyer").put("scope", new JsonObject().put("campaign_ids",
            new JsonArray().add("a b")).put("accounts", new JsonArray())))
        .add(accessKey("d", "key-i", "admin").put("expires_at", 5).put("extra", true))
        .add(accessKey("j", "key-a", "admin"))
        .add("not an object")
        .add(new JsonObject().put("key", ApiKeys.configValue("key-l")).put("role", "admin")));
    Throwable refused = catchThrowable(() -> resolve(json, Map.of()));
    assertThat(refused).isInstanceOf(ConfigException.class);
    String problems = refused.getMessage();
    String path = "workspaces[0].keys";
    assertThat(problems)
        .contains(path + "[0].name: required, 1 to 64")
        .contains(path + "[1].role: required, one of ingest, viewer, buyer, admin")
        .contains(path + "[2].key: looks like a plain API key").doesNotContain("plain-key")
        .contains(path + "[3].scope: only a buyer key has a scope")
        .contains(path + "[4].scope: required for a buyer")
        .contains(path + "[5].scope: names no campaign_ids and no ad_account_ids")
        .contains(path + "[6].scope.ad_account_ids: 999 is the account of none of the workspace's cost_sources")
        .contains(path + "[6].expires_at: must be an instant")
        .contains(path + "[7].scope.campaign_ids[0]: must be an id")
        .contains(path + "[7].scope.accounts: unknown key")
        .contains(path + "[8].expires_at: must be an instant")
        .contains(path + "[8].extra: unknown key")
        .contains(path + ": the key name \"d\" is used twice")
        .contains(path + "[9].key: the same API key is already configured at " + path + "[0].key")
        .contains(path + "[10]: must be an object")
        .contains(path + "[11].name: required");
    ws(json).put("keys", new JsonArray());
    assertThat(catchThrowable(() -> resolve(json, Map.of())).getMessage())
        .contains(path + ": has no key, and there are no api_keys");
    ws(json).put("keys", "all");
    assertThat(catchThrowable(() -> resolve(json, Map.of())).getMessage())
        .contains(path + ": must be an array");
    ws(json).remove("keys");
    assertThat(catchThrowable(() -> resolve(json, Map.of())).getMessage())
        .contains("workspaces[0].api_keys: required (unless the workspace has keys)");
    JsonArray many = new JsonArray();
    for (int i = 0; i <= 1000; i++) {
      many.add(String.valueOf(i));
    }
    ws(json).put("keys", new JsonArray().add(accessKey("k", "key-k", "buyer").put("scope", new JsonObject()
        .put("campaign_ids", many))));
    assertThat(catchThrowable(() -> resolve(json, Map.of())).getMessage())
        .contains(path + "[0].scope: names more than 1000 ids");
    many.remove(1000);
    assertThat(resolve(json, Map.of()).workspaces().get(0).keys().get(0).scope().campaignIds())
        .as("1,000 ids, the most a scope names").hasSize(1000);
    ws(json).put("cost_sources", new JsonArray().add(new JsonObject().put("id", "fb").put("type", "meta")
        .put("ad_account_id", "5").put("access_token", "tok")));
    ws(json).getJsonArray("keys").getJsonObject(0).getJsonObject("scope").put("ad_account_ids",
        new JsonArray().add("5"));
    assertThat(catchThrowable(() -> resolve(json, Map.of())).getMessage()).as("campaigns and accounts together")
        .contains(path + "[0].scope: names more than 1000 ids");
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
        .put("integrations", new JsonArray().add(meta()).add(tiktok().put("enabled", false))
            .add(meta().put("id", "m2").put("api_base", "http://localhost:9999/graph/").put("dry_run", true)
                .put("test_event_code", "TEST123").put("allow_private_network", true)));

    AppConfig resolved = resolve(config, Map.of());

    IntegrationConfig meta = resolved.workspaces().get(0).integrations().get(0);
    assertThat(meta.network()).isEqualTo(Network.META);
    assertThat(meta.apiBase()).isEqualTo("https://graph.facebook.com");
    assertThat(meta.apiVersion()).isEqualTo("v25.0");
    assertThat(meta.source()).isEqualTo("chat");
    assertThat(meta.testEventCode()).isNull();
    assertThat(meta.pageUrl()).as("the bot's link, for website events").isEqualTo("https://t.me/demo_bot");
    assertThat(meta.enabled()).isTrue();
    assertThat(meta.dryRun()).isFalse();
    IntegrationConfig tiktok = resolved.workspaces().get(0).integrations().get(1);
    assertThat(tiktok.apiBase()).isEqualTo("https://business-api.tiktok.com");
    assertThat(tiktok.source()).isEqualTo("web");
    assertThat(tiktok.pageUrl()).as("the bot's link when no page_url is set").isEqualTo("https://t.me/demo_bot");
    assertThat(tiktok.enabled()).isFalse();
    assertThat(tiktok.apiVersion()).as("a Meta setting only").isNull();
    IntegrationConfig tried = resolved.workspaces().get(0).integrations().get(2);
    assertThat(tried.apiBase()).as("the trailing slash dropped").isEqualTo("http://localhost:9999/graph");
    assertThat(tried.dryRun()).isTrue();
    assertThat(tried.testEventCode()).isEqualTo("TEST123");
    assertThat(tried.allowPrivateNetwork()).isTrue();
    assertThat(meta.allowPrivateNetwork()).as("off unless set").isFalse();
    assertThat(resolved.toString()).doesNotContain("tok-secret-1", "tok-secret-2");
    assertThat(resolved.delivery().batchSize()).isEqualTo(500);
    assertThat(resolved.delivery().breakerFailures()).isEqualTo(5);
    assertThat(resolved.delivery().keepPayloads()).as("the debugger shows what was sent unless told not to")
        .isTrue();
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
        .hasMessageContaining("workspaces[0].integrations[0].page_url: required for a web integration when the "
            + "workspace has no bot_name (TikTok needs page.url on web events; events without a landing page would "
            + "have none)");

    JsonObject badUrl = valid();
    ws(badUrl).put("bot_name", "demo_bot").put("integrations", new JsonArray().add(tiktok().put("page_url", "t.me/x")));
    assertThatThrownBy(() -> resolve(badUrl, Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("workspaces[0].integrations[0].page_url: must be an absolute http(s) URL");
  }

  @Test
  @DisplayName("a Meta website integration needs a page URL, as a TikTok web one does: page_url wins over the bot "
      + "link; neither is refused; other action sources need none")
  void metaPageUrl() {
    JsonObject config = valid();
    ws(config).put("bot_name", "demo_bot").put("integrations", new JsonArray()
        .add(meta().put("action_source", "website").put("page_url", "https://promo.example.com/landing"))
        .add(meta().put("id", "m2").put("action_source", "website")));
    List<IntegrationConfig> integrations = resolve(config, Map.of()).workspaces().get(0).integrations();
    assertThat(integrations.get(0).pageUrl()).isEqualTo("https://promo.example.com/landing");
    assertThat(integrations.get(1).pageUrl()).isEqualTo("https://t.me/demo_bot");

    JsonObject chat = valid();
    ws(chat).put("integrations", new JsonArray().add(meta()));
    assertThat(resolve(chat, Map.of()).workspaces().get(0).integrations().get(0).pageUrl()).isNull();

    JsonObject neither = valid();
    ws(neither).put("integrations", new JsonArray().add(meta().put("action_source", "website")));
    assertThatThrownBy(() -> resolve(neither, Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("workspaces[0].integrations[0].page_url: required for a website integration when the "
            + "workspace has no bot_name (Meta requires event_source_url on website events; events without a landing "
            + "page would have none)");

    JsonObject badUrl = valid();
    ws(badUrl).put("integrations", new JsonArray().add(meta().put("page_url", "promo.example.com")));
    assertThatThrownBy(() -> resolve(badUrl, Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("workspaces[0].integrations[0].page_url: must be an absolute http(s) URL");
  }

  @Test
  @DisplayName("Meta action_source app is refused with what to set instead: these events have no app_data to send; "
      + "TikTok's event_source app stays")
  void metaAppRefused() {
    JsonObject config = valid();
    ws(config).put("integrations", new JsonArray().add(meta().put("action_source", "app")));
    assertThatThrownBy(() -> resolve(config, Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("workspaces[0].integrations[0].action_source: \"app\" is not supported: Meta requires "
            + "app_data (the device's extinfo and the person's tracking permissions) on app events, and these events "
            + "have none; set it to one of business_messaging, chat, email, other, phone_call, physical_store, "
            + "system_generated, website (\"chat\", the default, for conversions made in a Telegram bot)")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("must be one of"));

    JsonObject tiktok = valid();
    ws(tiktok).put("integrations", new JsonArray().add(tiktok().put("event_source", "app")));
    assertThat(resolve(tiktok, Map.of()).workspaces().get(0).integrations().get(0).source()).isEqualTo("app");
  }

  @Test
  @DisplayName("an event_map row overrides only what it names; a new name can be made monetary")
  void eventMapOverrides() {
    JsonObject config = valid();
    ws(config).put("event_map", new JsonObject()
        .put("REG", new JsonObject().put("tiktok", "CompleteRegistration"))
        .put("VIP", new JsonObject().put("meta", "Purchase").put("tiktok", "CompletePayment").put("monetary", true))
        .put("Subscribe", new JsonObject().put("meta", "Subscribe"))
        .put("FTD", new JsonObject().put("tiktok", "Purchase"))
        .put("Level 2", new JsonObject().put("snapchat", "LEVEL_COMPLETE")));

    WorkspaceConfig workspace = resolve(config, Map.of()).workspaces().get(0);

    assertThat(EventMap.mapping(workspace, "REG"))
        .isEqualTo(new EventMapping("CompleteRegistration", "CompleteRegistration", "SIGN_UP", false));
    assertThat(EventMap.requiresValue(workspace, "VIP")).isTrue();
    assertThat(EventMap.mapping(workspace, "VIP"))
        .isEqualTo(new EventMapping("Purchase", "CompletePayment", "CUSTOM_EVENT_1", true));
    EventMapping subscribe = EventMap.mapping(workspace, "Subscribe");
    assertThat(subscribe).as("a row naming Meta only keeps TikTok's and Snapchat's defaults")
        .isEqualTo(new EventMapping("Subscribe", "SubmitForm", "SUBSCRIBE", false));
    assertThat(subscribe.nameFor(Network.META)).isEqualTo("Subscribe");
    assertThat(subscribe.nameFor(Network.TIKTOK)).isEqualTo("SubmitForm");
    assertThat(subscribe.nameFor(Network.SNAPCHAT)).isEqualTo("SUBSCRIBE");
    assertThat(EventMap.mapping(workspace, "FTD")).as("monetary left out stays the default's")
        .isEqualTo(new EventMapping("Purchase", "Purchase", "PURCHASE", true));
    assertThat(EventMap.mapping(workspace, "Level Up"))
        .isEqualTo(new EventMapping("Level Up", "Level Up", "CUSTOM_EVENT_1", false));
    assertThat(EventMap.mapping(workspace, "Level 2"))
        .isEqualTo(new EventMapping("Level 2", "Level 2", "LEVEL_COMPLETE", false));

    ws(config).put("event_map", new JsonObject().put("X", new JsonObject().put("snapchat", "Level Complete")));
    assertThatThrownBy(() -> resolve(config, Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("event_map.X.snapchat: must be one of Snapchat's event names: PURCHASE, SAVE");
  }

  @Test
  @DisplayName("a Snapchat integration: its pixel id and token, tr.snapchat.com and WEB by default, the bot's page; "
      + "MOBILE_APP, a Meta key or a bad pixel id refused")
  void snapchatIntegration() {
    JsonObject config = valid();
    ws(config).put("bot_name", "demo_bot").put("integrations", new JsonArray().add(new JsonObject()
        .put("id", "snap").put("type", "snapchat").put("pixel_id", "5b4f1a0e-7d2c-4c1b-9a0f-2e3d4c5b6a79")
        .put("access_token", "t").put("limited_data_use", true)));
    IntegrationConfig snap = resolve(config, Map.of()).workspaces().get(0).integrations().get(0);
    assertThat(snap.network()).isEqualTo(Network.SNAPCHAT);
    assertThat(snap.pixel()).isEqualTo("5b4f1a0e-7d2c-4c1b-9a0f-2e3d4c5b6a79");
    assertThat(snap.apiBase()).isEqualTo("https://tr.snapchat.com");
    assertThat(snap.source()).isEqualTo("WEB");
    assertThat(snap.apiVersion()).isNull();
    assertThat(snap.pageUrl()).isEqualTo("https://t.me/demo_bot");
    assertThat(snap.dataProcessing().limitedDataUse()).isTrue();

    for (var bad : Map.of(
        "action_source", "integrations[0].action_source: must be one of WEB, OFFLINE",
        "pixel_code", "integrations[0].pixel_code: unknown key",
        "pixel_id", "integrations[0].pixel_id: required, the Snap Pixel id (letters, digits and -)").entrySet()) {
      JsonObject broken = config.copy();
      JsonObject integration = ws(broken).getJsonArray("integrations").getJsonObject(0);
      integration.put(bad.getKey(), bad.getKey().equals("action_source") ? "MOBILE_APP" : "bad pixel!");
      assertThatThrownBy(() -> resolve(broken, Map.of())).as(bad.getKey()).isInstanceOf(ConfigException.class)
          .hasMessageContaining(bad.getValue());
    }
  }

  @Test
  @DisplayName("a Google Ads integration: the account without dashes, the credentials from the environment, the "
      + "action per event name; it takes only names with an action; refusals name the key, never a secret")
  void googleAdsIntegration() {
    JsonObject config = valid();
    JsonObject google = new JsonObject().put("id", "g").put("type", "google_ads").put("customer_id", "123-456-7890")
        .put("login_customer_id", "9876543210").put("developer_token", "${DEV}").put("client_id", "cid")
        .put("client_secret", "${SECRET}").put("refresh_token", "${REFRESH}")
        .put("conversion_actions", new JsonObject().put("FTD", "111").put("REG", 222));
    ws(config).put("integrations", new JsonArray().add(google));
    Map<String, String> env = Map.of("DEV", "dev-token-1", "SECRET", "secret-2", "REFRESH", "refresh-3");
    WorkspaceConfig workspace = resolve(config, env).workspaces().get(0);
    IntegrationConfig integration = workspace.integrations().get(0);
    assertThat(integration.network()).isEqualTo(Network.GOOGLE_ADS);
    assertThat(integration.google()).isEqualTo(new GoogleAdsConfig("1234567890", "9876543210", "dev-token-1", "cid",
        "secret-2", "https://oauth2.googleapis.com/token", Map.of("FTD", "111", "REG", "222")));
    assertThat(integration.accessToken()).isEqualTo("refresh-3");
    assertThat(integration.apiBase()).isEqualTo("https://googleads.googleapis.com");
    assertThat(integration.apiVersion()).isEqualTo("v26");
    assertThat(integration.takes("FTD")).isTrue();
    assertThat(integration.takes("DEP")).as("no action").isFalse();
    assertThat(integration.corrects()).isTrue();
    assertThat(integration.sendsOnce()).isTrue();
    assertThat(EventMap.nameFor(workspace, integration, "REG")).isEqualTo("222");
    assertThat(integration.google().toString()).doesNotContain("dev-token-1").doesNotContain("secret-2");

    for (var bad : Map.of(
        "customer_id", "integrations[0].customer_id: required, the 10-digit customer id",
        "conversion_actions", "integrations[0].conversion_actions.FTD: an event name to the numeric id",
        "developer_token", "integrations[0].developer_token: required",
        "access_token", "integrations[0].access_token: unknown key",
        "token_url", "integrations[0].token_url: must be an http(s) URL").entrySet()) {
      JsonObject broken = config.copy();
      JsonObject integrationJson = ws(broken).getJsonArray("integrations").getJsonObject(0);
      switch (bad.getKey()) {
        case "customer_id" -> integrationJson.put("customer_id", "12-34");
        case "conversion_actions" -> integrationJson.put("conversion_actions", new JsonObject().put("FTD", "a1"));
        case "developer_token" -> integrationJson.remove("developer_token");
        case "access_token" -> integrationJson.put("access_token", "x");
        default -> integrationJson.put("token_url", "ftp://x");
      }
      assertThatThrownBy(() -> resolve(broken, env)).as(bad.getKey()).isInstanceOf(ConfigException.class)
          .hasMessageContaining(bad.getValue()).message().doesNotContain("secret-2").doesNotContain("refresh-3");
    }
    for (var bad : Map.of(
        "login_customer_id", new Object[] {"12345", "integrations[0].login_customer_id: the 10-digit customer id"},
        "api_version", new Object[] {"26", "integrations[0].api_version: must look like v26"},
        "client_secret", new Object[] {" ", "integrations[0].client_secret: required"},
        "customer_id", new Object[] {null, "integrations[0].customer_id: required, the 10-digit"},
        "api_base", new Object[] {"http://127.0.0.1:9/", "integrations[0].api_base"},
        "conversion_actions", new Object[] {new JsonObject().put("Bad/Name", "1").put("FTD", true),
            "integrations[0].conversion_actions.Bad/Name: an event name"}).entrySet()) {
      JsonObject broken = config.copy();
      ws(broken).getJsonArray("integrations").getJsonObject(0).put(bad.getKey(), bad.getValue()[0]);
      assertThatThrownBy(() -> resolve(broken, env)).as(bad.getKey()).isInstanceOf(ConfigException.class)
          .hasMessageContaining((String) bad.getValue()[1]);
    }
    JsonObject actionNotText = config.copy();
    ws(actionNotText).getJsonArray("integrations").getJsonObject(0).put("conversion_actions",
        new JsonObject().put("FTD", true));
    assertThatThrownBy(() -> resolve(actionNotText, env)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("integrations[0].conversion_actions.FTD: an event name");
    JsonObject local = config.copy();
    ws(local).getJsonArray("integrations").getJsonObject(0).put("token_url", "http://127.0.0.1:9/token")
        .put("api_base", "http://127.0.0.1:9/").put("allow_private_network", true);
    IntegrationConfig allowed = resolve(local, env).workspaces().get(0).integrations().get(0);
    assertThat(allowed.google().tokenUrl()).isEqualTo("http://127.0.0.1:9/token");
    assertThat(allowed.apiBase()).isEqualTo("http://127.0.0.1:9");
    JsonObject disabled = config.copy();
    ws(disabled).getJsonArray("integrations").getJsonObject(0).put("enabled", false).put("customer_id", "")
        .put("developer_token", "").put("client_id", "").put("client_secret", "").put("refresh_token", "");
    IntegrationConfig blank = resolve(disabled, env).workspaces().get(0).integrations().get(0);
    assertThat(blank.enabled()).isFalse();
    assertThat(blank.google().customerId()).isEmpty();
    assertThat(blank.accessToken()).isEmpty();
    assertThat(blank.google().loginCustomerId()).isEqualTo("9876543210");
    for (String key : List.of("customer_id", "developer_token", "client_secret")) {
      JsonObject enabledBlank = config.copy();
      ws(enabledBlank).getJsonArray("integrations").getJsonObject(0).put(key, "");
      assertThatThrownBy(() -> resolve(enabledBlank, env)).as(key + " blank while enabled")
          .isInstanceOf(ConfigException.class).hasMessageContaining("integrations[0]." + key + ": required");
    }
    JsonObject disabledFilled = config.copy();
    ws(disabledFilled).getJsonArray("integrations").getJsonObject(0).put("enabled", false);
    assertThat(resolve(disabledFilled, env).workspaces().get(0).integrations().get(0).google())
        .as("disabled, its settings kept").isEqualTo(integration.google());
    JsonObject noLogin = config.copy();
    ws(noLogin).getJsonArray("integrations").getJsonObject(0).remove("login_customer_id");
    assertThat(resolve(noLogin, env).workspaces().get(0).integrations().get(0).google().loginCustomerId()).isNull();

    JsonObject empty = config.copy();
    ws(empty).getJsonArray("integrations").getJsonObject(0).put("conversion_actions", new JsonObject());
    assertThatThrownBy(() -> resolve(empty, env)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("integrations[0].conversion_actions: required");
  }

  @Test
  @DisplayName("an integration's events list names what it takes; absent, it takes every name; a bad list is refused")
  void integrationEvents() {
    JsonObject config = valid();
    ws(config).put("bot_name", "demo_bot")
        .put("integrations", new JsonArray().add(meta().put("events", new JsonArray().add("FTD").add("REG")))
            .add(tiktok()));

    List<IntegrationConfig> integrations = resolve(config, Map.of()).workspaces().get(0).integrations();
    assertThat(integrations.get(0).events()).containsExactly("FTD", "REG");
    assertThat(integrations.get(0).takes("FTD")).isTrue();
    assertThat(integrations.get(0).takes("ftd")).as("names are case-sensitive, as the mapping is").isFalse();
    assertThat(integrations.get(0).takes("DEP")).isFalse();
    assertThat(integrations.get(1).events()).isNull();
    assertThat(integrations.get(1).takes("anything")).isTrue();

    for (Object bad : new Object[] {new JsonArray(), "FTD", new JsonArray().add("FTD").add(5),
        new JsonArray().add("a.b"), new JsonArray().add("x".repeat(51))}) {
      JsonObject refused = valid();
      ws(refused).put("integrations", new JsonArray().add(meta().put("events", bad)));
      assertThatThrownBy(() -> resolve(refused, Map.of())).as(String.valueOf(bad))
          .hasMessageContaining("workspaces[0].integrations[0].events");
    }
  }

  @Test
  @DisplayName("Limited Data Use per integration: off by default; Meta's country and state take Meta's values only")
  void integrationDataProcessing() {
    JsonObject config = valid();
    ws(config).put("bot_name", "demo_bot").put("integrations", new JsonArray()
        .add(meta().put("limited_data_use", true).put("data_processing_options_country", 1)
            .put("data_processing_options_state", 1000))
        .add(tiktok().put("limited_data_use", true))
        .add(meta().put("id", "m2")));
    List<IntegrationConfig> integrations = resolve(config, Map.of()).workspaces().get(0).integrations();
    assertThat(integrations.get(0).dataProcessing()).isEqualTo(new DataProcessing(true, 1, 1000));
    assertThat(integrations.get(1).dataProcessing()).isEqualTo(new DataProcessing(true, 0, 0));
    assertThat(integrations.get(2).dataProcessing()).isEqualTo(DataProcessing.NONE);

    for (JsonObject bad : new JsonObject[] {meta().put("data_processing_options_state", 5),
        meta().put("data_processing_options_country", 2), meta().put("limited_data_use", "yes"),
        tiktok().put("data_processing_options_country", 1)}) {
      JsonObject refused = valid();
      ws(refused).put("bot_name", "demo_bot").put("integrations", new JsonArray().add(bad));
      assertThatThrownBy(() -> resolve(refused, Map.of())).as(bad.encode())
          .hasMessageContaining("workspaces[0].integrations[0]");
    }
  }

  @Test
  @DisplayName("a URL whose host is written as a loopback, link-local, private or unspecified address, or localhost, "
      + "is refused unless the integration sets allow_private_network; a public address or a name is taken")
  void privateTargets() {
    String message = ": the host is a loopback, link-local, private or unspecified address (or localhost); set "
        + "\"allow_private_network\": true on the integration to send there";
    for (String host : new String[] {"127.0.0.1", "localhost", "LOCALHOST.", "api.localhost", "10.1.2.3",
        "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0", "100.64.0.1", "[::1]", "[fe80::1]", "[fd00::1]",
        "[::ffff:127.0.0.1]", "[::]", "2130706433", "127.1", "0x7f.0.0.1", "user:pw@127.0.0.1"}) {
      JsonObject hook = valid();
      ws(hook).put("integrations", new JsonArray().add(webhook().put("url", "http://" + host + ":8080/pb")));
      assertThatThrownBy(() -> resolve(hook, Map.of("HOOK_SECRET", "s".repeat(16)))).as(host)
          .hasMessageContaining("workspaces[0].integrations[0].url" + message);
      JsonObject network = valid();
      ws(network).put("integrations", new JsonArray().add(meta().put("api_base", "http://" + host + "/graph")));
      assertThatThrownBy(() -> resolve(network, Map.of())).as(host)
          .hasMessageContaining("workspaces[0].integrations[0].api_base" + message);

      JsonObject allowed = valid();
      ws(allowed).put("integrations", new JsonArray()
          .add(webhook().put("url", "http://" + host + ":8080/pb").put("allow_private_network", true))
          .add(meta().put("id", "m").put("api_base", "http://" + host).put("allow_private_network", true)));
      List<IntegrationConfig> taken = resolve(allowed, Map.of("HOOK_SECRET", "s".repeat(16))).workspaces().get(0)
          .integrations();
      assertThat(taken).as(host).allMatch(IntegrationConfig::allowPrivateNetwork);
    }
    for (String host : new String[] {"tracker.example", "8.8.8.8", "[2606:4700::1]", "localhost.example",
        "10.example", "my-localhost"}) {
      JsonObject config = valid();
      ws(config).put("integrations", new JsonArray().add(webhook().put("url", "https://" + host + "/pb"))
          .add(meta().put("id", "m").put("api_base", "https://" + host)));
      assertThat(resolve(config, Map.of("HOOK_SECRET", "s".repeat(16))).workspaces().get(0).integrations())
          .as(host).noneMatch(IntegrationConfig::allowPrivateNetwork);
    }
    JsonObject notBoolean = valid();
    ws(notBoolean).put("integrations", new JsonArray().add(meta().put("allow_private_network", "yes")));
    assertThatThrownBy(() -> resolve(notBoolean, Map.of()))
        .hasMessageContaining("workspaces[0].integrations[0].allow_private_network: must be true or false");
  }

  @Test
  @DisplayName("Telegram: a pass_through URL written as a private address is refused unless pass_through sets "
      + "allow_private_network; a bot's api_base is refused at a private address unless written as localhost, "
      + "127.0.0.1 or [::1] (a local Bot API server, called as written)")
  void telegramPrivateTargets() {
    for (String host : new String[] {"127.0.0.1", "localhost", "10.1.2.3", "169.254.169.254", "[::1]"}) {
      JsonObject refused = valid();
      ws(refused).put("telegram", new JsonObject().put("webhook_secret", "0123456789abcdef")
          .put("pass_through", new JsonObject().put("url", "http://" + host + ":3000/hook")));
      assertThatThrownBy(() -> resolve(refused, Map.of())).as(host).hasMessageContaining("workspaces[0].telegram"
          + ".pass_through.url: the host is a loopback, link-local, private or unspecified address (or localhost); "
          + "set \"allow_private_network\": true in pass_through to send there");
      JsonObject allowed = valid();
      ws(allowed).put("telegram", new JsonObject().put("webhook_secret", "0123456789abcdef")
          .put("pass_through", new JsonObject().put("url", "http://" + host + ":3000/hook")
              .put("allow_private_network", true)));
      assertThat(resolve(allowed, Map.of()).workspaces().get(0).telegram().passThrough().allowPrivateNetwork())
          .as(host).isTrue();
    }
    JsonObject publicName = valid();
    ws(publicName).put("telegram", new JsonObject().put("webhook_secret", "0123456789abcdef")
        .put("pass_through", new JsonObject().put("url", "https://bot.example/hook")));
    assertThat(resolve(publicName, Map.of()).workspaces().get(0).telegram().passThrough().allowPrivateNetwork())
        .isFalse();
    JsonObject notBoolean = valid();
    ws(notBoolean).put("telegram", new JsonObject().put("webhook_secret", "0123456789abcdef")
        .put("pass_through", new JsonObject().put("url", "https://bot.example/hook").put("allow_private_network", 1)));
    assertThatThrownBy(() -> resolve(notBoolean, Map.of())).hasMessageContaining(
        "workspaces[0].telegram.pass_through.allow_private_network: must be true or false");

    for (String apiBase : new String[] {"https://10.1.2.3", "https://169.254.169.254/bot", "https://127.0.0.2:8081",
        "https://[fd00::1]", "https://localhost.", "https://api.localhost"}) {
      JsonObject refused = valid();
      ws(refused).put("telegram", new JsonObject().put("webhook_secret", "0123456789abcdef")
          .put("api_base", apiBase));
      assertThatThrownBy(() -> resolve(refused, Map.of())).as(apiBase).hasMessageContaining("workspaces[0].telegram"
          + ".api_base: the host is a loopback, link-local, private or unspecified address; the Bot API is called at "
          + "a public address, or at localhost, 127.0.0.1 or [::1] as written (a local Bot API server)");
    }
    for (String apiBase : new String[] {"https://api.telegram.org", "https://8.8.8.8", "https://127.0.0.1:8443",
        "https://LocalHost", "http://localhost:8081", "http://[::1]:8081", "http://127.0.0.1"}) {
      JsonObject taken = valid();
      ws(taken).put("telegram", new JsonObject().put("webhook_secret", "0123456789abcdef").put("api_base", apiBase));
      TelegramConfig bot = resolve(taken, Map.of()).workspaces().get(0).telegram();
      assertThat(bot.localApi()).as(apiBase).isEqualTo(!apiBase.contains("api.telegram.org")
          && !apiBase.contains("8.8.8.8"));
    }
  }

  @Test
  @DisplayName("a URL whose authority has no host (\"http://:8080/pb\", \"http://user@/pb\") has no address to "
      + "check here: it is never taken for a private one, and its check does not fail")
  void urlWithoutHost() {
    for (String url : new String[] {"http://:8080/pb", "http://user@/pb"}) {
      JsonObject config = valid();
      ws(config).put("integrations", new JsonArray().add(webhook().put("url", url))
          .add(meta().put("id", "m").put("api_base", url)));
      Throwable outcome = catchThrowable(() -> resolve(config, Map.of("HOOK_SECRET", "s".repeat(16))));
      assertThat(outcome).as(url).satisfiesAnyOf(
          failure -> assertThat(failure).isNull(),
          failure -> assertThat(failure).isInstanceOf(ConfigException.class)
              .hasMessageNotContaining("the host is a loopback"));
    }
  }

  @Test
  @DisplayName("approve_join_requests beside an invalid channel_id: the channel_id alone is named")
  void approveWithInvalidChannel() {
    JsonObject config = valid();
    ws(config).put("telegram", new JsonObject().put("webhook_secret", "0123456789abcdef")
        .put("bot_token", "1:abcdefghijklmnopqrstuvwxyz").put("channel_id", "my channel")
        .put("approve_join_requests", true));
    assertThatThrownBy(() -> resolve(config, Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining("workspaces[0].telegram.channel_id: must be the channel's numeric id")
        .hasMessageNotContaining("approve_join_requests");
  }

  private static JsonObject webhook() {
    return new JsonObject().put("id", "w").put("type", "webhook")
        .put("url", "https://tracker.example/pb/{mapped_event}?sub={session_id}&click={fbclid}")
        .put("secret", "${HOOK_SECRET}");
  }

  @Test
  @DisplayName("a webhook: its URL with placeholders, POST by default, headers and secret from the environment, its "
      + "own event names; it maps through EventMap like a network")
  void webhookIntegration() {
    JsonObject config = valid();
    ws(config).put("integrations", new JsonArray()
        .add(webhook().put("headers", new JsonObject().put("Authorization", "Bearer ${HOOK_TOKEN}"))
            .put("event_map", new JsonObject().put("FTD", "sale")).put("events", new JsonArray().add("FTD")))
        .add(webhook().put("id", "w2").put("method", "GET").put("enabled", false).put("dry_run", true)));
    WorkspaceConfig workspace = resolve(config, Map.of("HOOK_SECRET", "s".repeat(16), "HOOK_TOKEN", "t0k"))
        .workspaces().get(0);
    IntegrationConfig first = workspace.integrations().get(0);
    assertThat(first.network()).isEqualTo(Network.WEBHOOK);
    assertThat(first.accessToken()).as("the secret").isEqualTo("s".repeat(16));
    assertThat(first.webhook().url()).isEqualTo("https://tracker.example/pb/{mapped_event}?sub={session_id}"
        + "&click={fbclid}");
    assertThat(first.webhook().method()).isEqualTo("POST");
    assertThat(first.webhook().headers()).containsExactly(Map.entry("Authorization", "Bearer t0k"));
    assertThat(first.webhook().toString()).isEqualTo("WebhookConfig[POST]");
    assertThat(first.enabled()).isTrue();
    assertThat(first.dryRun()).isFalse();
    assertThat(first.takes("FTD")).isTrue();
    assertThat(first.takes("REG")).isFalse();
    assertThat(first.dataProcessing()).isEqualTo(DataProcessing.NONE);
    assertThat(first.pixel()).isNull();
    assertThat(EventMap.nameFor(workspace, first, "FTD")).isEqualTo("sale");
    assertThat(EventMap.nameFor(workspace, first, "REG")).as("other names as sent").isEqualTo("REG");
    IntegrationConfig second = workspace.integrations().get(1);
    assertThat(second.webhook().method()).isEqualTo("GET");
    assertThat(second.webhook().headers()).isEmpty();
    assertThat(second.webhook().eventMap()).isEmpty();
    assertThat(second.enabled()).isFalse();
    assertThat(second.dryRun()).isTrue();
    assertThat(EventMap.nameFor(workspace, meta(workspace), "FTD")).isEqualTo("Purchase");
  }

  private static IntegrationConfig meta(WorkspaceConfig workspace) {
    return new IntegrationConfig("m", Network.META, "1", "t", "http://x", "v25.0", "chat", null, null, true, false,
        null, DataProcessing.NONE, null);
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(delimiter = '|', value = {
      "{\"url\":\"ftp://x.example/pb\"}                       | integrations[0].url: required, an absolute http(s) URL",
      "{\"url\":null}                                         | integrations[0].url: required",
      "{\"url\":\"https://x.example/pb?c={clickid}\"}          | integrations[0].url: unknown placeholder {clickid}",
      "{\"method\":\"DELETE\"}                                  | integrations[0].method: must be POST, PUT or GET",
      "{\"secret\":\"short\"}                                   | integrations[0].secret: required, at least 16",
      "{\"secret\":null}                                      | integrations[0].secret: required",
      "{\"headers\":{\"Content-Type\":\"text/plain\"}}            | integrations[0].headers.Content-Type: set by the service",
      "{\"headers\":{\"x-event-router-signature\":\"x\"}}         | integrations[0].headers.x-event-router-signature: set by",
      "{\"headers\":{\"Bad Name\":\"x\"}}                         | integrations[0].headers.Bad Name: not a valid header name",
      "{\"headers\":{\"X-Key\":\"\"}}                             | integrations[0].headers.X-Key: must be a non-empty string",
      "{\"headers\":{\"X-Key\":5}}                              | integrations[0].headers.X-Key: must be a non-empty string",
      "{\"headers\":{\"X-Key\":\"a\\nb\"}}                        | integrations[0].headers.X-Key: must be a non-empty string",
      "{\"headers\":[]}                                       | integrations[0].headers: must be an object",
      "{\"event_map\":{\"FTD\":\"a.b\"}}                          | integrations[0].event_map.FTD: event names on both sides",
      "{\"event_map\":{\"F.D\":\"sale\"}}                         | integrations[0].event_map.F.D: event names on both sides",
      "{\"event_map\":{\"FTD\":1}}                              | integrations[0].event_map.FTD: event names on both sides",
      "{\"access_token\":\"x\"}                                 | integrations[0].access_token: unknown key",
      "{\"type\":\"zapier\"}                                    | integrations[0].type: required, \"meta\", \"tiktok\", \"snapchat\", \"google_ads\" or \"webhook\""})
  @DisplayName("a bad webhook is refused naming the path, never quoting a header value or the secret")
  void invalidWebhook(String change, String expected) {
    JsonObject config = valid();
    JsonObject hook = webhook().put("secret", "secret-value-0123456789").mergeIn(new JsonObject(change));
    ws(config).put("integrations", new JsonArray().add(hook));
    assertThatThrownBy(() -> resolve(config, Map.of())).isInstanceOf(ConfigException.class)
        .hasMessageContaining(expected).hasMessageNotContaining("secret-value-0123456789")
        .hasMessageNotContaining("text/plain");
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

    JsonObject inArray = valid();
    ws(inArray).put("api_keys", new JsonArray().add("${KEY_HASH}"));
    assertThat(resolve(inArray, Map.of("KEY_HASH", HASH)).workspaces().get(0).apiKeyHashes()).hasSize(1);
    assertThatThrownBy(() -> resolve(valid().put("telemetry", "${NOPE}"), Map.of()))
        .hasMessage("invalid configuration:\n  - telemetry: environment variable NOPE is not set");
  }

  @Test
  @DisplayName("DATABASE_URL in the environment wins over database.url")
  void databaseUrlFromEnvironment() {
    JsonObject config = valid();
    config.getJsonObject("database").put("url", "postgresql://a@file:5432/x").put("pool_size", 3);

    AppConfig resolved = resolve(config, Map.of("DATABASE_URL", "postgresql://b@env:5432/y"));

    assertThat(resolved.database().url()).isEqualTo("postgresql://b@env:5432/y");
    assertThat(resolved.database().embedded()).isFalse();
    assertThat(resolved.database().poolSize()).as("the rest of the section is kept").isEqualTo(3);
    JsonObject noSection = valid();
    noSection.remove("database");
    assertThat(resolve(noSection, Map.of("DATABASE_URL", "postgresql://b@env:5432/y")).database().url())
        .isEqualTo("postgresql://b@env:5432/y");
    assertThat(resolve(config, Map.of("DATABASE_URL", " ")).database().url())
        .as("a blank DATABASE_URL is no setting").isEqualTo("postgresql://a@file:5432/x");
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

  @Test
  @DisplayName("read before Vert.x exists (to learn whether to cluster): the same config, the same errors")
  void readNow(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path file = dir.resolve("config.json");
    java.nio.file.Files.writeString(file, valid().encode());
    assertThat(new ConfigLoader(Map.of()).readNow(file).http().port()).isEqualTo(9000);

    java.nio.file.Files.writeString(file, "{\"http\": ");
    assertThatThrownBy(() -> new ConfigLoader(Map.of()).readNow(file)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("config.json: not a valid JSON object");
    assertThatThrownBy(() -> new ConfigLoader(Map.of()).readNow(dir.resolve("missing.json")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("  - config file not found: ")
        .hasMessageEndingWith("missing.json");
    assertThatThrownBy(() -> new ConfigLoader(Map.of()).readNow(dir)).as("a directory is no config file")
        .isInstanceOf(ConfigException.class).hasMessageContaining("  - config file not found: ");
  }
}
