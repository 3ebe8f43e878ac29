package dev.eventrouter.cost;

import dev.eventrouter.config.AppConfig;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.db.Database;
import dev.eventrouter.store.CostSourceStates;
import dev.eventrouter.store.SpendStore;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeMetaInsights;
import dev.eventrouter.support.FakeTikTokReports;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.MetaInsightsScript;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The spend import against fakes that speak Meta's insights and TikTok's report, with PostgreSQL: pages, the
 * accounts' zones, re-reads that overwrite, refused tokens, rate limits, "reduce the amount of data", cut-off pages,
 * and one node at a time. Polls are made due by hand (as the debugger's "poll now" does) and looked for every 50 ms.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpendImportTest {

  private static final UUID WS = UUID.fromString(TestApp.WS_A);
  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final SpendVerticle.Pacing FAST = new SpendVerticle.Pacing(50, 10_000, 1, 5_000, 100);
  /** An account ten hours ahead of UTC, so its today is often not UTC's. */
  private static final String SYDNEY = "Australia/Brisbane";

  private Vertx vertx;
  private Database database;
  private String databaseUrl;
  private FakeMetaInsights meta;
  private FakeTikTokReports tiktok;
  private LiveConfig live;
  private SpendVerticle verticle;
  private final List<String> deployments = new ArrayList<>();

  @BeforeAll
  void start(Vertx vertx) {
    this.vertx = vertx;
    databaseUrl = TestDatabase.freshDatabaseUrl();
    AppConfig config = config(FakeMetaInsights.TOKEN, FakeTikTokReports.TOKEN, false);
    database = Database.open(vertx, config.database(), 5_000, 1_000).await();
  }

  @AfterAll
  void close() {
    database.close().await();
  }

  @AfterEach
  void reset() {
    for (String id : deployments) {
      vertx.undeploy(id).await();
    }
    deployments.clear();
    database.pool().query("TRUNCATE ad_spend, ad_spend_days, cost_sources").execute().await();
    if (meta != null) {
      meta.close();
      meta = null;
    }
    if (tiktok != null) {
      tiktok.close();
      tiktok = null;
    }
  }

  /** WS_A with a Meta source (Brisbane, AUD) and a TikTok source (report days in Los Angeles), either enabled. */
  private AppConfig config(String metaToken, String tiktokToken, boolean tiktokOn) {
    JsonObject json = TestApp.config(databaseUrl);
    JsonArray sources = new JsonArray()
        .add(new JsonObject().put("id", "fb-main").put("type", "meta").put("ad_account_id", "1029384756")
            .put("access_token", metaToken).put("api_base", meta == null ? "http://127.0.0.1:1" : meta.baseUrl())
            .put("allow_private_network", true).put("enabled", !tiktokOn))
        .add(new JsonObject().put("id", "tt-main").put("type", "tiktok").put("advertiser_id", "7123456789012345678")
            .put("access_token", tiktokToken).put("timezone", "America/Los_Angeles")
            .put("api_base", tiktok == null ? "http://127.0.0.1:1" : tiktok.baseUrl())
            .put("allow_private_network", true).put("enabled", tiktokOn).put("initial_days", 44));
    json.getJsonArray("workspaces").getJsonObject(0).put("cost_sources", sources);
    return new ConfigLoader(Map.of()).resolve(json);
  }

  private void deploy(AppConfig config) {
    live = new LiveConfig(config);
    deployOne();
  }

  private void deployOne() {
    verticle = new SpendVerticle(new SpendStore(database.pool()), new CostSourceStates(database.pool()), live, FAST);
    deployments.add(vertx.deployVerticle(verticle).await());
  }

  private JsonObject state(String source) {
    return Await.result(new CostSourceStates(database.pool()).list(WS)).stream()
        .filter(s -> source.equals(s.getString("source_id"))).findFirst().orElse(null);
  }

  /** Waits for the source's poll number n to end, in the given state. */
  private JsonObject polled(String source, String state) {
    Await.until(source + " " + state, DEADLINE, () -> {
      JsonObject s = state(source);
      return s != null && state.equals(s.getString("state")) && s.getString("last_poll_at") != null
          && leaseFree(source);
    });
    return state(source);
  }

  private boolean leaseFree(String source) {
    return database.pool().preparedQuery("SELECT lease_until IS NULL AS free FROM cost_sources WHERE source_id = $1")
        .execute(Tuple.of(source)).await().iterator().next().getBoolean("free");
  }

  private void pollNow(String source) {
    database.pool().preparedQuery("UPDATE cost_sources SET last_poll_at = NULL WHERE source_id = $1")
        .execute(Tuple.of(source)).await();
    assertThat(Await.result(new CostSourceStates(database.pool()).pollNow(WS, source))).isTrue();
  }

  private Map<String, String> spend(String source) {
    Map<String, String> spend = new java.util.TreeMap<>();
    for (Row row : database.pool().preparedQuery("SELECT object_id, day, spend, zone, currency FROM ad_spend "
        + "WHERE source_id = $1").execute(Tuple.of(source)).await()) {
      spend.put(row.getString("object_id") + "@" + row.getLocalDate("day") + " " + row.getString("zone") + " "
          + row.getString("currency"), row.getBigDecimal("spend").stripTrailingZeros().toPlainString());
    }
    return spend;
  }

  private static LocalDate today(String zone) {
    return LocalDate.now(ZoneId.of(zone));
  }

  @Test
  @DisplayName("Meta: every page of the account's days is stored in its zone and currency, the token only ever in "
      + "the Authorization header, never in a query")
  void metaPages() {
    meta = FakeMetaInsights.start(vertx, "1029384756", SYDNEY, "AUD");
    meta.pageSize(2);
    LocalDate today = today(SYDNEY);
    meta.addRows(FakeMetaInsights.Row.of("611", today, "12.34", 9708, 215),
        FakeMetaInsights.Row.of("611", today.minusDays(1), "7.50", 5000, 100),
        FakeMetaInsights.Row.of("612", today.minusDays(1), "0.99", 10, 1),
        FakeMetaInsights.Row.of("613", today.minusDays(29), "100", 1, 1),
        FakeMetaInsights.Row.of("614", today.minusDays(31), "5", 1, 1)); // before the first read's 30 days
    Await.result(new CostSourceStates(database.pool()).ensure(WS, "fb-main", "meta"));
    assertThat(state("fb-main").getString("state")).as("no poll has succeeded yet").isEqualTo("new");
    deploy(config(FakeMetaInsights.TOKEN, FakeTikTokReports.TOKEN, false));
    JsonObject state = polled("fb-main", "ok");
    assertThat(spend("fb-main")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "611@" + today + " " + SYDNEY + " AUD", "12.34",
        "611@" + today.minusDays(1) + " " + SYDNEY + " AUD", "7.5",
        "612@" + today.minusDays(1) + " " + SYDNEY + " AUD", "0.99",
        "613@" + today.minusDays(29) + " " + SYDNEY + " AUD", "100"));
    assertThat(state.getLong("rows")).isEqualTo(4);
    assertThat(state.getString("account_zone")).isEqualTo(SYDNEY);
    assertThat(meta.received()).allSatisfy(r -> {
      assertThat(r.token()).isEqualTo(FakeMetaInsights.TOKEN);
      assertThat(r.params().contains("access_token")).isFalse();
    });
    List<FakeMetaInsights.Received> insights = meta.received().stream()
        .filter(r -> r.path().endsWith("/insights")).toList();
    // 31 days, 30 a request: the first 30 days' 3 rows on two pages of 2, then today's 1 row.
    assertThat(insights).hasSize(3);
    assertThat(insights.get(1).params().get("after")).isNotEmpty();
    assertThat(new JsonObject(insights.get(0).params().get("time_range")).getString("since"))
        .isEqualTo(today.minusDays(30).toString());
  }

  @Test
  @DisplayName("a re-read that lowers yesterday's spend lowers what is stored, and an ad Meta no longer reports for a "
      + "day it read is dropped: a re-read overwrites, never adds")
  void reReadOverwrites() {
    meta = FakeMetaInsights.start(vertx, "1029384756", SYDNEY, "AUD");
    LocalDate yesterday = today(SYDNEY).minusDays(1);
    meta.addRows(FakeMetaInsights.Row.of("611", yesterday, "20.00", 1, 1),
        FakeMetaInsights.Row.of("612", yesterday, "3.00", 1, 1),
        FakeMetaInsights.Row.of("613", yesterday.minusDays(10), "9.00", 1, 1));
    deploy(config(FakeMetaInsights.TOKEN, FakeTikTokReports.TOKEN, false));
    polled("fb-main", "ok");
    meta.clearRows();
    meta.addRows(FakeMetaInsights.Row.of("611", yesterday, "17.25", 1, 1),
        FakeMetaInsights.Row.of("613", yesterday.minusDays(10), "1.00", 1, 1));
    pollNow("fb-main");
    polled("fb-main", "ok");
    assertThat(spend("fb-main")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "611@" + yesterday + " " + SYDNEY + " AUD", "17.25",
        // Ten days back is past the re-read's 3 days: kept as the first read left it.
        "613@" + yesterday.minusDays(10) + " " + SYDNEY + " AUD", "9"));
    assertThat(database.pool().query("SELECT day::text || ' ' || currency || ' ' || trim_scale(spend) AS t "
        + "FROM ad_spend_days WHERE spend <> 0 ORDER BY day").execute().await().stream()
        .map(r -> r.getString("t")).toList()).as("the daily totals the report reads, after the sweep")
        .containsExactly(yesterday.minusDays(10) + " AUD 9", yesterday + " AUD 17.25");
    String since = new JsonObject(meta.received().get(meta.received().size() - 1).params().get("time_range"))
        .getString("since");
    assertThat(since).isEqualTo(today(SYDNEY).minusDays(3).toString());
  }

  @Test
  @DisplayName("a revoked token pauses the source once, in Meta's words without the token, is not asked again, and "
      + "a new token resumes it")
  void revokedTokenPauses() {
    meta = FakeMetaInsights.start(vertx, "1029384756", SYDNEY, "AUD");
    meta.addRows(FakeMetaInsights.Row.of("611", today(SYDNEY), "1.00", 1, 1));
    meta.script().revokeToken();
    LogCapture logs = LogCapture.start();
    try {
      deploy(config(FakeMetaInsights.TOKEN, FakeTikTokReports.TOKEN, false));
      JsonObject state = polled("fb-main", "paused");
      assertThat(state.getString("last_error")).startsWith("Meta error 190: Error validating access token")
          .doesNotContain(FakeMetaInsights.TOKEN);
      int asked = meta.received().size();
      // Ticks go on: the paused source is not claimed again with the same token.
      long ticks = verticle.ticks();
      Await.until("three more ticks", DEADLINE, () -> verticle.ticks() >= ticks + 3);
      assertThat(meta.received()).hasSize(asked);
      assertThat(logs.text().lines().filter(line -> line.contains("paused"))).hasSize(1);
      assertThat(logs.text()).doesNotContain(FakeMetaInsights.TOKEN);
    } finally {
      logs.stop();
    }
    meta.resetToken("meta-new-token-5a9b");
    live.replace(config("meta-new-token-5a9b", FakeTikTokReports.TOKEN, false));
    polled("fb-main", "ok");
    assertThat(spend("fb-main")).hasSize(1);
  }

  @Test
  @DisplayName("\"reduce the amount of data\" (100/1504018) asks again for fewer days: 30, then 7 at a time")
  void tooMuchDataShrinksTheRange() {
    meta = FakeMetaInsights.start(vertx, "1029384756", SYDNEY, "AUD");
    meta.script().maxDays(7, MetaInsightsScript.TooMuchData.CODE_100_1504018);
    LocalDate today = today(SYDNEY);
    for (int d = 0; d <= 30; d += 5) {
      meta.addRows(FakeMetaInsights.Row.of("61" + d, today.minusDays(d), "2.00", 1, 1));
    }
    deploy(config(FakeMetaInsights.TOKEN, FakeTikTokReports.TOKEN, false));
    polled("fb-main", "ok");
    assertThat(spend("fb-main")).hasSize(7);
    List<FakeMetaInsights.Received> ok = meta.received().stream()
        .filter(r -> r.path().endsWith("/insights") && r.status() == 200).toList();
    assertThat(ok).hasSize(5).allSatisfy(r -> {
      JsonObject range = new JsonObject(r.params().get("time_range"));
      assertThat(LocalDate.parse(range.getString("since")).plusDays(6))
          .isAfterOrEqualTo(LocalDate.parse(range.getString("until")));
    });
  }

  @Test
  @DisplayName("a page cut off mid-JSON is asked again, and nothing is lost")
  void truncatedPageAskedAgain() {
    meta = FakeMetaInsights.start(vertx, "1029384756", SYDNEY, "AUD");
    meta.addRows(FakeMetaInsights.Row.of("611", today(SYDNEY), "4.20", 1, 1));
    meta.script().truncateNextPage();
    deploy(config(FakeMetaInsights.TOKEN, FakeTikTokReports.TOKEN, false));
    polled("fb-main", "ok");
    assertThat(spend("fb-main")).containsValue("4.2");
  }

  @Test
  @DisplayName("rate limited (17 after the usage headers rise past 100): the poll stops and the next waits Meta's "
      + "estimated_time_to_regain_access")
  void rateLimitBacksOff() {
    meta = FakeMetaInsights.start(vertx, "1029384756", SYDNEY, "AUD");
    meta.pageSize(1);
    LocalDate today = today(SYDNEY);
    for (int d = 0; d < 6; d++) {
      meta.addRows(FakeMetaInsights.Row.of("61" + d, today.minusDays(d), "1.00", 1, 1));
    }
    meta.script().usage(40, MetaInsightsScript.Limit.USER_17, 7);
    deploy(config(FakeMetaInsights.TOKEN, FakeTikTokReports.TOKEN, false));
    JsonObject state = polled("fb-main", "failing");
    assertThat(state.getString("last_error")).startsWith("Meta error 17/2446079");
    long waitSeconds = Duration.between(java.time.Instant.now(),
        java.time.Instant.parse(state.getString("next_poll_at"))).toSeconds();
    assertThat(waitSeconds).isBetween(6L * 60 - 30, 7L * 60);
    assertThat(spend("fb-main")).hasSize(2); // the pages read before the limit are kept
  }

  @Test
  @DisplayName("TikTok: 30 days a request at most, \"-\" read as absent, the configured zone, the rows' currency")
  void tiktokReport() {
    tiktok = FakeTikTokReports.start(vertx, "7123456789012345678");
    String zone = "America/Los_Angeles";
    LocalDate today = today(zone);
    tiktok.addRows(new FakeTikTokReports.Row("1780000000000001", today.minusDays(40),
            Map.of("spend", "175.25", "impressions", "40000", "clicks", "-", "currency", "USD")),
        new FakeTikTokReports.Row("1780000000000002", today, Map.of("spend", "-", "currency", "USD")));
    deploy(config(FakeMetaInsights.TOKEN, FakeTikTokReports.TOKEN, true));
    polled("tt-main", "ok");
    assertThat(spend("tt-main")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "1780000000000001@" + today.minusDays(40) + " " + zone + " USD", "175.25",
        "1780000000000002@" + today + " " + zone + " USD", "0"));
    assertThat(tiktok.received()).hasSize(2).allSatisfy(r -> assertThat(r.code()).isZero());
    Row row = database.pool().query("SELECT clicks, impressions FROM ad_spend WHERE object_id = '1780000000000001'")
        .execute().await().iterator().next();
    assertThat(row.getLong("clicks")).isNull();
    assertThat(row.getLong("impressions")).isEqualTo(40000L);
  }

  @Test
  @DisplayName("TikTok's refused token pauses the source with TikTok's words")
  void tiktokToken() {
    tiktok = FakeTikTokReports.start(vertx, "7123456789012345678");
    deploy(config(FakeMetaInsights.TOKEN, "some-other-token-123", true));
    JsonObject state = polled("tt-main", "paused");
    assertThat(state.getString("last_error"))
        .isEqualTo("TikTok error 40105: Access token is incorrect or has been revoked.");
  }

  @Test
  @DisplayName("two nodes polling one source: one reads it, each page is asked for once")
  void oneNodeAtATime() {
    meta = FakeMetaInsights.start(vertx, "1029384756", SYDNEY, "AUD");
    meta.pageSize(1);
    for (int d = 0; d < 5; d++) {
      meta.addRows(FakeMetaInsights.Row.of("61" + d, today(SYDNEY).minusDays(d), "1.00", 1, 1));
    }
    deploy(config(FakeMetaInsights.TOKEN, FakeTikTokReports.TOKEN, false));
    deployOne();
    polled("fb-main", "ok");
    assertThat(meta.received().stream().filter(r -> r.path().endsWith("/insights"))).hasSize(5);
    assertThat(meta.received().stream().filter(r -> !r.path().endsWith("/insights"))).hasSize(1);
  }
}
