package dev.eventrouter.report;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * An exchange-rates file in the ECB's CSV form: a header {@code Date,USD,JPY,...} and a line per day of units per
 * euro, as both the daily {@code eurofxref.csv} and the history {@code eurofxref-hist.csv} are
 * (https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html).
 * Dates are ISO ({@code 2026-11-24}) or the daily file's {@code 24 November 2026}; an empty or {@code N/A} cell is a
 * currency without a rate that day. The operator may add lines of their own for units the ECB does not publish.
 */
public record RatesFile(List<String> currencies, List<LocalDate> days, List<BigDecimal> perEur) {

  private static final Pattern CODE = Pattern.compile("[A-Z]{3}");
  private static final DateTimeFormatter DAILY = DateTimeFormatter.ofPattern("d MMMM yyyy", Locale.ENGLISH);

  /** The rates of a file's text; an {@link IllegalArgumentException} naming the first line it cannot read. */
  public static RatesFile parse(String text) {
    String[] lines = text.split("\r?\n");
    if (lines.length == 0 || !lines[0].trim().startsWith("Date")) {
      throw new IllegalArgumentException("line 1: must be the header Date,USD,JPY,... (the ECB's CSV form)");
    }
    String[] header = lines[0].split(",");
    List<String> currencies = new ArrayList<>();
    List<LocalDate> days = new ArrayList<>();
    List<BigDecimal> perEur = new ArrayList<>();
    for (int i = 1; i < header.length; i++) {
      String code = header[i].trim();
      if (!code.isEmpty() && !CODE.matcher(code).matches()) {
        throw new IllegalArgumentException("line 1: column " + (i + 1) + " must be a currency code, not " + code);
      }
    }
    for (int l = 1; l < lines.length; l++) {
      if (lines[l].isBlank()) {
        continue;
      }
      String[] cells = lines[l].split(",");
      LocalDate day = day(cells[0].trim(), l + 1);
      for (int i = 1; i < cells.length && i < header.length; i++) {
        String code = header[i].trim();
        String cell = cells[i].trim();
        if (code.isEmpty() || cell.isEmpty() || cell.equals("N/A")) {
          continue;
        }
        BigDecimal rate;
        try {
          rate = new BigDecimal(cell);
        } catch (NumberFormatException notANumber) {
          throw new IllegalArgumentException("line " + (l + 1) + ": " + code + " must be a number, not " + cell);
        }
        if (rate.signum() <= 0) {
          throw new IllegalArgumentException("line " + (l + 1) + ": " + code + " must be above 0");
        }
        currencies.add(code);
        days.add(day);
        perEur.add(rate);
      }
    }
    return new RatesFile(List.copyOf(currencies), List.copyOf(days), List.copyOf(perEur));
  }

  private static LocalDate day(String text, int line) {
    try {
      return text.contains(" ") ? LocalDate.parse(text, DAILY) : LocalDate.parse(text);
    } catch (DateTimeParseException unreadable) {
      throw new IllegalArgumentException("line " + line + ": the date must read 2026-11-24 or 24 November 2026");
    }
  }

  public int size() {
    return currencies.size();
  }
}
