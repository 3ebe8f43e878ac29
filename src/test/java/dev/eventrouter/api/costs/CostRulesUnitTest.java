package dev.eventrouter.api.costs;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.eventrouter.api.costs.CostPushReaderUnitTest.DAY;
import static dev.eventrouter.api.costs.CostPushReaderUnitTest.body;
import static dev.eventrouter.api.costs.CostPushReaderUnitTest.details;
import static dev.eventrouter.api.costs.CostPushReaderUnitTest.error;
import static dev.eventrouter.api.costs.CostPushReaderUnitTest.json;
import static dev.eventrouter.api.costs.CostPushReaderUnitTest.row;
import static org.assertj.core.api.Assertions.assertThat;

/** The field rules both pushes share, through a JSON push's row: level, zone, id, date, currency, what is shown. */
class CostRulesUnitTest {

  @ParameterizedTest
  @CsvSource({"campaign,campaign", "adset,adset", "ad,ad", "AdSet,adset", "CAMPAIGN,campaign"})
  @DisplayName("the level, any case")
  void level(String level, String expected) {
    assertThat(json(body(row(DAY, level, "1", 1, "USD"))).rows().get(0).level()).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"ad_set", "adgroup", "campaign_id", "ad_id", "", "account"})
  @DisplayName("any other level is refused naming the three")
  void badLevel(String level) {
    assertThat(details(() -> json(body(row(DAY, level, "1", 1, "USD")))))
        .containsExactly(error("rows[0].level", "must be one of campaign, adset, ad"));
    assertThat(details(() -> json(body(row().put("level", 1)))))
        .containsExactly(error("rows[0].level", "must be one of campaign, adset, ad"));
  }

  @ParameterizedTest
  @CsvSource({"Europe/Berlin,Europe/Berlin", "UTC,UTC", "Etc/GMT-3,Etc/GMT-3", "+03:00,+03:00", "-10:30,-10:30",
      "+18:00,+18:00"})
  @DisplayName("a row's time zone: an IANA zone or UTC as the report reads them, or an offset")
  void zone(String zone, String expected) {
    assertThat(json(body(row().put("timezone", zone))).rows().get(0).zone()).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"GMT+3", "UTC+3", "CET", "EST", "Mars/Olympus", "+3", "+19:00", "+3:00", "", "Z"})
  @DisplayName("offsets in other forms, abbreviations and unknown zones are refused")
  void badZone(String zone) {
    assertThat(details(() -> json(body(row().put("timezone", zone)))))
        .containsExactly(error("rows[0].timezone", CostRules.ZONE_RULE));
    assertThat(details(() -> json(body(row().put("timezone", 3)))))
        .containsExactly(error("rows[0].timezone", CostRules.ZONE_RULE));
  }

  @ParameterizedTest
  @ValueSource(strings = {"6142546123068", "J41-16", "a{1}", "a__CID__", "x#y", "!~", "a\"b",
      "12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890"
          + "123456789012345678"})
  @DisplayName("an id: 1 to 128 printable ASCII characters, signs that only look like a macro's among them")
  void id(String id) {
    assertThat(json(body(row(DAY, "ad", id, 1, "USD"))).rows().get(0).objectId()).isEqualTo(id);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "has space", "caf\u00e9", "tab\tx",
      "12345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890"
          + "1234567890123456789"})
  @DisplayName("an id with a space, outside ASCII, empty or over 128 characters is refused; so is a number")
  void badId(String id) {
    assertThat(details(() -> json(body(row(DAY, "ad", id, 1, "USD")))))
        .containsExactly(error("rows[0].id", CostRules.ID_RULE));
    assertThat(details(() -> json(body(row().put("id", 6142546123068L)))))
        .containsExactly(error("rows[0].id", CostRules.ID_RULE));
  }

  @ParameterizedTest
  @ValueSource(strings = {"{{ad.id}}", "{ad_id}", "{{adset.id}}x", "ses_{sub_id}", "[AD_ID]", "%ad_id%", "__CID__",
      "__AID_NAME__", "#s2#", "<ad_id>", "{{campaign:id}}"})
  @DisplayName("an id that is an unexpanded macro is refused, saying the ad's URL macro was not filled in")
  void macro(String id) {
    assertThat(details(() -> json(body(row(DAY, "ad", id, 1, "USD"))))).containsExactly(error("rows[0].id",
        "holds the unexpanded macro \"" + id + "\": the ad's URL macro was not filled in, so the real id is unknown"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2026-02-30", "20.11.2026", "2026-11-20T00:00:00", "2026-1-20", "+12026-11-20", "",
      "2026-11-20 "})
  @DisplayName("a date other than an existing yyyy-MM-dd is refused")
  void badDate(String day) {
    assertThat(details(() -> json(body(row(day, "ad", "1", 1, "USD")))))
        .containsExactly(error("rows[0].date", CostRules.DATE_RULE));
    assertThat(details(() -> json(body(row().put("date", 20261120)))))
        .containsExactly(error("rows[0].date", CostRules.DATE_RULE));
  }

  @Test
  @DisplayName("a currency: ISO 4217 in any case, upper case out; anything else is refused")
  void currency() {
    assertThat(json(body(row(DAY, "ad", "1", 1, "eur"))).rows().get(0).currency()).isEqualTo("EUR");
    for (Object code : new Object[] {"XYZ", "US", "dollars", "", 840, "USD "}) {
      assertThat(details(() -> json(body(row().put("currency", code)))))
          .containsExactly(error("rows[0].currency", CostRules.CURRENCY_RULE));
    }
  }

  @Test
  @DisplayName("a value shown in an error: at most 40 characters then ..., anything unprintable as ?")
  void shown() {
    assertThat(CostRules.shown("\u0430\u0431\u0432 a\tb\u0000\u200b\u007f\u001f"))
        .isEqualTo("\u0430\u0431\u0432 a?b????");
    assertThat(CostRules.shown("x".repeat(40))).isEqualTo("x".repeat(40));
    assertThat(CostRules.shown("y".repeat(41))).isEqualTo("y".repeat(40) + "...");
    assertThat(CostRules.shown("\ud83d\ude00".repeat(41))).isEqualTo("?".repeat(40) + "...");
    assertThat(CostRules.shown("~ }")).isEqualTo("~ }");
    JsonObject key = row().put("k\u0007" + "z".repeat(60), 1);
    assertThat(details(() -> json(body(key))))
        .containsExactly(error("rows[0].k?" + "z".repeat(38) + "...", "unknown field"));
  }
}
