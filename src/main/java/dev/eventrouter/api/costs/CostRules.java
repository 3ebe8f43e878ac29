package dev.eventrouter.api.costs;

import dev.eventrouter.common.CurrencyCode;
import dev.eventrouter.config.ReportZone;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.ApiException.FieldError;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The field rules both cost pushes share. Each reader takes a value as the body holds it (null when absent), records
 * one error per bad field, and returns what it read, which means nothing when it recorded an error: a push with any
 * error is refused whole. Values come from outside: an error shows at most a short, printable prefix of one.
 */
final class CostRules {

  /** The longest period one push may cover, in calendar days counting both ends. */
  static final int MAX_DAYS = 90;
  static final BigDecimal MAX_COST = new BigDecimal("1000000000000");
  static final int MAX_SCALE = 6;
  /** The most details an answer lists; a huge bad file would otherwise make a huge answer. */
  static final int MAX_DETAILS = 50;
  static final int MAX_SHOWN = 40;

  static final String REQUIRED = "required";
  static final String COST_RULE = "must be a number from 0 to 1000000000000 (1e12) with at most 6 decimal places, "
      + "such as 12.34 (text may use a decimal comma: 12,34)";
  static final String CURRENCY_RULE = "must be a 3-letter ISO 4217 currency code such as USD";
  static final String ZONE_RULE = "must be an IANA time zone such as Europe/Berlin or UTC, or an offset such as "
      + "+03:00";
  static final String DATE_RULE = "must be a date as yyyy-MM-dd, such as 2026-11-20";
  static final String ID_RULE = "must be 1 to 128 printable ASCII characters without spaces";

  private static final Pattern COST_TEXT = Pattern.compile("-?[0-9]{1,19}(?:[.,][0-9]{1,19})?");
  private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");
  private static final Pattern OFFSET = Pattern.compile("[+-][0-9]{2}:[0-9]{2}");
  private static final Pattern ID = Pattern.compile("[!-~]{1,128}");
  /**
   * A macro an ad platform or tracker left unexpanded, anywhere in an id: Meta's {{ad.id}}, Keitaro's {ad_id},
   * [AD_ID] and %ad_id% (https://www.facebook.com/business/help/2360940870872492 lists Meta's).
   */
  private static final Pattern MACRO = Pattern.compile(
      "\\{\\{?[A-Za-z_][\\w.:-]*}}?|\\[[A-Za-z_][\\w.-]*]|%[A-Za-z_][\\w.-]*%");
  /** The same in forms that also occur in real ids, so only whole: TikTok's __CID__, #s2#, <ad_id>. */
  private static final Pattern WHOLE_MACRO = Pattern.compile(
      "__[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*__|#[A-Za-z_][\\w.-]*#|<[A-Za-z_][\\w.-]*>");

  private CostRules() {}

  /**
   * A cost: a JSON number, or text with a decimal point or comma (sheets in RU and EU locales write 12,34). Returned
   * without trailing zeros, and never in exponent form.
   */
  static BigDecimal cost(Object value, String field, List<FieldError> errors) {
    if (value == null) {
      errors.add(new FieldError(field, REQUIRED));
      return null;
    }
    BigDecimal cost = decimal(value);
    if (cost == null || cost.signum() < 0 || cost.compareTo(MAX_COST) > 0
        || cost.stripTrailingZeros().scale() > MAX_SCALE) {
      errors.add(new FieldError(field, COST_RULE));
      return null;
    }
    return new BigDecimal(cost.stripTrailingZeros().toPlainString()); // 1200, not 1.2E+3
  }

  private static BigDecimal decimal(Object value) {
    if (value instanceof Integer || value instanceof Long) {
      return BigDecimal.valueOf(((Number) value).longValue());
    }
    if (value instanceof Double d) { // what Jackson makes of a JSON number with a fraction or an exponent
      return Double.isFinite(d) ? BigDecimal.valueOf(d) : null;
    }
    if (value instanceof String text && COST_TEXT.matcher(text.strip()).matches()) {
      return new BigDecimal(text.strip().replace(',', '.'));
    }
    return null; // an integer past a long (past 1e12 too); text such as NaN, Infinity, 1e5, 1.234,56
  }

