package dev.eventrouter.cost;

import dev.eventrouter.cost.SpendFailure.Kind;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/**
 * The values of the platforms' reports, which come as strings ({@code "12.34"}, {@code "9708"}); TikTok writes
 * {@code "-"} for a metric it has none of, read as absent.
 */
final class ReportFields {

  private ReportFields() {}

  /** Spend, 0 when absent; a value that is no amount fails the page rather than store a wrong one. */
  static BigDecimal money(Object value, String platform) {
    if (absent(value)) {
      return BigDecimal.ZERO;
    }
    try {
      BigDecimal amount = new BigDecimal(value.toString().trim());
      if (amount.signum() < 0) {
        throw new NumberFormatException("negative");
      }
      return amount;
    } catch (NumberFormatException e) {
      throw new SpendFailure(Kind.FAILED, platform + " reported a spend that is not an amount");
    }
  }

  /** A count, or null when absent or unreadable (counts are shown, not summed into money). */
  static Long count(Object value) {
    if (absent(value)) {
      return null;
    }
    try {
      return new BigDecimal(value.toString().trim()).longValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      return null;
    }
  }

  /** The date of {@code 2026-11-23} or of TikTok's {@code 2026-11-23 00:00:00}. */
  static LocalDate date(String text, String platform) {
    try {
      return LocalDate.parse(text.length() > 10 ? text.substring(0, 10) : text);
    } catch (DateTimeParseException e) {
      throw new SpendFailure(Kind.FAILED, platform + " reported a day that is not a date");
    }
  }

  /** A string field, null when absent, {@code "-"} or not a string. */
  static String text(JsonObject json, String key) {
    Object value = json.getValue(key);
    return value instanceof String text && !absent(text) ? text : null;
  }

  static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static boolean absent(Object value) {
    return value == null || value instanceof String text && (text.isBlank() || "-".equals(text.trim()));
  }
}
