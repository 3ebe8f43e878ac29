package dev.eventrouter.api.costs;

import dev.eventrouter.event.SpendRow;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.ErrorCode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static dev.eventrouter.api.costs.CostPushReaderUnitTest.ZONE;
import static dev.eventrouter.api.costs.CostPushReaderUnitTest.details;
import static dev.eventrouter.api.costs.CostPushReaderUnitTest.error;
import static dev.eventrouter.api.costs.CostPushReaderUnitTest.refused;
import static org.assertj.core.api.Assertions.assertThat;

/** How Keitaro's update_costs body is read: the period, the filter's object, the even spread, Keitaro's answer. */
class KeitaroCostReaderUnitTest {

  static final String READS = "is not a filter this router reads; it reads sub_id_1 (campaign), sub_id_2 (ad), "
      + "sub_id_3 (adset), sub_id_4 (ad)";
  static final String MOMENT_RULE = "must be a date as yyyy-MM-dd, or a date and time as yyyy-MM-dd HH:mm:ss";

  /** The body Dolphin sends, which a test changes. */
  static JsonObject body() {
    return new JsonObject().put("start_date", "2026-08-15").put("end_date", "2026-08-15").put("cost", 12.34)
        .put("currency", "USD").put("timezone", "Europe/Moscow")
        .put("filters", new JsonObject().put("sub_id_3", "120212558973560058"));
  }

  static CostPush read(JsonObject body) {
    return KeitaroCostReader.read("10", body.encode(), ZONE, KeitaroCostReader.DEFAULT_SUB_IDS);
  }

  static List<String> spends(CostPush push) {
    return push.rows().stream().map(row -> row.spend().toPlainString()).toList();
  }

  @Test
  @DisplayName("Dolphin's push: the ad set of sub_id_3, one row for its day, Keitaro as the source")
  void dolphin() {
    CostPush push = read(body().put("only_campaign_uniques", 1).put("skip_bots", true));
    assertThat(push.source()).isEqualTo("keitaro");
    assertThat(push.rows()).containsExactly(SpendRow.pushed("adset", "120212558973560058",
        LocalDate.parse("2026-08-15"), "Europe/Moscow", "USD", new BigDecimal("12.340000")));
    assertThat(push.from()).isEqualTo("2026-08-15");
    assertThat(push.to()).isEqualTo("2026-08-15");
  }

  @Test
  @DisplayName("the default table: sub_id_1 the campaign, sub_id_2 and sub_id_4 the ad, sub_id_3 the ad set")
  void defaultSubIds() {
    assertThat(KeitaroCostReader.DEFAULT_SUB_IDS).containsOnly(Map.entry("sub_id_1", "campaign"),
        Map.entry("sub_id_2", "ad"), Map.entry("sub_id_3", "adset"), Map.entry("sub_id_4", "ad"));
  }

  @ParameterizedTest
  @CsvSource({"sub_id_1,campaign", "sub_id_2,ad", "sub_id_3,adset", "sub_id_4,ad"})
  @DisplayName("the filter's sub id names the level, its value the id")
  void levels(String subId, String level) {
    SpendRow row = read(body().put("filters", new JsonObject().put(subId, "77"))).rows().get(0);
    assertThat(row.level()).isEqualTo(level);
    assertThat(row.objectId()).isEqualTo("77");
  }

  @Test
  @DisplayName("without a filter, an empty one (PHP sends []) or a null one, the path's campaign is the campaign")
  void noFilter() {
    for (Object filters : new Object[] {null, new JsonObject(), new JsonArray()}) {
      SpendRow row = read(body().put("filters", filters)).rows().get(0);
      assertThat(row.level()).isEqualTo("campaign");
      assertThat(row.objectId()).isEqualTo("10");
    }
    JsonObject body = body();
    body.remove("filters");
    assertThat(read(body).rows().get(0).objectId()).isEqualTo("10");
  }

  @Test
  @DisplayName("a filter's id may be a JSON integer; a configured table replaces the default")
  void numbersAndTable() {
    for (Object id : new Object[] {42, 120212558973560058L, new BigInteger("123456789012345678901234567890")}) {
      assertThat(read(body().put("filters", new JsonObject().put("sub_id_3", id))).rows().get(0).objectId())
          .isEqualTo(id.toString());
    }
    String own = body().put("filters", new JsonObject().put("sub_id_7", "9")).encode();
    assertThat(KeitaroCostReader.read("10", own, ZONE, Map.of("sub_id_7", "ad")).rows().get(0).level())
        .isEqualTo("ad");
    assertThat(details(() -> KeitaroCostReader.read("10", body().encode(), ZONE, Map.of("sub_id_7", "ad"))))
        .containsExactly(error("filters.sub_id_3", "is not a filter this router reads; it reads sub_id_7 (ad)"));
  }