  static String currency(Object value, String field, List<FieldError> errors) {
    String code = value instanceof String text ? CurrencyCode.iso(text) : null;
    if (code == null) {
      errors.add(new FieldError(field, value == null ? REQUIRED : CURRENCY_RULE));
    }
    return code;
  }

  /**
   * A zone as the report reads days in ({@link ReportZone}: an IANA Area/Location id or UTC), or a fixed offset as
   * {@code +03:00}, which {@link dev.eventrouter.event.SpendRow} takes too. GMT+3, UTC+3 and CET are refused:
   * PostgreSQL reads those as POSIX zones or abbreviations, not as java.time does.
   */
  static ZoneId zone(Object value, ZoneId defaultZone, String field, List<FieldError> errors) {
    if (value == null) {
      return defaultZone;
    }
    ZoneId zone = null;
    if (value instanceof String text) {
      zone = OFFSET.matcher(text).matches() ? offset(text) : ReportZone.of(text);
    }
    if (zone == null) {
      errors.add(new FieldError(field, ZONE_RULE));
    }
    return zone;
  }

  private static ZoneId offset(String text) {
    try {
      return ZoneOffset.of(text);
    } catch (DateTimeException outOfRange) {
      return null; // +19:00 and beyond
    }
  }

  static LocalDate date(Object value, String field, List<FieldError> errors) {
    LocalDate date = value instanceof String text && DATE.matcher(text).matches() ? parseDate(text) : null;
    if (date == null) {
      errors.add(new FieldError(field, value == null ? REQUIRED : DATE_RULE));
    }
    return date;
  }

  static LocalDate parseDate(String text) {
    try {
      return LocalDate.parse(text);
    } catch (DateTimeParseException noSuchDay) {
      return null; // 2026-02-30
    }
  }

  /** An ad object's id: printable ASCII, and not a macro the ad's URL left unexpanded. */
  static String id(Object value, String field, List<FieldError> errors) {
    String text = value instanceof String string ? string : null;
    if (value == null) {
      errors.add(new FieldError(field, REQUIRED));
    } else if (text == null || !ID.matcher(text).matches()) {
      errors.add(new FieldError(field, ID_RULE));
    } else if (MACRO.matcher(text).find() || WHOLE_MACRO.matcher(text).matches()) {
      errors.add(new FieldError(field, "holds the unexpanded macro \"" + shown(text) + "\": the ad's URL macro was "
          + "not filled in, so the real id is unknown"));
    }
    return text;
  }

  /** Records an error when the period from..to, both ends counted, is longer than {@link #MAX_DAYS}. */
  static void span(LocalDate from, LocalDate to, String field, List<FieldError> errors) {
    long days = ChronoUnit.DAYS.between(from, to) + 1;
    if (days > MAX_DAYS) {
      errors.add(new FieldError(field, "spans " + days + " days (" + from + " to " + to + "); at most " + MAX_DAYS
          + " in one push"));
    }
  }

  /** The validation error, with at most {@link #MAX_DETAILS} details and a count of the rest. */
  static ApiException invalid(List<FieldError> errors) {
    if (errors.size() <= MAX_DETAILS) {
      return ApiException.validation(errors);
    }
    List<FieldError> listed = new ArrayList<>(errors.subList(0, MAX_DETAILS));
    listed.add(new FieldError("rows", "... and " + (errors.size() - MAX_DETAILS) + " more problems not listed"));
    return ApiException.validation(listed);
  }

  /** At most {@link #MAX_SHOWN} characters of a value, anything unprintable as '?'. */
  static String shown(String value) {
    StringBuilder out = new StringBuilder();
    value.codePoints().limit(MAX_SHOWN).forEach(c -> out.appendCodePoint(
        c >= ' ' && c <= '~' || Character.isLetterOrDigit(c) ? c : '?'));
    return value.codePointCount(0, value.length()) > MAX_SHOWN ? out + "..." : out.toString();
  }
}
