package dev.eventrouter.api.costs;

import dev.eventrouter.event.SpendRow;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

import static dev.eventrouter.api.costs.CostPushReaderUnitTest.ZONE;
import static dev.eventrouter.api.costs.CostPushReaderUnitTest.csv;
import static dev.eventrouter.api.costs.CostPushReaderUnitTest.details;
import static dev.eventrouter.api.costs.CostPushReaderUnitTest.error;
import static org.assertj.core.api.Assertions.assertThat;

/** How a CSV push is read: delimiters, quotes, BOM, line ends, blank lines, its header, line numbers in errors. */
class CostPushCsvUnitTest {

  static final String HEADER = "date,level,id,cost,currency\n";
  static final String COLUMNS = "date, timezone (optional), level, id, cost, currency";

  static SpendRow spend(String level, String id, String day, String zone, String currency, String cost) {
    return SpendRow.pushed(level, id, LocalDate.parse(day), zone, currency, new BigDecimal(cost));
  }

  @Test
  @DisplayName("Binom's and RU/EU sheets' form: ; with decimal commas, a BOM, CRLF, any column order and case")
  void semicolons() {
    CostPush push = CostPushReader.read("text/csv", "\uFEFFCost;Currency;Level;ID;DATE;TimeZone\r\n"
        + "12,34;usd;AdSet;120212;2026-11-20;\r\n7;EUR;ad;6142;2026-11-21;Asia/Tokyo\r\n", ZONE, "binom");
    assertThat(push.source()).isEqualTo("binom");
    assertThat(push.rows()).containsExactly(spend("adset", "120212", "2026-11-20", "Europe/Berlin", "USD", "12.34"),
        spend("ad", "6142", "2026-11-21", "Asia/Tokyo", "EUR", "7"));
    assertThat(push.from()).isEqualTo("2026-11-20");
    assertThat(push.to()).isEqualTo("2026-11-21");
  }

  @Test
  @DisplayName("commas, with RFC 4180 quotes: the delimiter, \"\" and line breaks inside one value; trimmed values")
  void quotes() {
    CostPush push = csv(HEADER + "2026-11-20,ad,\"a\"\"b\",\"12,5\",USD\n 2026-11-21 , campaign ,\"x,y\", 3 ,\"EUR\"");
    assertThat(push.source()).isEqualTo("push");
    assertThat(push.rows()).containsExactly(spend("ad", "a\"b", "2026-11-20", "Europe/Berlin", "USD", "12.5"),
        spend("campaign", "x,y", "2026-11-21", "Europe/Berlin", "EUR", "3"));
    assertThat(details(() -> csv(HEADER + "2026-11-20,ad,\"x\ny\",1,USD\n2026-11-20,ad,2,-1,USD")))
        .containsExactly(error("line 2.id", CostRules.ID_RULE), error("line 4.cost", CostRules.COST_RULE));
  }

  @Test
  @DisplayName("blank lines and a sheet's empty rows are skipped, but counted in the line numbers errors name; a "
      + "lone CR ends a line too")
  void blankLines() {
    String file = "\n" + HEADER.replace(',', ';') + "\n;;;;\n  \n\"\";\n2026-11-20;ad;1;1;USD\r\r\n"
        + "2026-11-20;ad;2;x;USD\r2026-11-20;ad;3;1;USD\r";
    assertThat(details(() -> csv(file))).containsExactly(error("line 9.cost", CostRules.COST_RULE));
    assertThat(csv(file.replace(";x;", ";1;")).rows()).extracting(SpendRow::objectId).containsExactly("1", "2", "3");
  }

  @Test
  @DisplayName("an empty cell is an absent value: required, or the default zone")
  void emptyCells() {
    assertThat(details(() -> csv("date,timezone,level,id,cost,currency\n2026-11-20,,ad,1,,USD")))
        .containsExactly(error("line 2.cost", "required"));
  }

