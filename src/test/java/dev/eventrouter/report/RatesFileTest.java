package dev.eventrouter.report;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ECB's CSV forms (daily and history), the operator's own columns, and what is refused. */
class RatesFileTest {

  @Test
  @DisplayName("the history form: ISO dates, a trailing comma, N/A and empty cells skipped")
  void history() {
    RatesFile rates = RatesFile.parse("Date,USD,JPY,RUB,\r\n2026-11-24,1.0512,160.11,N/A,\r\n"
        + "2026-11-23,1.05,,N/A,\r\n\r\n");
    assertThat(rates.currencies()).containsExactly("USD", "JPY", "USD");
    assertThat(rates.days()).containsExactly(LocalDate.of(2026, 11, 24), LocalDate.of(2026, 11, 24),
        LocalDate.of(2026, 11, 23));
    assertThat(rates.perEur()).containsExactly(new BigDecimal("1.0512"), new BigDecimal("160.11"),
        new BigDecimal("1.05"));
    assertThat(rates.size()).isEqualTo(3);
  }

  @Test
  @DisplayName("the daily form: spaces after commas, the date written out")
  void daily() {
    RatesFile rates = RatesFile.parse("Date, USD, GBP, \n24 November 2026, 1.0512, 0.8412, \n");
    assertThat(rates.currencies()).containsExactly("USD", "GBP");
    assertThat(rates.days()).containsOnly(LocalDate.of(2026, 11, 24));
  }

  @Test
  @DisplayName("the shipped demo file reads, with a rate for today's week")
  void shipped() throws Exception {
    RatesFile rates = RatesFile.parse(Files.readString(Path.of("conf/rates.csv")));
    assertThat(rates.currencies()).contains("USD", "GBP");
    assertThat(rates.days()).contains(LocalDate.of(2026, 11, 24));
  }

  @Test
  @DisplayName("each unreadable line is named")
  void refused() {
    assertThatThrownBy(() -> RatesFile.parse("USD,JPY\n1,2\n")).hasMessageContaining("line 1: must be the header");
    assertThatThrownBy(() -> RatesFile.parse("Date,US Dollar\n")).hasMessageContaining("line 1: column 2");
    assertThatThrownBy(() -> RatesFile.parse("Date,USD\nyesterday,1\n")).hasMessageContaining("line 2: the date");
    assertThatThrownBy(() -> RatesFile.parse("Date,USD\n2026-11-24,one\n"))
        .hasMessageContaining("line 2: USD must be a number, not one");
    assertThatThrownBy(() -> RatesFile.parse("Date,USD\n2026-11-24,0\n"))
        .hasMessageContaining("line 2: USD must be above 0");
  }
}
