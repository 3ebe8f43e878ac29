package dev.eventrouter.common;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/** The Retry-After header (https://www.rfc-editor.org/rfc/rfc9110#name-retry-after): seconds or an HTTP date. */
public final class RetryAfter {

  private RetryAfter() {}

  /** The wait the header's value asks for, in milliseconds; 0 when absent (null) or unreadable. */
  public static long millis(String value) {
    if (value == null) {
      return 0;
    }
    try {
      return Math.max(0, Long.parseLong(value.trim()) * 1000);
    } catch (NumberFormatException notSeconds) {
      try {
        return Math.max(0, Duration.between(Instant.now(),
            ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant()).toMillis());
      } catch (RuntimeException unreadable) {
        return 0;
      }
    }
  }
}
