package dev.eventrouter.api.costs;

import dev.eventrouter.event.SpendRow;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.ErrorCode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** How a pushed cost file is read: JSON and CSV, every field both ways, the limits, and how errors are listed. */
class CostPushReaderUnitTest {

  static final ZoneId ZONE = ZoneId.of("Europe/Berlin");
  static final String DAY = "2026-11-20";

  static JsonObject row(String day, String level, String id, Object cost, String currency) {
    return new JsonObject().put("date", day).put("level", level).put("id", id).put("cost", cost)
        .put("currency", currency);
  }

  static JsonObject row() {
    return row(DAY, "ad", "6142546123068", "12.34", "USD");
  }

  static String body(JsonObject... rows) {
    return new JsonObject().put("rows", new JsonArray(List.of((Object[]) rows))).encode();
  }

  static CostPush json(String body) {
    return CostPushReader.read("application/json", body, ZONE, null);
  }

  static CostPush csv(String body) {
    return CostPushReader.read("text/csv", body, ZONE, null);
  }

  static ApiException refused(ThrowingCallable call) {
    Throwable thrown = catchThrowable(call);
    assertThat(thrown).isInstanceOf(ApiException.class);
    return (ApiException) thrown;
  }

  /** The details of the validation error the call throws. */
  static List<JsonObject> details(ThrowingCallable call) {
    ApiException e = refused(call);
    assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_FAILED);
    return e.toJson().getJsonObject("error").getJsonArray("details").stream().map(d -> (JsonObject) d).toList();
  }

  static JsonObject error(String field, String message) {
    return new JsonObject().put("field", field).put("message", message);
  }

  @Test
  @DisplayName("a JSON push: its source, the rows as SpendRows (level in lower case, currency in upper), the period")
  void json() {
    CostPush push = json(new JsonObject().put("source", "sheet").put("rows", new JsonArray()
        .add(row("2026-11-21", "AD", "6142546123068", 12.34, "usd").put("timezone", "Asia/Tokyo"))
        .add(row("2026-11-19", "campaign", "120212", "7", "EUR"))).encode());
    assertThat(push.source()).isEqualTo("sheet");
    assertThat(push.rows()).containsExactly(
        SpendRow.pushed("ad", "6142546123068", LocalDate.parse("2026-11-21"), "Asia/Tokyo", "USD",
            new BigDecimal("12.34")),
        SpendRow.pushed("campaign", "120212", LocalDate.parse("2026-11-19"), "Europe/Berlin", "EUR",
            new BigDecimal("7")));
    assertThat(push.from()).isEqualTo("2026-11-19");
    assertThat(push.to()).isEqualTo("2026-11-21");
  }

  @Test
  @DisplayName("the source: the body's, else the query parameter's, else push")
  void source() {
    assertThat(json(body(row())).source()).isEqualTo("push");
    assertThat(CostPushReader.read("application/json", body(row()), ZONE, "binom").source()).isEqualTo("binom");
    assertThat(CostPushReader.read("application/json", new JsonObject().put("source", "a.b-c_1")
        .put("rows", new JsonArray().add(row())).encode(), ZONE, "binom").source()).isEqualTo("a.b-c_1");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "has space", "x/y", "12345678901234567890123456789012345678901234567890123456789012345"})
  @DisplayName("a source other than 1 to 64 of A-Z a-z 0-9 _ . - is refused, from the body or the query")
  void badSource(String source) {
    assertThat(details(() -> json(new JsonObject().put("source", source).put("rows", new JsonArray().add(row()))
        .encode()))).containsExactly(error("source", CostPushReader.SOURCE_RULE));
    assertThat(details(() -> CostPushReader.read("text/csv", "date,level,id,cost,currency\n" + DAY + ",ad,1,1,USD",
        ZONE, source))).containsExactly(error("source", CostPushReader.SOURCE_RULE));
    assertThat(details(() -> json(new JsonObject().put("source", 5).put("rows", new JsonArray().add(row()))
        .encode()))).containsExactly(error("source", CostPushReader.SOURCE_RULE));
  }

  @Test
  @DisplayName("the Content-Type picks the reader, parameters and case aside; any other is a 415")
  void contentTypes() {
    assertThat(CostPushReader.read("Application/JSON; charset=utf-8", body(row()), ZONE, null).rows()).hasSize(1);
    String file = "date,level,id,cost,currency\n" + DAY + ",ad,1,1,USD\n";
    assertThat(CostPushReader.read("text/plain", file, ZONE, null).rows()).hasSize(1);
    assertThat(CostPushReader.read(" text/csv ;charset=utf-8", file, ZONE, null).rows()).hasSize(1);
    for (String type : new String[] {"application/xml", "text/csv-schema", "", null}) {
      ApiException e = refused(() -> CostPushReader.read(type, body(row()), ZONE, null));
      assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_MEDIA_TYPE);
      assertThat(e.getMessage()).isEqualTo("Content-Type must be application/json or text/csv.");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "not json", "[]", "{\"rows\": [] ", "{\"rows\":[],\"rows\":[]}"})
  @DisplayName("a body that is no JSON object is invalid_json")
  void notAnObject(String body) {
    assertThat(refused(() -> json(body)).code()).isEqualTo(ErrorCode.INVALID_JSON);
    assertThat(refused(() -> json(null)).code()).isEqualTo(ErrorCode.INVALID_JSON);
  }

  @Test
  @DisplayName("rows missing, not an array, empty, or holding no object; and unknown fields, top and row level")
  void shape() {
    assertThat(details(() -> json("{}"))).containsExactly(error("rows", "required: an array of rows"));
    assertThat(details(() -> json("{\"source\":\"x y\",\"rows\":{}}")))
        .containsExactly(error("source", CostPushReader.SOURCE_RULE), error("rows", "must be an array of rows"));
    assertThat(details(() -> json("{\"rows\":[]}"))).containsExactly(error("rows", "must hold at least one row"));
    assertThat(details(() -> json("{\"rows\":[5, null]}")))
        .containsExactly(error("rows[0]", "must be a JSON object"), error("rows[1]", "must be a JSON object"));
    JsonObject typo = row(DAY, "ad", "1", null, "USD").put("costs", 5).put("zone", "UTC");
    assertThat(details(() -> json(new JsonObject().put("row", 1).put("rows", new JsonArray().add(typo)).encode())))
        .containsExactly(error("row", "unknown field"), error("rows[0].costs", "unknown field"),
            error("rows[0].zone", "unknown field"), error("rows[0].cost", "required"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {"12|12", "5000000000|5000000000", "12.34|12.34", "12,34|12.34",
      "' 7,5 '|7.5", "1200.00|1200", "0|0", "0.000001|0.000001", "12.3400000|12.34", "1000000000000|1000000000000"})
  @DisplayName("a cost as text, with a decimal point or comma, without trailing zeros and never as an exponent")
  void costText(String text, String expected) {
    assertThat(json(body(row(DAY, "ad", "1", text, "USD"))).rows().get(0).spend()).hasToString(expected);
  }

  @Test
  @DisplayName("a cost as a JSON number: an integer, a long, a fraction, an exponent that is a plain number")
  void costNumber() {
    assertThat(json(body(row(DAY, "ad", "1", 12, "USD"))).rows().get(0).spend()).hasToString("12");
    assertThat(json(body(row(DAY, "ad", "1", 5_000_000_000L, "USD"))).rows().get(0).spend())
        .hasToString("5000000000");
    assertThat(json(body(row(DAY, "ad", "1", 1200.0, "USD"))).rows().get(0).spend()).hasToString("1200");
    assertThat(json(body(row(DAY, "ad", "1", 0.5, "USD"))).rows().get(0).spend()).hasToString("0.5");
    assertThat(json(body(row(DAY, "ad", "1", 1e12, "USD"))).rows().get(0).spend()).hasToString("1000000000000");
  }

  @ParameterizedTest
  @ValueSource(strings = {"-1", "-0.01", "abc", "NaN", "Infinity", "1e5", "1.234,56", "1 234", "12.1234567", "+5",
      "1000000000000.000001", "", "12.", ".5", "12345678901234567890"})
  @DisplayName("a negative, non-numeric, over 1e12, or over 6 decimal places cost text is refused")
  void badCostText(String text) {
    assertThat(details(() -> json(body(row(DAY, "ad", "1", text, "USD")))))
        .containsExactly(error("rows[0].cost", CostRules.COST_RULE));
  }

  @ParameterizedTest
  @ValueSource(strings = {"-1", "-0.5", "1.0000001", "1000000000000.5", "1e13", "1e400", "123456789012345678901",
      "true", "[1]", "{}"})
  @DisplayName("a negative, huge, overflowing, too precise or non-number JSON cost is refused")
  void badCostNumber(String cost) {
    assertThat(details(() -> json("{\"rows\":[{\"date\":\"" + DAY + "\",\"level\":\"ad\",\"id\":\"1\",\"cost\":"
        + cost + ",\"currency\":\"USD\"}]}"))).containsExactly(error("rows[0].cost", CostRules.COST_RULE));
  }

  @Test
  @DisplayName("every field is required but the time zone, which defaults to the workspace's")
  void required() {
    assertThat(json(body(row())).rows().get(0).zone()).isEqualTo("Europe/Berlin");
    assertThat(details(() -> json(body(new JsonObject())))).containsExactly(error("rows[0].date", "required"),
        error("rows[0].level", "required"), error("rows[0].id", "required"), error("rows[0].cost", "required"),
        error("rows[0].currency", "required"));
  }

  @Test
  @DisplayName("the same level, id and date twice is refused naming both rows; another day, level or id is not")
  void duplicates() {
    assertThat(json(body(row(DAY, "ad", "1", 1, "USD"), row("2026-11-21", "ad", "1", 1, "USD"),
        row(DAY, "adset", "1", 1, "USD"), row(DAY, "ad", "2", 1, "USD"))).rows()).hasSize(4);
    assertThat(details(() -> json(body(row(DAY, "ad", "1", 1, "USD"), row(DAY, "ad", "2", 1, "USD"),
        row(DAY, "AD", "1", 2, "EUR"), row(DAY, "ad", "1", 3, "USD"))))).containsExactly(
        error("rows[2]", "has the same level, id and date as rows[0]: one cost per object and day"),
        error("rows[3]", "has the same level, id and date as rows[0]: one cost per object and day"));
  }

  @Test
  @DisplayName("90 calendar days, both ends counted, are one push; 91 are refused")
  void period() {
    CostPush push = json(body(row("2026-03-31", "ad", "1", 1, "USD"), row("2026-01-01", "ad", "1", 1, "USD")));
    assertThat(push.from()).isEqualTo("2026-01-01");
    assertThat(push.to()).isEqualTo("2026-03-31");
    assertThat(CostPushReader.MAX_DAYS).isEqualTo(90);
    assertThat(details(() -> json(body(row("2026-01-01", "ad", "1", 1, "USD"), row("2026-04-01", "ad", "1", 1,
        "USD"), row("2026-02-01", "ad", "1", 1, "USD"))))).containsExactly(
        error("rows", "spans 91 days (2026-01-01 to 2026-04-01); at most 90 in one push"));
  }

  @Test
  @DisplayName("10000 rows are one push; 10001 are refused before any is read")
  void maxRows() {
    JsonObject[] rows = IntStream.range(0, CostPushReader.MAX_ROWS).mapToObj(i -> row(DAY, "ad", "id" + i, 1, "USD"))
        .toArray(JsonObject[]::new);
    assertThat(json(body(rows)).rows()).hasSize(10_000);
    JsonObject[] more = IntStream.rangeClosed(0, CostPushReader.MAX_ROWS).mapToObj(i -> new JsonObject())
        .toArray(JsonObject[]::new);
    assertThat(details(() -> json(body(more))))
        .containsExactly(error("rows", "holds 10001 rows; at most 10000 in one push: split it"));
  }

  @Test
  @DisplayName("every problem of every row is listed, up to 50 details and then a count of the rest")
  void detailsCap() {
    JsonObject[] fifty = IntStream.range(0, 50).mapToObj(i -> row(DAY, "ad", "id" + i, -1, "USD"))
        .toArray(JsonObject[]::new);
    List<JsonObject> all = details(() -> json(body(fifty)));
    assertThat(all).hasSize(50);
    assertThat(all.get(49)).isEqualTo(error("rows[49].cost", CostRules.COST_RULE));
    JsonObject[] sixty = IntStream.range(0, 60).mapToObj(i -> row(DAY, "ad", "id" + i, -1, "USD"))
        .toArray(JsonObject[]::new);
    List<JsonObject> capped = details(() -> json(body(sixty)));
    assertThat(capped).hasSize(51);
    assertThat(capped.get(49)).isEqualTo(error("rows[49].cost", CostRules.COST_RULE));
    assertThat(capped.get(50)).isEqualTo(error("rows", "... and 10 more problems not listed"));
  }

  @Test
  @DisplayName("several bad fields of several rows are all reported, in order, and the good rows do not hide them")
  void allProblems() {
    assertThat(details(() -> json(body(row(), row("2026-13-01", "ad_set", "{{ad.id}}", "12,345678", "usd"),
        row(DAY, "ad", "7", "x", "XYZ").put("timezone", "Mars"))))).containsExactly(
        error("rows[1].date", CostRules.DATE_RULE), error("rows[1].level", CostPushReader.LEVEL_RULE),
        error("rows[1].id", "holds the unexpanded macro \"{{ad.id}}\": the ad's URL macro was not filled in, so "
            + "the real id is unknown"),
        error("rows[2].timezone", CostRules.ZONE_RULE), error("rows[2].cost", CostRules.COST_RULE),
        error("rows[2].currency", CostRules.CURRENCY_RULE));
  }
}
