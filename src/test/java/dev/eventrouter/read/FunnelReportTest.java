package dev.eventrouter.read;

import dev.eventrouter.support.FunnelDataSet;
import dev.eventrouter.support.TestApp;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

import static dev.eventrouter.support.TestApp.KEY_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The funnel report over a data set made with real requests (captures, Telegram updates, conversions in three
 * currencies and a non-ISO unit, a status change, an unsubscribe: {@link FunnelDataSet}), its rows computed by hand,
 * read from the API as JSON and CSV once the rollups have taken everything.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FunnelReportTest {

  private FunnelDataSet data;
  private TestApp app;

  @BeforeAll
  void start(Vertx vertx, @TempDir Path dir) throws IOException {
    data = FunnelDataSet.start(vertx, dir);
    app = data.app();
  }

  @AfterAll
  void stop() {
    data.close();
  }

  private JsonObject report(String query) {
    return data.report(query);
  }

  private static JsonObject row(JsonObject report, String dimension, String value) {
    return report.getJsonArray("rows").stream().map(JsonObject.class::cast)
        .filter(r -> value.equals(r.getJsonObject("group").getString(dimension))).findFirst().orElseThrow();
  }

  @Test
  @DisplayName("by campaign: clicks, starts, joins, unsubscribes, each event's count, users, revenue in USD and "
      + "statuses, the step rates, and the totals")
  void byCampaign() {
    JsonObject report = report("group_by=utm_campaign");
    assertThat(report.getString("currency")).isEqualTo("USD");
    JsonObject spring = row(report, "utm_campaign", "spring");
    assertThat(spring.getLong("clicks")).isEqualTo(2);
    assertThat(spring.getLong("starts")).isEqualTo(2);
    assertThat(spring.getLong("join_requests")).isZero();
    assertThat(spring.getLong("joins")).isEqualTo(1);
    assertThat(spring.getLong("unsubscribes")).isEqualTo(1);
    assertThat(spring.getLong("remaining_subscribers")).isZero();
    assertThat(spring.getString("revenue")).isEqualTo("183.00");
    JsonObject ftd = spring.getJsonObject("events").getJsonObject("FTD");
    assertThat(ftd.getLong("count")).isEqualTo(2);
    assertThat(ftd.getLong("users")).isEqualTo(2);
    assertThat(ftd.getString("revenue")).isEqualTo("163.00");
    assertThat(ftd.getJsonObject("statuses")).isEqualTo(new JsonObject().put("pending", 0).put("approved", 2)
        .put("rejected", 0).put("chargeback", 0));
    assertThat(spring.getJsonObject("events").getJsonObject("DEP").getString("revenue")).isEqualTo("20.00");
    assertThat(spring.getJsonObject("events").getJsonObject("REG").getLong("users")).isEqualTo(2);
    assertThat(spring.getJsonObject("events").getJsonObject("JoinRequest").getJsonObject("statuses")
        .getLong("rejected")).isEqualTo(1);
    assertThat(spring.getJsonObject("rates").getDouble("clicks_to_starts")).isEqualTo(1.0);
    assertThat(spring.getJsonObject("rates").getDouble("REG_to_FTD")).isEqualTo(1.0);
    assertThat(spring.getJsonObject("rates").getDouble("FTD_to_DEP")).isEqualTo(0.5);
    assertThat(spring.getJsonObject("rates").getDouble("unsubscribe_rate")).isEqualTo(1.0);

    JsonObject autumn = row(report, "utm_campaign", "autumn");
    assertThat(autumn.getLong("clicks")).isEqualTo(1);
    assertThat(autumn.getLong("starts")).isZero();
    assertThat(autumn.getLong("join_requests")).isEqualTo(1);
    assertThat(autumn.getString("revenue")).isEqualTo("12.35");
    assertThat(autumn.getJsonObject("rates").getValue("starts_to_join_requests")).isNull();

    JsonObject totals = report.getJsonObject("totals");
    assertThat(totals.getLong("clicks")).isEqualTo(3);
    assertThat(totals.getString("revenue")).isEqualTo("195.35");
    assertThat(totals.getJsonObject("events").getJsonObject("FTD").getLong("users")).isEqualTo(3);
  }

  @Test
  @DisplayName("by campaign id and ad, filtered to one source: the ids the landing URLs' macros carried, an "
      + "unexpanded macro not an ad")
  void byAdFiltered() {
    JsonObject report = report("group_by=campaign_id,ad_id&filter=utm_source:fb");
    assertThat(report.getJsonArray("rows")).hasSize(2);
    JsonObject ad = row(report, "ad_id", "333");
    assertThat(ad.getJsonObject("group").getString("campaign_id")).isEqualTo("111");
    assertThat(ad.getLong("clicks")).isEqualTo(1);
    assertThat(ad.getString("revenue")).isEqualTo("120.00");
    JsonObject tiktok = row(report("group_by=adset_id,ad_id&filter=utm_campaign:autumn"), "adset_id", "888");
    assertThat(tiktok.getJsonObject("group").getString("ad_id")).isEmpty();
    assertThat(row(report("group_by=country"), "country", "DE").getLong("clicks")).isEqualTo(3);
  }

  @Test
  @DisplayName("the rollup layers agree: the hours, the UTC days with edge hours, and the hourly totals give the same "
      + "totals, whichever a report reads")
  void layersAgree() {
    for (String table : List.of("funnel_rollup_day", "funnel_rollup_total")) {
      assertThat(app.rows("SELECT step, sum(n) AS n, sum(users) AS users, sum(revenue) AS revenue, sum(approved)"
          + " AS approved FROM " + table + " GROUP BY step ORDER BY step").stream().map(Row::toJson).toList())
          .as(table).isEqualTo(app.rows("SELECT step, sum(n) AS n, sum(users) AS users, sum(revenue) AS revenue,"
              + " sum(approved) AS approved FROM funnel_rollup GROUP BY step ORDER BY step").stream()
              .map(Row::toJson).toList());
    }
    JsonObject totals = report("group_by=day").getJsonObject("totals"); // the hourly totals
    assertThat(totals.getString("revenue")).isEqualTo("195.35");
    assertThat(totals.getLong("clicks")).isEqualTo(3);
    for (String query : List.of("group_by=utm_campaign", // UTC days
        "group_by=utm_campaign&tz=Asia/Kolkata", // UTC days inside, hours at both edges
        "group_by=day,country&tz=Asia/Kolkata", // hours: its days are not UTC days, nor whole hours off them
        "group_by=day,country&tz=Europe/Berlin", // UTC days shifted by the hours between the zones
        "group_by=day&tz=America/New_York&filter=country:DE", // shifted the other way, filtered
        "group_by=day&filter=country:DE")) { // UTC days, filtered
      assertThat(report(query).getJsonObject("totals")).as(query).isEqualTo(totals);
    }
  }

  @Test
  @DisplayName("a conversion in the report currency keeps no converted value, and a change of mind about it takes "
      + "back what was added, as one in another currency does; a user's second FTD is no second user")
  void changesOfMindAndReportCurrency() {
    // Workspace B, report in USD: FTD 40 USD approved then charged back; FTD 30 GBP (37.06 USD) approved then
    // rejected; a second FTD of the first user, 25 USD, approved.
    conversion(2001, 40, "USD", "b-1", "approved");
    conversion(2002, 30, "GBP", "b-2", "approved");
    conversion(2001, 40, "USD", "b-1", "chargeback");
    conversion(2002, 30, "GBP", "b-2", "rejected");
    conversion(2001, 25, "USD", "b-3", "approved");
    data.awaitRolledUp(TestApp.KEY_B);

    HttpResponse<Buffer> r = app.get("/api/v1/reports/funnel", TestApp.KEY_B);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    JsonObject ftd = r.bodyAsJsonObject().getJsonObject("data").getJsonObject("totals").getJsonObject("events")
        .getJsonObject("FTD");
    assertThat(ftd.getLong("count")).isEqualTo(3);
    assertThat(ftd.getLong("users")).isEqualTo(2);
    assertThat(ftd.getString("revenue")).isEqualTo("25.00");
    assertThat(ftd.getJsonObject("statuses")).isEqualTo(new JsonObject().put("pending", 0).put("approved", 1)
        .put("rejected", 1).put("chargeback", 1));
    // Converted values are kept for the GBP conversion as received and for each change; none for USD as received.
    assertThat(app.rows("SELECT e.currency || ':' || v.seq AS kept FROM conversion_values v JOIN events e"
        + " ON e.event_id = v.event_id WHERE e.workspace_id = $1 ORDER BY 1", java.util.UUID.fromString(TestApp.WS_B))
        .stream().map(row -> row.getString("kept")).toList()).containsExactly("GBP:0", "GBP:1", "USD:1");
  }

  @Test
  @DisplayName("how far behind the rollups reach is a metric: the configured lag and a round's pause, once rolled up")
  void behindMetric() {
    data.awaitRolledUp(KEY_A);
    double behind = app.metrics().lines().filter(l -> l.startsWith("event_router_report_rollup_behind_seconds "))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.indexOf(' ') + 1))).findFirst().orElseThrow();
    assertThat(behind).isBetween(0.0, 30.0);
  }

  private void conversion(long user, int value, String currency, String transaction, String status) {
    HttpResponse<Buffer> r = app.postJson("/api/v1/events/custom", TestApp.KEY_B, new JsonObject()
        .put("workspace_id", TestApp.WS_B).put("event_name", "FTD").put("telegram_id", user).put("value", value)
        .put("currency", currency).put("transaction_id", transaction).put("conversion_status", status));
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
  }

  @Test
  @DisplayName("CSV: the same numbers, a line per group and the totals")
  void csv() {
    HttpResponse<Buffer> r = app.get("/api/v1/reports/funnel?group_by=utm_campaign&format=csv", KEY_A);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.getHeader("Content-Type")).startsWith("text/csv");
    List<String> lines = List.of(r.bodyAsString().split("\r\n"));
    List<String> header = List.of(lines.get(0).split(","));
    assertThat(header.subList(0, 8)).containsExactly("utm_campaign", "clicks", "starts", "join_requests", "joins",
        "unsubscribes", "remaining_subscribers", "revenue");
    String spring = lines.stream().filter(l -> l.startsWith("spring,")).findFirst().orElseThrow();
    List<String> cells = List.of(spring.split(",", -1));
    assertThat(cells.subList(1, 8)).containsExactly("2", "2", "0", "1", "1", "0", "183.00");
    assertThat(cells.get(header.indexOf("FTD_revenue"))).isEqualTo("163.00");
    assertThat(lines.get(lines.size() - 1)).startsWith("total,3,");
  }

  @Test
  @DisplayName("by day in a time zone; a bad parameter is a 400 naming it")
  void byDayAndRefusals() {
    String today = LocalDate.now(ZoneOffset.UTC).toString();
    JsonObject report = report("group_by=day&tz=UTC&from=" + today + "&to=" + today);
    assertThat(report.getJsonArray("rows")).hasSize(1);
    assertThat(row(report, "day", today).getLong("clicks")).isEqualTo(3);
    HttpResponse<Buffer> bad = app.get("/api/v1/reports/funnel?group_by=planet&tz=Mars/Base&from=x", KEY_A);
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.bodyAsString()).contains("group_by").contains("tz").contains("from");
  }
}