  @Test
  @DisplayName("the header: an unknown column, one named twice, a missing one, each refused before any row")
  void header() {
    assertThat(details(() -> csv("date,level,id,costs,currency,Level\n2026-11-20,x,x,x,x,x"))).containsExactly(
        error("line 1", "unknown column \"costs\"; the columns are " + COLUMNS),
        error("line 1", "names the column level twice"), error("line 1", "has no column cost; the columns are "
            + COLUMNS));
    assertThat(details(() -> csv("\n\ndate;id;cost;currency;timezone\n"))).containsExactly(
        error("line 3", "has no column level; the columns are " + COLUMNS));
    assertThat(details(() -> csv("date,level,id,cost,currency,note\u0007" + "n".repeat(50) + "\n")))
        .containsExactly(error("line 1", "unknown column \"note?" + "n".repeat(35) + "...\"; the columns are "
            + COLUMNS));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "\uFEFF", "\n\r\n", ";;;"})
  @DisplayName("a file without a header is refused asking for one; a header alone holds no row")
  void noHeader(String file) {
    assertThat(details(() -> csv(file)))
        .containsExactly(error("line 1", "must be a header naming the columns " + COLUMNS));
    assertThat(details(() -> CostPushReader.read("text/csv", null, ZONE, null)))
        .containsExactly(error("line 1", "must be a header naming the columns " + COLUMNS));
    assertThat(details(() -> csv(HEADER))).containsExactly(error("rows", "must hold at least one row"));
  }

  @Test
  @DisplayName("a record with more or fewer values than the header is refused, as is an unquoted decimal comma")
  void valueCount() {
    assertThat(details(() -> csv(HEADER + "2026-11-20,ad,1,12,34,USD\n2026-11-20,ad,1,12\n2026-11-21,ad,1,1,USD")))
        .containsExactly(error("line 2", "has 6 values; the header names 5 columns"),
            error("line 3", "has 4 values; the header names 5 columns"));
  }

  @Test
  @DisplayName("a quote never closed, or text after a closing quote, stops the reading at its line")
  void brokenQuotes() {
    assertThat(details(() -> csv(HEADER + "2026-11-20,ad,1,1,USD\n2026-11-20,ad,\"1,1,USD\n\n")))
        .containsExactly(error("line 3", "opens a quoted value that is never closed"));
    assertThat(details(() -> csv(HEADER + "2026-11-20,ad,\"1\"2,1,USD\n2026-11-20,ad,x,-1,USD")))
        .containsExactly(error("line 2", "has text after a closing quote; write a quote inside a quoted value as "
            + "\"\""));
    assertThat(csv(HEADER + "2026-11-20,ad,1,1,\"USD\"\n").rows()).hasSize(1);
    assertThat(csv(HEADER + "2026-11-20,ad,1,1,\"USD\"\r\n").rows()).hasSize(1);
    assertThat(csv(HEADER + "2026-11-20,ad,1\"2\",1,USD").rows().get(0).objectId()).isEqualTo("1\"2\"");
  }

  @Test
  @DisplayName("the same rules as JSON: duplicates named by line, the 91-day period, the row limit")
  void sameRules() {
    assertThat(details(() -> csv(HEADER + "2026-11-20,ad,1,1,USD\n2026-11-20,campaign,1,1,USD\n2026-11-20,Ad,1,2,USD")))
        .containsExactly(error("line 4", "has the same level, id and date as line 2: one cost per object and day"));
    assertThat(details(() -> csv(HEADER + "2026-01-01,ad,1,1,USD\n2026-04-01,ad,1,1,USD")))
        .containsExactly(error("rows", "spans 91 days (2026-01-01 to 2026-04-01); at most 90 in one push"));
    String many = HEADER + "x,x,x,x,x\n".repeat(CostPushReader.MAX_ROWS + 1);
    assertThat(details(() -> csv(many)))
        .containsExactly(error("rows", "holds 10001 rows; at most 10000 in one push: split it"));
    assertThat(CsvRecords.parse(many, ',')).hasSize(10_002);
  }

  @Test
  @DisplayName("the delimiter is the header line's: ; when it holds one, else ,")
  void delimiter() {
    assertThat(CsvRecords.delimiter("a;b,c\nx,y")).isEqualTo(';');
    assertThat(CsvRecords.delimiter("a,b\nx;y")).isEqualTo(',');
    assertThat(CsvRecords.delimiter("a;b")).isEqualTo(';');
    assertThat(CsvRecords.delimiter(" \r\n\na;b\nc,d")).isEqualTo(';');
    assertThat(CsvRecords.parse("a;b\r\nc;\"d\"", ';'))
        .containsExactly(new CsvRecords.Record(1, List.of("a", "b")), new CsvRecords.Record(2, List.of("c", "d")));
  }
}
