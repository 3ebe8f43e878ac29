package dev.eventrouter.read;

import dev.eventrouter.event.FunnelQuery;
import dev.eventrouter.event.SpendRow;
import dev.eventrouter.store.SpendReports;
import dev.eventrouter.store.SpendStore;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.KEY_B;
import static dev.eventrouter.support.TestApp.WS_A;
import static dev.eventrouter.support.TestApp.WS_B;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cost in the funnel report, computed by hand. Day D is three days ago (UTC, the report's zone). Ad 611 is in a
 * Brisbane account (UTC+10): 2 clicks at D-1 20:00 UTC (D 06:00 there) and 1 at D 15:00 UTC (D+1 01:00 there), with
 * 40.00 of spend on Brisbane's D and 10.00 on its D+1. Ad 622 is in a Los Angeles account (UTC-8): 1 click at D 05:00
 * UTC (D-1 21:00 there, DE) and 3 at D 10:00 UTC (D 02:00 there, 2 DE and 1 FR), with 5.00 on LA's D-1 and 30.00 on
 * its D. Ad 633 spent 7.00 on UTC's D with no click. Ad 644, in a UTC account like the workspace's day rollups, spent
 * 30.00 on D with 2 clicks at D 10:00 UTC and 1 at D 23:00 UTC (the 1st hour of D+1 in Berlin), all NL. FTD revenue:
 * 100.00 on 611, 49.00 on 622. So 611 cost 50.00 (ROAS 2, profit 50.00, ROI 1); 622 cost 35.00 (ROAS 1.4, profit
 * 14.00, ROI 0.4); 644 30.00; by UTC day, 611's D-1 cost 40.00 and its D 10.00, 644's D 30.00; by Berlin day 644's
 * D 20.00 and its D+1 10.00; by country DE 75.00 (611's 50, 622's 5 + 20), FR 10.00 and NL 30.00.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FunnelCostTest {

  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final UUID WS = UUID.fromString(WS_A);
  /** A workspace whose spend is all dated in its day rollups' zone (UTC): ad 655, 3 clicks at D 12:00 UTC and 1 at
   *  D 23:00 (Berlin's D+1), 40.00 spent on D and 8.00 on D+1 with no click. */
  private static final UUID WS_B_ID = UUID.fromString(WS_B);

  private TestApp app;
  private SpendStore spend;
  private final LocalDate d = LocalDate.now(ZoneOffset.UTC).minusDays(3);

  @BeforeAll
  void start(Vertx vertx) {
    JsonObject config = TestApp.config(TestDatabase.freshDatabaseUrl())
        .put("reports", new JsonObject().put("rollup_every_ms", 100).put("rollup_lag_ms", 0));
    app = TestApp.start(vertx, config);
    spend = new SpendStore(app.pool());
    Await.until("the first day zones", DEADLINE, () -> app.rows("SELECT 1 FROM funnel_day_zone").size() >= 2);
    step(d.minusDays(1).atTime(20, 0), "611", "DE", "$click", 2, "0");
    step(d.atTime(15, 0), "611", "DE", "$click", 1, "0");
    step(d.atTime(5, 0), "622", "DE", "$click", 1, "0");
    step(d.atTime(10, 0), "622", "DE", "$click", 2, "0");
    step(d.atTime(10, 0), "622", "FR", "$click", 1, "0");
    step(d.minusDays(1).atTime(21, 0), "611", "DE", "FTD", 1, "100.00");
    step(d.atTime(11, 0), "622", "FR", "FTD", 1, "49.00");
    step(d.atTime(10, 0), "644", "NL", "$click", 2, "0");
    step(d.atTime(23, 0), "644", "NL", "$click", 1, "0");
    step(WS_B_ID, d.atTime(12, 0), "655", "NL", "$click", 3, "0");
    step(WS_B_ID, d.atTime(23, 0), "655", "NL", "$click", 1, "0");
    app.rows("DELETE FROM funnel_day_zone"); // the day rows made again from these hours by the next round
    Await.until("the day rows made again", DEADLINE,
        () -> app.rows("SELECT 1 FROM funnel_day_zone WHERE workspace_id IN ($1, $2)", WS, WS_B_ID).size() == 2);
    upsert("meta", spendRow("611", d, "Australia/Brisbane", "40.00"), spendRow("611", d.plusDays(1),
        "Australia/Brisbane", "10.00"));
    upsert("tiktok", spendRow("622", d.minusDays(1), "America/Los_Angeles", "5.00"),
        spendRow("622", d, "America/Los_Angeles", "30.00"));
    upsert("sheet", spendRow("633", d, "UTC", "7.00"), spendRow("644", d, "UTC", "30.00"));
    Await.result(spend.upsert(WS_B_ID, "sheet", 1, List.of(spendRow("655", d, "UTC", "40.00"),
        spendRow("655", d.plusDays(1), "UTC", "8.00"))));
  }

  @AfterAll
  void stop() {
    app.close();
  }

  private void step(LocalDateTime utcHour, String ad, String country, String step, long n, String revenue) {
    step(WS, utcHour, ad, country, step, n, revenue);
  }

  private void step(UUID ws, LocalDateTime utcHour, String ad, String country, String step, long n,
                    String revenue) {
    Object hour = utcHour.atOffset(ZoneOffset.UTC);
    BigDecimal value = new BigDecimal(revenue);
    long users = "$click".equals(step) ? 0 : n;
    app.rows("""
        INSERT INTO funnel_rollup (workspace_id, hour, utm_source, utm_medium, utm_campaign, utm_content, utm_term,
                                   campaign_id, adset_id, ad_id, placement, bot, channel, country, step, n, users,
                                   revenue, approved)
        VALUES ($1, $2, 'facebook', '', '', '', '', 'c' || $3, 'as' || $3, $3, '', '', '', $4, $5, $6, $7, $8, $7)""",
        ws, hour, ad, country, step, n, users, value);
    app.rows("""
        INSERT INTO funnel_rollup_total (workspace_id, hour, step, n, users, revenue, approved)
        VALUES ($1, $2, $3, $4, $5, $6, $5)
        ON CONFLICT (workspace_id, hour, step) DO UPDATE SET n = funnel_rollup_total.n + EXCLUDED.n,
            users = funnel_rollup_total.users + EXCLUDED.users,
            revenue = funnel_rollup_total.revenue + EXCLUDED.revenue,
            approved = funnel_rollup_total.approved + EXCLUDED.approved""", ws, hour, step, n, users, value);
  }

  private static SpendRow spendRow(String ad, LocalDate day, String zone, String amount) {
    return SpendRow.pushed(SpendRow.AD, ad, day, zone, "USD", new BigDecimal(amount));
  }

  private void upsert(String source, SpendRow... rows) {
    Await.result(spend.upsert(WS, source, 1, List.of(rows)));
  }

  private JsonObject report(String query) {
    return report(query, KEY_A);
  }

  private JsonObject report(String query, String key) {
    var r = app.get("/api/v1/reports/funnel?from=" + d.minusDays(1) + "&to=" + d.plusDays(1) + "&" + query, key);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject().getJsonObject("data");
  }

  private static Map<String, JsonObject> byGroup(JsonObject report, String... dimensions) {
    Map<String, JsonObject> rows = new TreeMap<>();
    report.getJsonArray("rows").stream().map(JsonObject.class::cast).forEach(row -> {
      StringBuilder key = new StringBuilder();
      for (String dimension : dimensions) {
        key.append(key.isEmpty() ? "" : "/").append(row.getJsonObject("group").getString(dimension));
      }
      rows.put(key.toString(), row);
    });
    return rows;
  }

  @Test
  @Order(1)
  @DisplayName("by ad: each ad's spend whole, ROAS, profit and ROI as computed by hand; the totals with the spend no "
      + "click explains")
  void byAd() {
    JsonObject report = report("group_by=ad_id");
    Map<String, JsonObject> rows = byGroup(report, "ad_id");
    assertThat(rows.keySet()).containsExactly("611", "622", "644");
    assertThat(rows.get("644").getString("cost")).isEqualTo("30.00");
    assertThat(rows.get("644").getValue("roas")).as("no revenue: ROAS 0").isEqualTo(0.0);
    JsonObject a = rows.get("611");
    assertThat(a.getString("cost")).isEqualTo("50.00");
    assertThat(a.getDouble("roas")).isEqualTo(2.0);
    assertThat(a.getString("profit")).isEqualTo("50.00");
    assertThat(a.getDouble("roi")).isEqualTo(1.0);
    assertThat(a.getString("cost_per_click")).isEqualTo("16.6667");
    assertThat(a.getJsonObject("cost_per").getString("FTD")).isEqualTo("50.0000");
    assertThat(a.getString("cost_per_start")).isNull(); // no starts: no divisor
    JsonObject b = rows.get("622");
    assertThat(b.getString("cost")).isEqualTo("35.00");
    assertThat(b.getDouble("roas")).isEqualTo(1.4);
    assertThat(b.getString("profit")).isEqualTo("14.00");
    assertThat(b.getDouble("roi")).isEqualTo(0.4);
    JsonObject totals = report.getJsonObject("totals");
    assertThat(totals.getString("cost")).isEqualTo("115.00");
    assertThat(totals.getString("revenue")).isEqualTo("149.00");
    assertThat(totals.getString("spend_unmatched")).isEqualTo("7.00");
    assertThat(totals.getJsonArray("spend_without_rate")).isEmpty();
  }

  @Test
  @Order(2)
  @DisplayName("by UTC day: a Brisbane day's spend falls on the UTC days of its clicks, a Los Angeles day's too")
  void byDay() {
    Map<String, JsonObject> rows = byGroup(report("group_by=ad_id,day"), "ad_id", "day");
    assertThat(rows.get("611/" + d.minusDays(1)).getString("cost")).isEqualTo("40.00");
    assertThat(rows.get("611/" + d).getString("cost")).isEqualTo("10.00");
    assertThat(rows.get("622/" + d).getString("cost")).isEqualTo("35.00");
    assertThat(rows.get("644/" + d).getString("cost")).isEqualTo("30.00");
    assertThat(rows).hasSize(4);
  }

  @Test
  @Order(2)
  @DisplayName("by Berlin day, from the UTC day rollups: 644's UTC day is spread over its clicks, and the click of "
      + "its last hour falls on Berlin's next day")
  void byDayOfAnotherZone() {
    Map<String, JsonObject> rows = byGroup(report("group_by=ad_id,day&tz=Europe/Berlin"), "ad_id", "day");
    assertThat(rows.get("644/" + d).getString("cost")).isEqualTo("20.00");
    assertThat(rows.get("644/" + d.plusDays(1)).getString("cost")).isEqualTo("10.00");
    assertThat(rows.get("611/" + d.minusDays(1)).getString("cost")).isEqualTo("40.00");
  }

  @Test
  @Order(3)
  @DisplayName("by country, which spend cannot be split by: each ad's day spread over its clicks; a filter keeps "
      + "the filtered clicks' share")
  void byCountry() {
    Map<String, JsonObject> rows = byGroup(report("group_by=country"), "country");
    assertThat(rows.get("DE").getString("cost")).isEqualTo("75.00");
    assertThat(rows.get("FR").getString("cost")).isEqualTo("10.00");
    assertThat(rows.get("NL").getString("cost")).isEqualTo("30.00");
    JsonObject fr = report("filter=country:FR").getJsonObject("totals");
    assertThat(fr.getString("cost")).isEqualTo("10.00");
    assertThat(fr.getDouble("roas")).isEqualTo(4.9);
  }

  @Test
  @Order(4)
  @DisplayName("a re-read that lowers a day's spend lowers the report")
  void reReadLowers() {
    upsert("meta", spendRow("611", d, "Australia/Brisbane", "20.00"));
    JsonObject a = byGroup(report("group_by=ad_id"), "ad_id").get("611");
    assertThat(a.getString("cost")).isEqualTo("30.00");
    assertThat(a.getDouble("roas")).isEqualTo(3.3333);
  }

  @Test
  @Order(5)
  @DisplayName("a group no spend was charged to has no cost, not a cost of 0")
  void unknownCost() {
    JsonObject report = report("group_by=utm_source&filter=utm_source:google");
    assertThat(report.getJsonObject("totals").getString("cost")).isNull();
    assertThat(report.getJsonObject("totals").getValue("roas")).isNull();
    assertThat(report.getJsonObject("totals").getValue("profit")).isNull();
  }

  @Test
  @Order(2)
  @DisplayName("spend all in the day rollups' zone: read from the day rows alone, and in Berlin's days with the "
      + "hour that moves to the next day")
  void spendOfTheDayZoneOnly() {
    JsonObject report = report("group_by=ad_id", KEY_B);
    assertThat(byGroup(report, "ad_id").get("655").getString("cost")).isEqualTo("40.00");
    assertThat(report.getJsonObject("totals").getString("spend_unmatched")).isEqualTo("8.00");
    assertThat(report.getJsonObject("totals").getBoolean("cost_cut")).isFalse();
    Map<String, JsonObject> berlin = byGroup(report("group_by=day&tz=Europe/Berlin", KEY_B), "day");
    assertThat(berlin.get(d.toString()).getString("cost")).isEqualTo("30.00");
    assertThat(berlin.get(d.plusDays(1).toString()).getString("cost")).isEqualTo("10.00");
  }

  @Test
  @Order(6)
  @DisplayName("a cost over more click rows than the bound is cut: no cost anywhere, and the totals say so")
  void cut() {
    FunnelQuery query = new FunnelQuery(WS, d.minusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC),
        d.plusDays(2).atStartOfDay().toInstant(ZoneOffset.UTC), ZoneOffset.UTC, List.of("ad_id"), Map.of(), "USD",
        List.of("FTD"), ZoneOffset.UTC);
    SpendReports.Costs whole = Await.result(new SpendReports(app.pool(), 100).costs(query));
    assertThat(whole.cut()).isFalse();
    assertThat(whole.byGroup().get(List.of("611"))).isEqualByComparingTo("30.00");
    SpendReports.Costs cut = Await.result(new SpendReports(app.pool(), 2).costs(query));
    assertThat(cut.cut()).isTrue();
    assertThat(cut.byGroup()).isEmpty();

    JsonObject report = report("group_by=ad_id");
    CostFields.add(report, List.of("ad_id"), cut);
    JsonObject totals = report.getJsonObject("totals");
    assertThat(totals.getBoolean("cost_cut")).isTrue();
    assertThat(totals.getValue("spend_unmatched")).isNull();
    assertThat(totals.getValue("cost")).isNull();
    assertThat(byGroup(report, "ad_id").get("611").getValue("roas")).isNull();
  }
}
