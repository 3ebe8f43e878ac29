package dev.eventrouter.api.costs;

import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;
import java.util.TreeMap;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.KEY_B;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cost pushes and the cost sources' view against the real service and PostgreSQL: a push replaces its period, a
 * refused push stores nothing, Keitaro's push answers as Keitaro does, and the sources list shows pushed sources
 * beside the configured one.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CostsApiTest {

  private TestApp app;
  private WebClient client;

  @BeforeAll
  void start(Vertx vertx) {
    JsonObject config = TestApp.config(TestDatabase.freshDatabaseUrl());
    // A Meta source that is never reached: its first poll fails on a closed port and is retried in minutes.
    config.getJsonArray("workspaces").getJsonObject(0).put("cost_sources", new JsonArray().add(new JsonObject()
        .put("id", "fb-main").put("type", "meta").put("ad_account_id", "1").put("access_token", "meta-token-1234")
        .put("api_base", "http://127.0.0.1:1").put("allow_private_network", true)));
    app = TestApp.start(vertx, config);
    client = WebClient.create(vertx);
  }

  @AfterEach
  void clear() {
    app.rows("DELETE FROM ad_spend");
    app.rows("DELETE FROM ad_spend_days");
  }

  @AfterAll
  void stop() {
    app.close();
  }

  private HttpResponse<Buffer> post(String path, MultiMap headers, String body) {
    return client.post(app.port(), "127.0.0.1", path).putHeaders(headers).sendBuffer(Buffer.buffer(body)).await();
  }

  private HttpResponse<Buffer> push(String contentType, String query, String body) {
    return post("/api/v1/costs" + query, MultiMap.caseInsensitiveMultiMap().add("x-api-key", KEY_A)
        .add("Content-Type", contentType), body);
  }

  private Map<String, String> stored() {
    Map<String, String> rows = new TreeMap<>();
    for (Row row : app.rows("SELECT source_id, level, object_id, day, zone, spend FROM ad_spend")) {
      rows.put(row.getString("source_id") + " " + row.getString("level") + " " + row.getString("object_id") + " "
          + row.getLocalDate("day") + " " + row.getString("zone"),
          row.getBigDecimal("spend").stripTrailingZeros().toPlainString());
    }
    return rows;
  }

  private static String jsonRows(String... rows) {
    return "{\"source\":\"sheet\",\"rows\":[" + String.join(",", rows) + "]}";
  }

  private static String row(String date, String id, String cost) {
    return "{\"date\":\"" + date + "\",\"level\":\"ad\",\"id\":\"" + id + "\",\"cost\":" + cost
        + ",\"currency\":\"USD\"}";
  }

  @Test
  @DisplayName("a JSON push is stored in the workspace's report zone; a second push over the same days replaces "
      + "what the first had, rows it leaves out included")
  void pushReplacesItsPeriod() {
    HttpResponse<Buffer> first = push("application/json", "", jsonRows(row("2026-11-20", "611", "12.50"),
        row("2026-11-21", "612", "3")));
    assertThat(first.statusCode()).as(first.bodyAsString()).isEqualTo(200);
    assertThat(first.bodyAsJsonObject().getJsonObject("data")).isEqualTo(new JsonObject().put("source", "sheet")
        .put("from", "2026-11-20").put("to", "2026-11-21").put("rows", 2));
    HttpResponse<Buffer> second = push("application/json", "", jsonRows(row("2026-11-20", "611", "10"),
        row("2026-11-21", "613", "1.25")));
    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(stored()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "sheet ad 611 2026-11-20 UTC", "10", "sheet ad 613 2026-11-21 UTC", "1.25"));
    assertThat(dayTotals()).as("the daily totals the report reads follow the replace")
        .containsExactlyInAnyOrderEntriesOf(Map.of("2026-11-20 USD", "10", "2026-11-21 USD", "1.25"));
    app.rows("DELETE FROM ad_spend WHERE object_id = '613'");
    assertThat(dayTotals()).containsEntry("2026-11-21 USD", "0");
  }

  /** The workspace's spend by day and currency as ad_spend_days keeps it (its triggers' sums). */
  private Map<String, String> dayTotals() {
    Map<String, String> totals = new TreeMap<>();
    for (Row row : app.rows("SELECT day, currency, spend FROM ad_spend_days")) {
      totals.put(row.getLocalDate("day") + " " + row.getString("currency"),
          row.getBigDecimal("spend").stripTrailingZeros().toPlainString());
    }
    return totals;
  }

  @Test
  @DisplayName("a fixed offset is kept so PostgreSQL reads it as java.time does: +10:00's 20th begins at 14:00 UTC "
      + "on the 19th, -08:00's at 08:00 UTC on the 20th")
  void offsets() {
    String rows = "{\"rows\":[{\"date\":\"2026-11-20\",\"timezone\":\"+10:00\",\"level\":\"ad\",\"id\":\"1\","
        + "\"cost\":1,\"currency\":\"USD\"},{\"date\":\"2026-11-20\",\"timezone\":\"-08:00\",\"level\":\"ad\","
        + "\"id\":\"2\",\"cost\":1,\"currency\":\"USD\"}]}";
    assertThat(push("application/json", "", rows).statusCode()).isEqualTo(200);
    Map<String, String> starts = new TreeMap<>();
    for (Row row : app.rows("SELECT object_id, to_char((day::timestamp AT TIME ZONE zone) AT TIME ZONE 'UTC', "
        + "'YYYY-MM-DD HH24:MI') AS starts FROM ad_spend")) {
      starts.put(row.getString("object_id"), row.getString("starts"));
    }
    assertThat(starts).isEqualTo(Map.of("1", "2026-11-19 14:00", "2", "2026-11-20 08:00"));
  }

  @Test
  @DisplayName("a CSV push with ; and decimal commas, its source from the query")
  void csvPush() {
    HttpResponse<Buffer> r = push("text/csv", "?source=binom", "date;timezone;level;id;cost;currency\r\n"
        + "2026-11-20;Europe/Berlin;adset;as7;\"1234,50\";EUR\r\n");
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    assertThat(stored()).containsExactly(Map.entry("binom adset as7 2026-11-20 Europe/Berlin", "1234.5"));
  }

  @Test
  @DisplayName("a push with bad rows is a 400 naming each, and nothing of it is stored; a push under an imported "
      + "source's id is refused; a NUL in the source is data, refused")
  void refusals() {
    HttpResponse<Buffer> r = push("application/json", "", jsonRows(row("2026-11-20", "611", "-1"),
        row("2026-11-21", "612", "\"ab\"")));
    assertThat(r.statusCode()).isEqualTo(400);
    JsonArray details = r.bodyAsJsonObject().getJsonObject("error").getJsonArray("details");
    assertThat(details.stream().map(d -> ((JsonObject) d).getString("field")))
        .containsExactly("rows[0].cost", "rows[1].cost");
    HttpResponse<Buffer> imported = push("application/json", "?source=fb-main",
        "{\"rows\":[" + row("2026-11-20", "611", "1") + "]}");
    assertThat(imported.statusCode()).isEqualTo(400);
    assertThat(imported.bodyAsString()).contains("\"field\":\"source\"");
    assertThat(push("text/csv", "?source=a%00b", "date,level,id,cost,currency\n2026-11-20,ad,1,1,USD\n")
        .statusCode()).isEqualTo(400);
    assertThat(push("application/xml", "", "<a/>").statusCode()).isEqualTo(415);
    assertThat(stored()).isEmpty();
  }

  @Test
  @DisplayName("Keitaro's update_costs: its Api-Key header or a bearer token, the ad set in sub_id_3, the period's "
      + "cost spread over its days, answered {\"success\": true}; a refusal in Keitaro's shape; a wrong key is 401")
  void keitaro() {
    String body = "{\"start_date\":\"2026-11-20\",\"end_date\":\"2026-11-21\",\"cost\":10,\"currency\":\"USD\","
        + "\"timezone\":\"Europe/Berlin\",\"filters\":{\"sub_id_3\":\"120212558973560058\"}}";
    MultiMap json = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json");
    HttpResponse<Buffer> ok = post("/admin_api/v1/campaigns/7/update_costs", json.copy().add("Api-Key", KEY_A), body);
    assertThat(ok.statusCode()).as(ok.bodyAsString()).isEqualTo(200);
    assertThat(ok.bodyAsJsonObject()).isEqualTo(new JsonObject().put("success", true));
    assertThat(stored()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "keitaro adset 120212558973560058 2026-11-20 Europe/Berlin", "5",
        "keitaro adset 120212558973560058 2026-11-21 Europe/Berlin", "5"));
    HttpResponse<Buffer> bearer = post("/admin_api/v1/campaigns/7/update_costs",
        json.copy().add("Authorization", "Bearer " + KEY_A), body.replace("\"cost\":10", "\"cost\":4"));
    assertThat(bearer.statusCode()).isEqualTo(200);
    assertThat(stored()).containsValues("2").hasSize(2);
    HttpResponse<Buffer> bad = post("/admin_api/v1/campaigns/7/update_costs", json.copy().add("Api-Key", KEY_A),
        body.replace("\"cost\":10", "\"cost\":-10"));
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.bodyAsJsonObject().getBoolean("success")).isFalse();
    assertThat(bad.bodyAsJsonObject().getString("error")).startsWith("cost: ");
    assertThat(post("/admin_api/v1/campaigns/7/update_costs", json.copy().add("Api-Key", "nope"), body)
        .statusCode()).isEqualTo(401);
  }

  @Test
  @DisplayName("the cost sources: the configured one with its state, never its token, and a pushed one with its "
      + "rows and days; poll now answers for a configured source and 404 for another; another workspace sees none")
  void sources() {
    push("application/json", "", jsonRows(row("2026-11-20", "611", "1"), row("2026-11-22", "612", "2")));
    HttpResponse<Buffer> r = app.get("/api/v1/cost-sources", KEY_A);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.bodyAsString()).doesNotContain("meta-token-1234");
    JsonArray sources = r.bodyAsJsonObject().getJsonObject("data").getJsonArray("sources");
    JsonObject meta = sources.getJsonObject(0);
    assertThat(meta.getString("source_id")).isEqualTo("fb-main");
    assertThat(meta.getString("account")).isEqualTo("act_1");
    assertThat(meta.getBoolean("configured")).isTrue();
    JsonObject sheet = sources.getJsonObject(1);
    assertThat(sheet.getString("type")).isEqualTo("push");
    assertThat(sheet.getLong("rows")).isEqualTo(2);
    assertThat(sheet.getString("first_day")).isEqualTo("2026-11-20");
    assertThat(sheet.getString("last_day")).isEqualTo("2026-11-22");
    MultiMap key = MultiMap.caseInsensitiveMultiMap().add("x-api-key", KEY_A);
    HttpResponse<Buffer> poll = post("/api/v1/cost-sources/fb-main/poll", key, "");
    assertThat(poll.statusCode()).as(poll.bodyAsString()).isEqualTo(200);
    assertThat(post("/api/v1/cost-sources/sheet/poll", key, "").statusCode()).isEqualTo(404);
    assertThat(app.get("/api/v1/cost-sources", KEY_B).bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("sources")).isEmpty();
  }
}