  @Test
  @DisplayName("filters refused: two objects, an unknown name, a list, a macro, an empty or non-text value")
  void badFilters() {
    assertThat(details(() -> read(body().put("filters", new JsonObject().put("sub_id_3", "1").put("sub_id_2", "2")
        .put("keyword", "k"))))).containsExactly(error("filters.keyword", READS),
        error("filters", "names sub_id_2, sub_id_3: give exactly one, as the cost of several objects cannot be told "
            + "apart"));
    assertThat(details(() -> read(body().put("filters", new JsonObject().put("x\u0007" + "k".repeat(50), "1")))))
        .containsExactly(error("filters.x?" + "k".repeat(38) + "...", READS));
    assertThat(details(() -> read(body().put("filters", new JsonObject().put("Sub_ID_3", "1")))))
        .containsExactly(error("filters.Sub_ID_3", READS));
    assertThat(details(() -> read(body().put("filters", new JsonObject().put("sub_id_3", "1,2")))))
        .containsExactly(error("filters.sub_id_3", "holds a list: Keitaro reads a comma as several values, whose "
            + "costs cannot be told apart; push one id per request"));
    assertThat(details(() -> read(body().put("filters", new JsonObject().put("sub_id_3", "{{adset.id}}")))))
        .containsExactly(error("filters.sub_id_3", "holds the unexpanded macro \"{{adset.id}}\": the ad's URL macro "
            + "was not filled in, so the real id is unknown"));
    for (Object id : new Object[] {"", 1.5, true, new JsonArray().add("1")}) {
      assertThat(details(() -> read(body().put("filters", new JsonObject().put("sub_id_3", id)))))
          .containsExactly(error("filters.sub_id_3", CostRules.ID_RULE));
    }
    assertThat(details(() -> read(body().put("filters", new JsonObject().putNull("sub_id_3")))))
        .containsExactly(error("filters.sub_id_3", "required"));
    for (Object filters : new Object[] {"sub_id_3=1", new JsonArray().add("sub_id_3"), 3}) {
      assertThat(details(() -> read(body().put("filters", filters)))).containsExactly(error("filters",
          "must be a JSON object such as {\"sub_id_3\": \"<ad set id>\"}"));
    }
  }

  @Test
  @DisplayName("the cost spread evenly over the days, the last taking the remainder: the days add up exactly")
  void spread() {
    CostPush push = read(body().put("cost", "10.00").put("start_date", "2026-08-15").put("end_date", "2026-08-17"));
    assertThat(spends(push)).containsExactly("3.333333", "3.333333", "3.333334");
    assertThat(push.rows()).extracting(SpendRow::day).containsExactly(LocalDate.parse("2026-08-15"),
        LocalDate.parse("2026-08-16"), LocalDate.parse("2026-08-17"));
    assertThat(push.rows().stream().map(SpendRow::spend).reduce(BigDecimal.ZERO, BigDecimal::add))
        .isEqualByComparingTo("10");
    assertThat(spends(read(body().put("cost", 20).put("end_date", "2026-08-17"))))
        .as("rounded half-even").containsExactly("6.666667", "6.666667", "6.666666");
    assertThat(spends(read(body().put("cost", "0.000005").put("end_date", "2026-08-16"))))
        .as("half-even: 0.0000025 to 0.000002").containsExactly("0.000002", "0.000003");
    assertThat(spends(read(body().put("cost", "0.000002").put("end_date", "2026-08-17"))))
        .as("no remainder left").containsExactly("0.000001", "0.000001", "0.000000");
    assertThat(spends(read(body().put("cost", "0.000005").put("end_date", "2026-08-21"))))
        .as("rounded down when half-even leaves the last day below zero")
        .containsExactly("0.000000", "0.000000", "0.000000", "0.000000", "0.000000", "0.000000", "0.000005");
    assertThat(spends(read(body().put("cost", 0).put("end_date", "2026-08-16"))))
        .containsExactly("0.000000", "0.000000");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {"2026-08-15|2026-08-15|1", "2026-08-15 00:00:00|2026-08-15 23:59:59|1",
      "2026-08-15T00:00|2026-08-16T12:30|2", "2026-08-15 00:00:00|2026-08-16 00:00:00|1", "2026-08-15|2026-08-16|2",
      "2026-08-15 00:00:00|2026-08-16 00:00:01|2", "2026-08-15 00:00:00|2026-08-15 00:00:00|1",
      "2026-08-15 10:00|2026-08-17 00:00|2", "2026-01-01|2026-03-31|90", "2026-01-01|2026-04-01 00:00:00|90"})
  @DisplayName("a date, or a date and time whose date counts; an end at midnight after the start's day ends before")
  void period(String start, String end, int days) {
    CostPush push = read(body().put("start_date", start).put("end_date", end));
    assertThat(push.rows()).hasSize(days);
    assertThat(push.from()).isEqualTo(start.substring(0, 10));
    assertThat(push.to()).isEqualTo(push.rows().get(days - 1).day());
    JsonObject noEnd = body().put("start_date", start);
    noEnd.remove("end_date");
    assertThat(read(noEnd).rows()).hasSize(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"15.08.2026", "2026-08-15 25:00:00", "2026-08-15 10:61", "2026-02-30", "2026-08-15 10",
      "2026-08-15 10:00:00+03:00", "", "today"})
  @DisplayName("dates in other forms are refused, for the start and the end")
  void badDates(String moment) {
    assertThat(details(() -> read(body().put("start_date", moment)))).containsExactly(error("start_date",
        MOMENT_RULE));
    assertThat(details(() -> read(body().put("end_date", moment)))).containsExactly(error("end_date", MOMENT_RULE));
    assertThat(details(() -> read(body().put("end_date", 20260815)))).containsExactly(error("end_date",
        MOMENT_RULE));
  }

