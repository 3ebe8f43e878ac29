package dev.eventrouter.read;

import dev.eventrouter.event.SpendRow;
import dev.eventrouter.store.FunnelRollups;
import dev.eventrouter.store.SpendStore;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cohort report against figures computed by hand, from conversions written on the days they happened (the
 * cohort rollups catch up over them as after an upgrade). Day D is ten days ago (UTC, the workspace's zone).
 * Campaign c1's ad 611 had 2 clicks on D: user 1's (FTD 100.00 on D, DEP 50.00 on D+3, DEP 30.00 on D+9) and user
 * 2's (FTD 200.00 on D+1, charged back on D+5). Campaign c2's ad 622 had 1 click on D+1: user 3's (FTD 40.00 on D+1,
 * a REG without a value). User 4's FTD 70.00 has no click. Ad 611 spent 60.00 on D, 622 20.00 on D+1.
 *
 * <p>So c1's D cohort: by D0 100.00 (1 payer), D1 100.00 (the chargeback moved user 2's 200.00 out of its age 1; 2
 * payers), D3 150.00, D7 150.00, D9 180.00, D14 not reached; ROAS 1.6667 at D0, 3 at D9. c2's D+1 cohort: 40.00 at
 * every age reached, ROAS 2, D9 not reached (its day ends today). The totals: 3 clicks, 80.00, D0 140.00, D7 190.00.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CohortReportTest {

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final UUID WS = UUID.fromString(WS_A);

  private TestApp app;
  private final LocalDate d = LocalDate.now(ZoneOffset.UTC).minusDays(10);
  private long serial;

  @BeforeAll
  void start(Vertx vertx) {
    JsonObject config = TestApp.config(TestDatabase.freshDatabaseUrl())
        .put("reports", new JsonObject().put("rollup_every_ms", 100).put("rollup_lag_ms", 0).put("cohorts", false));
    app = TestApp.start(vertx, config);
    Await.until("the first day zones", DEADLINE, () -> app.rows("SELECT 1 FROM funnel_day_zone").size() >= 2);
    click("s1", "c1", "611", d.atTime(10, 0));
    click("s2", "c1", "611", d.atTime(12, 0));
    click("s3", "c2", "622", d.plusDays(1).atTime(9, 0));
    event(1, "s1", "FTD", "100.00", d.atTime(11, 0));
    event(1, "s1", "DEP", "50.00", d.plusDays(3).atTime(10, 0));
    event(1, "s1", "DEP", "30.00", d.plusDays(9).atTime(10, 0));
    long chargedBack = event(2, "s2", "FTD", "200.00", d.plusDays(1).atTime(8, 0));
    event(3, "s3", "FTD", "40.00", d.plusDays(1).atTime(10, 0));
    event(3, "s3", "REG", null, d.plusDays(1).atTime(9, 30));
    event(4, null, "FTD", "70.00", d.plusDays(2).atTime(10, 0));
    app.rows("""
        INSERT INTO conversion_changes (event_id, seq, status, previous_status, value, currency, origin, changed_at)
        VALUES ($1, 1, 'chargeback', 'approved', 200.00, 'USD', 'api', $2)""", chargedBack,
        d.plusDays(5).atTime(9, 0).atOffset(ZoneOffset.UTC));
    SpendStore spend = new SpendStore(app.pool());
    Await.result(spend.upsert(WS, "sheet", 1, List.of(
        SpendRow.pushed(SpendRow.AD, "611", d, "UTC", "USD", new BigDecimal("60.00")),
        SpendRow.pushed(SpendRow.AD, "622", d.plusDays(1), "UTC", "USD", new BigDecimal("20.00")))));
    // The rounds start over from before D, as after an upgrade: the cohorts catch up with the conversions.
    OffsetDateTime before = d.minusDays(1).atStartOfDay().atOffset(ZoneOffset.UTC);
    // Under the rounds' lock, so no round running meanwhile writes its own reach over these.
    app.rows("""
        DO $$ BEGIN
          PERFORM 1 FROM funnel_cursor FOR UPDATE;
          UPDATE funnel_cursor SET upto = '%1$s';
          UPDATE cohort_cursor SET upto = '%1$s';
        END $$""".formatted(before));
    // Rounds without the cohorts (reports.cohorts false, as the service's own are here; a month's span each, run
    // here): the funnel's catch up, the cohorts stay where they were.
    OffsetDateTime started = OffsetDateTime.now();
    FunnelRollups rollups = new FunnelRollups(app.pool());
    Map<UUID, String> currencies = Map.of(WS, "USD", UUID.fromString(TestApp.WS_B), "USD");
    Map<UUID, String> zones = Map.of(WS, "Z", UUID.fromString(TestApp.WS_B), "Z");
    Await.until("the funnel's rounds caught up", DEADLINE, () -> {
      Await.result(rollups.rollUp(0, Duration.ofDays(30).toMillis(), currencies, zones, false));
      return !app.rows("SELECT 1 FROM funnel_cursor WHERE upto >= $1", started).isEmpty();
    });
    assertThat(app.rows("SELECT upto FROM cohort_cursor").get(0).getOffsetDateTime("upto")).isAtSameInstantAs(before);
    assertThat(app.rows("SELECT 1 FROM funnel_cohort")).isEmpty();
    // Turned on: the cohorts catch up from where they stopped.
    Await.until("the cohorts caught up", DEADLINE, () -> {
      Await.result(rollups.rollUp(0, Duration.ofDays(30).toMillis(), currencies, zones, true));
      return !app.rows("SELECT 1 FROM cohort_cursor WHERE upto >= $1", started).isEmpty();
    });
  }

  @AfterAll
  void stop() {
    app.close();
  }

  private void click(String session, String campaign, String ad, LocalDateTime at) {
    OffsetDateTime time = at.atOffset(ZoneOffset.UTC);
    app.rows("""
        INSERT INTO click_sessions (workspace_id, session_id, clicked_at, created_at, ad)
        VALUES ($1, $2, $3, $3, jsonb_build_object('campaign_id', $4::text, 'ad_id', $5::text))""",
        WS, session, time, campaign, ad);
  }

  /** An event as stored on its day (its id carries its time); its id. */
  private long event(long telegramId, String session, String name, String value, LocalDateTime at) {
    OffsetDateTime time = at.atOffset(ZoneOffset.UTC);
    long id = app.rows("SELECT event_id_floor($1) + $2 AS id", time, ++serial).get(0).getLong("id");
    app.rows("""
        INSERT INTO events (event_id, workspace_id, event_name, telegram_id, session_id, session_source, value,
                            currency, status, received_at)
        VALUES ($1, $2, $3, $4, $5, 'passed', $6::numeric, 'USD', 'processed', $7)""",
        id, WS, name, telegramId, session, value == null ? null : new BigDecimal(value), time);
    return id;
  }

  private JsonObject report(String query) {
    var r = app.get("/api/v1/reports/cohorts?from=" + d + "&to=" + d.plusDays(1) + "&" + query, KEY_A);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject().getJsonObject("data");
  }

  /** Each age's revenue, payers and ROAS as "revenue/payers/roas", "-" where not reached. */
  private static List<String> ages(JsonObject row) {
    List<String> ages = new ArrayList<>();
    for (Object item : row.getJsonArray("ages")) {
      JsonObject age = (JsonObject) item;
      ages.add(age.getValue("revenue") == null ? "-"
          : age.getString("revenue") + "/" + age.getLong("payers") + "/" + age.getValue("roas"));
    }
    return ages;
  }

  private static Map<String, JsonObject> byGroup(JsonObject report) {
    Map<String, JsonObject> rows = new TreeMap<>();
    JsonArray list = report.getJsonArray("rows");
    list.stream().map(JsonObject.class::cast).forEach(row -> rows.put(String.join("/",
        row.getJsonObject("group").stream().map(e -> String.valueOf(e.getValue())).toList()), row));
    return rows;
  }

  @Test
  @DisplayName("by campaign and click day: revenue, payers and ROAS by age as computed by hand; the chargeback "
      + "moved out of the age it was in, later deposits add, an age not reached is null")
  void byCampaignAndDay() {
    JsonObject report = report("group_by=campaign_id,click_day&ages=0,1,3,7,9,14");
    Map<String, JsonObject> rows = byGroup(report);
    assertThat(rows).containsOnlyKeys("c1/" + d, "c2/" + d.plusDays(1));
    JsonObject c1 = rows.get("c1/" + d);
    assertThat(c1.getLong("clicks")).isEqualTo(2);
    assertThat(c1.getString("cost")).isEqualTo("60.00");
    assertThat(ages(c1)).containsExactly("100.00/1/1.6667", "100.00/2/1.6667", "150.00/2/2.5", "150.00/2/2.5",
        "180.00/2/3.0", "-");
    JsonObject c2 = rows.get("c2/" + d.plusDays(1));
    assertThat(c2.getLong("clicks")).isEqualTo(1);
    assertThat(c2.getString("cost")).isEqualTo("20.00");
    assertThat(ages(c2)).containsExactly("40.00/1/2.0", "40.00/1/2.0", "40.00/1/2.0", "40.00/1/2.0", "-", "-");
    JsonObject totals = report.getJsonObject("totals");
    assertThat(totals.getLong("clicks")).isEqualTo(3);
    assertThat(totals.getString("cost")).isEqualTo("80.00");
    assertThat(ages(totals)).containsExactly("140.00/2/1.75", "140.00/3/1.75", "190.00/3/2.375", "190.00/3/2.375",
        "-", "-");
    assertThat(report.getJsonArray("ages")).containsExactly(0, 1, 3, 7, 9, 14);
    assertThat(report.getString("tz")).isEqualTo("UTC");
  }

  @Test
  @DisplayName("by ad over the whole range: one cohort per ad, reached as the range's last click day is")
  void byAd() {
    Map<String, JsonObject> rows = byGroup(report("group_by=ad_id&ages=0,7"));
    assertThat(ages(rows.get("611"))).containsExactly("100.00/1/1.6667", "150.00/2/2.5");
    assertThat(ages(rows.get("622"))).containsExactly("40.00/1/2.0", "40.00/1/2.0");
    // Grouped or filtered by a dimension besides the ids, the cohorts are read from the layer of every dimension:
    // the same figures.
    Map<String, JsonObject> wide = byGroup(report("group_by=utm_source,ad_id&ages=0,7"));
    assertThat(ages(wide.get("/611"))).containsExactly("100.00/1/1.6667", "150.00/2/2.5");
    assertThat(ages(wide.get("/622"))).containsExactly("40.00/1/2.0", "40.00/1/2.0");
    Map<String, JsonObject> filtered = byGroup(report("group_by=ad_id&ages=0,7&filter=country:"));
    assertThat(ages(filtered.get("611"))).containsExactly("100.00/1/1.6667", "150.00/2/2.5");
  }

  @Test
  @DisplayName("by ad over whole weeks: read from the weeks' rows with the days' around them, the same figures")
  void byAdOverWeeks() {
    assertThat(app.rows("SELECT 1 FROM funnel_cohort_ad_weeks")).isNotEmpty();
    // D-7 to D+8: D's week and D+1's are whole, so both clicks' cohorts come from the weeks' rows.
    var r = app.get("/api/v1/reports/cohorts?from=" + d.minusDays(7) + "&to=" + d.plusDays(8)
        + "&group_by=ad_id&ages=0,1", KEY_A);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    Map<String, JsonObject> rows = byGroup(r.bodyAsJsonObject().getJsonObject("data"));
    assertThat(rows).containsOnlyKeys("611", "622");
    assertThat(rows.get("611").getLong("clicks")).isEqualTo(2);
    assertThat(ages(rows.get("611"))).containsExactly("100.00/1/1.6667", "100.00/2/1.6667");
    assertThat(rows.get("622").getLong("clicks")).isEqualTo(1);
    assertThat(ages(rows.get("622"))).containsExactly("40.00/1/2.0", "40.00/1/2.0");
  }

  @Test
  @DisplayName("purged with the rollups: the layers by ids lose their days past the retention, a week with its last "
      + "day")
  void purge() {
    UUID other = UUID.fromString(TestApp.WS_B);
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    LocalDate old = today.minusDays(400);
    LocalDate kept = today.minusDays(300);
    LocalDate oldWeek = today.minusDays(380).with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
    LocalDate lastWeek = today.minusDays(364).with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
    for (LocalDate day : List.of(old, kept)) {
      app.rows("INSERT INTO funnel_ad_clicks (workspace_id, day, campaign_id, adset_id, ad_id, n) "
          + "VALUES ($1, $2, 'c9', 'as9', '999', 1)", other, day);
      app.rows("INSERT INTO funnel_cohort_ads (workspace_id, click_day, age, campaign_id, adset_id, ad_id, revenue) "
          + "VALUES ($1, $2, 0, 'c9', 'as9', '999', 1)", other, day);
    }
    for (LocalDate week : List.of(oldWeek, lastWeek)) {
      app.rows("INSERT INTO funnel_cohort_ad_weeks (workspace_id, click_week, age, campaign_id, adset_id, ad_id, "
          + "revenue) VALUES ($1, $2, 0, 'c9', 'as9', '999', 1)", other, week);
    }
    Await.result(new FunnelRollups(app.pool()).purge(365));
    assertThat(app.rows("SELECT day FROM funnel_ad_clicks WHERE workspace_id = $1", other))
        .extracting(row -> row.getLocalDate("day")).containsExactly(kept);
    assertThat(app.rows("SELECT click_day FROM funnel_cohort_ads WHERE workspace_id = $1", other))
        .extracting(row -> row.getLocalDate("click_day")).containsExactly(kept);
    assertThat(app.rows("SELECT click_week FROM funnel_cohort_ad_weeks WHERE workspace_id = $1", other))
        .extracting(row -> row.getLocalDate("click_week")).containsExactly(lastWeek);
  }

  @Test
  @DisplayName("by click week: the days of a week are one cohort, its cost their cost")
  void byWeek() {
    JsonObject report = report("group_by=click_week&ages=0");
    BigDecimal revenue = BigDecimal.ZERO;
    long clicks = 0;
    for (JsonObject row : byGroup(report).values()) {
      revenue = revenue.add(new BigDecimal(row.getJsonArray("ages").getJsonObject(0).getString("revenue")));
      clicks += row.getLong("clicks");
      assertThat(LocalDate.parse(row.getJsonObject("group").getString("click_week")).getDayOfWeek())
          .isEqualTo(java.time.DayOfWeek.MONDAY);
    }
    assertThat(revenue).isEqualByComparingTo("140.00");
    assertThat(clicks).isEqualTo(3);
    assertThat(report.getJsonObject("totals").getString("cost")).isEqualTo("80.00");
  }

  @Test
  @DisplayName("CSV: a line per cohort with its ages' cells, empty where not reached, then the totals")
  void csv() {
    var r = app.get("/api/v1/reports/cohorts?from=" + d + "&to=" + d + "&group_by=campaign_id&ages=0,14&format=csv",
        KEY_A);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.getHeader("content-type")).startsWith("text/csv");
    assertThat(r.bodyAsString()).isEqualTo("campaign_id,clicks,cost,revenue_d0,payers_d0,roas_d0,revenue_d14,"
        + "payers_d14,roas_d14\r\nc1,2,60.00,100.00,1,1.6667,,,\r\ntotal,2,60.00,100.00,1,1.6667,,,\r\n");
  }

  @Test
  @DisplayName("refusals: another zone, a day filter, ages out of range, three dimensions, each named in a 400")
  void refusals() {
    var r = app.get("/api/v1/reports/cohorts?tz=Europe/Berlin&filter=day:2026-01-01&ages=0,400"
        + "&group_by=campaign_id,ad_id,country", KEY_A);
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.bodyAsString()).contains("\"tz\"", "\"filter\"", "\"ages\"", "\"group_by\"");
  }
}