  @Test
  @DisplayName("an end before the start, or a period over 90 days, is refused naming end_date")
  void badPeriod() {
    assertThat(details(() -> read(body().put("start_date", "2026-08-15 00:00:00").put("end_date", "2026-08-14"))))
        .containsExactly(error("end_date", "must not be before start_date"));
    assertThat(details(() -> read(body().put("start_date", "2026-01-01").put("end_date", "2026-04-01"))))
        .containsExactly(error("end_date", "spans 91 days (2026-01-01 to 2026-04-01); at most 90 in one push"));
  }

  @Test
  @DisplayName("cost, currency, zone and the path's campaign, each refused in one answer; the zone's default")
  void fields() {
    assertThat(read(body().put("cost", "12,5").put("currency", "eur").putNull("timezone")).rows().get(0))
        .isEqualTo(SpendRow.pushed("adset", "120212558973560058", LocalDate.parse("2026-08-15"), "Europe/Berlin",
            "EUR", new BigDecimal("12.500000")));
    JsonObject bad = body().put("cost", "-1").put("currency", "XYZ").put("timezone", "GMT+3");
    bad.remove("start_date");
    assertThat(details(() -> KeitaroCostReader.read("{campaign_id}", bad.encode(), ZONE,
        KeitaroCostReader.DEFAULT_SUB_IDS))).containsExactly(error("campaign", "holds the unexpanded macro "
            + "\"{campaign_id}\": the ad's URL macro was not filled in, so the real id is unknown"),
        error("start_date", "required"), error("cost", CostRules.COST_RULE),
        error("currency", CostRules.CURRENCY_RULE), error("timezone", CostRules.ZONE_RULE));
    JsonObject none = body();
    none.remove("cost");
    none.remove("currency");
    assertThat(details(() -> KeitaroCostReader.read(null, none.encode(), ZONE, Map.of("sub_id_3", "adset"))))
        .containsExactly(error("campaign", "required"), error("cost", "required"), error("currency", "required: the "
            + "ISO 4217 code of the cost, such as USD (Keitaro would take its own currency, which is unknown here)"));
    assertThat(details(() -> KeitaroCostReader.read("a b", body().encode(), ZONE, KeitaroCostReader.DEFAULT_SUB_IDS)))
        .containsExactly(error("campaign", CostRules.ID_RULE));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "not json", "[1]", "{\"cost\":1,\"cost\":2}"})
  @DisplayName("a body that is no JSON object is invalid_json")
  void notAnObject(String body) {
    ApiException e = refused(() -> KeitaroCostReader.read("10", body, ZONE, KeitaroCostReader.DEFAULT_SUB_IDS));
    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_JSON);
    assertThat(refused(() -> KeitaroCostReader.read("10", null, ZONE, Map.of())).code())
        .isEqualTo(ErrorCode.INVALID_JSON);
  }

  @Test
  @DisplayName("Keitaro's error answer: success false, the problems joined, or the error's message")
  void errorBody() {
    ApiException invalid = refused(() -> read(body().putNull("cost").put("currency", 1)));
    assertThat(KeitaroCostReader.errorBody(invalid)).isEqualTo(new JsonObject().put("success", false)
        .put("error", "cost: required; currency: " + CostRules.CURRENCY_RULE));
    assertThat(KeitaroCostReader.errorBody(new ApiException(ErrorCode.INVALID_JSON))).isEqualTo(new JsonObject()
        .put("success", false).put("error", "The request body is not a JSON object."));
  }
}
