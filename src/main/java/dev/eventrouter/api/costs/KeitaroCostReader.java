package dev.eventrouter.api.costs;

import dev.eventrouter.event.SpendRow;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.ApiException.FieldError;
import dev.eventrouter.http.JsonBody;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads the body of Keitaro's {@code POST /admin_api/v1/campaigns/{campaign}/update_costs}
 * (https://admin-api.docs.keitaro.io/), which Dolphin and FBTool push costs with, having no tracker integrations of
 * their own (https://v9.help.keitaro.io/ru/third-party-integrations/dolphin.html): a total cost of one object over a
 * period. Read here: {@code start_date}, {@code end_date}, {@code cost}, {@code currency}, {@code timezone} and
 * {@code filters}. Keitaro's own options ({@code only_campaign_uniques}, and any other) choose which of Keitaro's
 * clicks take the cost; there are none here to choose, so they are ignored.
 */
public final class KeitaroCostReader {

  public static final String SOURCE = "keitaro";
  /**
   * Which of the filter's sub ids holds which level's id. {@code sub_id_3} is the ad set's: Keitaro's Dolphin page
   * recommends matching on it, the default of Keitaro's Facebook template
   * (https://v9.help.keitaro.io/ru/third-party-integrations/dolphin.html). {@code sub_id_4} is the ad's, which FBTool
   * matches on (https://github.com/fenjo26/Orbitra.link/blob/main/docs/dolphin-fbtool.md). {@code sub_id_1} (the
   * campaign's) and {@code sub_id_2} (the ad's) are this router's own choice: no public page names them.
   */
  public static final Map<String, String> DEFAULT_SUB_IDS = Map.of("sub_id_1", SpendRow.CAMPAIGN,
      "sub_id_2", SpendRow.AD, "sub_id_3", SpendRow.ADSET, "sub_id_4", SpendRow.AD);

  /** Tools send a date ({@code 2026-08-15}), or a date and time ({@code 2026-08-15 23:59:59}). */
  private static final Pattern MOMENT = Pattern.compile(
      "([0-9]{4}-[0-9]{2}-[0-9]{2})(?:[ T]([0-9]{2}:[0-9]{2}(?::[0-9]{2})?))?");
  private static final String MOMENT_RULE = "must be a date as yyyy-MM-dd, or a date and time as yyyy-MM-dd "
      + "HH:mm:ss";

  private KeitaroCostReader() {}

  /**
   * The push, one row per day of the period, or the documented error: {@code invalid_json} for a body that is no JSON
   * object, else a validation error naming the body's fields. Without {@code end_date} the period is the start's day.
   *
   * @param campaign    the path's campaign: the campaign-level id when no filter names an object
   * @param subIdLevels which filter names which level ({@link #DEFAULT_SUB_IDS} unless configured)
   */
  public static CostPush read(String campaign, String body, ZoneId defaultZone, Map<String, String> subIdLevels) {
    JsonObject object = JsonBody.parse(Buffer.buffer(body == null ? "" : body));
    List<FieldError> errors = new ArrayList<>();
    String campaignId = CostRules.id(campaign, "campaign", errors);
    Moment start = moment(object.getValue("start_date"), "start_date", errors);
    Object endValue = object.getValue("end_date");
    Moment end = endValue == null ? start : moment(endValue, "end_date", errors);
    BigDecimal cost = CostRules.cost(object.getValue("cost"), "cost", errors);
    Object currencyValue = object.getValue("currency");
    String currency = null;
    if (currencyValue == null) {
      errors.add(new FieldError("currency", "required: the ISO 4217 code of the cost, such as USD (Keitaro would "
          + "take its own currency, which is unknown here)"));
    } else {
      currency = CostRules.currency(currencyValue, "currency", errors);
    }
    ZoneId zone = CostRules.zone(object.getValue("timezone"), defaultZone, "timezone", errors);
    Target target = target(object.getValue("filters"), campaignId, subIdLevels, errors);
    LocalDate from = null;
    LocalDate to = null;
    if (start != null && end != null) {
      from = start.date();
      to = lastDay(start, end);
      if (to.isBefore(from)) {
        errors.add(new FieldError("end_date", "must not be before start_date"));
      } else {
        CostRules.span(from, to, "end_date", errors);
      }
    }
    if (!errors.isEmpty()) {
      throw CostRules.invalid(errors);
    }
    return new CostPush(SOURCE, spread(target, from, to, zone, currency, cost), from, to);
  }

  /**
   * Keitaro's answer to a refused request, {@code {"success":false,"error":"..."}}, its text the problems joined.
   */
  public static JsonObject errorBody(ApiException e) {
    JsonArray details = e.toJson().getJsonObject("error").getJsonArray("details");
    String text = details == null ? e.getMessage() : details.stream().map(d -> (JsonObject) d)
        .map(d -> d.getString("field") + ": " + d.getString("message")).collect(Collectors.joining("; "));
    return new JsonObject().put("success", false).put("error", text);
  }

  /** A date, and the time of day when one was given. */
  private record Moment(LocalDate date, LocalTime time) {}

  private record Target(String level, String id) {}

  private static Moment moment(Object value, String field, List<FieldError> errors) {
    if (value == null) {
      errors.add(new FieldError(field, CostRules.REQUIRED));
      return null;
    }
    Matcher matcher = value instanceof String text ? MOMENT.matcher(text) : null;
    if (matcher != null && matcher.matches()) {
      LocalDate date = CostRules.parseDate(matcher.group(1));
      LocalTime time = matcher.group(2) == null ? null : time(matcher.group(2));
      if (date != null && (time != null || matcher.group(2) == null)) {
        return new Moment(date, time);
      }
    }
    errors.add(new FieldError(field, MOMENT_RULE));
    return null;
  }

  private static LocalTime time(String text) {
    try {
      return LocalTime.parse(text);
    } catch (DateTimeParseException noSuchTime) {
      return null; // 25:00
    }
  }

  /**
   * The period's last day: the end's date, but the day before when the end is midnight after the start's day, as
   * {@code 2026-08-15 00:00:00} to {@code 2026-08-16 00:00:00} is the 15th alone.
   */
  private static LocalDate lastDay(Moment start, Moment end) {
    boolean midnight = LocalTime.MIDNIGHT.equals(end.time());
    return midnight && end.date().isAfter(start.date()) ? end.date().minusDays(1) : end.date();
  }

  /**
   * The object the filter names: exactly one filter this router reads, else the path's campaign when none is given.
   * PHP sends an empty filters object as {@code []}.
   */
  private static Target target(Object value, String campaign, Map<String, String> levels, List<FieldError> errors) {
    if (value == null || value instanceof JsonArray array && array.isEmpty()
        || value instanceof JsonObject filters && filters.isEmpty()) {
      return new Target(SpendRow.CAMPAIGN, campaign);
    }
    if (!(value instanceof JsonObject filters)) {
      errors.add(new FieldError("filters", "must be a JSON object such as {\"sub_id_3\": \"<ad set id>\"}"));
      return null;
    }
    List<String> read = new ArrayList<>();
    for (String name : new TreeSet<>(filters.fieldNames())) {
      if (levels.containsKey(name)) {
        read.add(name);
      } else {
        errors.add(new FieldError("filters." + CostRules.shown(name), "is not a filter this router reads; it reads "
            + new TreeMap<>(levels).entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")")
            .collect(Collectors.joining(", "))));
      }
    }
    if (read.size() > 1) {
      errors.add(new FieldError("filters", "names " + String.join(", ", read) + ": give exactly one, as the cost "
          + "of several objects cannot be told apart"));
    }
    if (read.size() != 1) {
      return null;
    }
    String name = read.get(0);
    String id = filterId(filters.getValue(name), "filters." + name, errors);
    return new Target(levels.get(name), id);
  }

  private static String filterId(Object value, String field, List<FieldError> errors) {
    Object text = value instanceof Integer || value instanceof Long || value instanceof BigInteger
        ? value.toString() : value;
    int before = errors.size();
    String id = CostRules.id(text, field, errors);
    if (errors.size() == before && id.contains(",")) {
      errors.add(new FieldError(field, "holds a list: Keitaro reads a comma as several values, whose costs cannot "
          + "be told apart; push one id per request"));
    }
    return id;
  }

  /**
   * The cost spread evenly over the period's days, to 6 decimal places, the last day taking the remainder so the
   * days add up to the cost exactly. Rounding half-even; down when that would leave the last day below zero (a few
   * millionths over many days).
   */
  private static List<SpendRow> spread(Target target, LocalDate from, LocalDate to, ZoneId zone, String currency,
                                       BigDecimal cost) {
    int days = (int) ChronoUnit.DAYS.between(from, to) + 1;
    BigDecimal each = cost.divide(BigDecimal.valueOf(days), CostRules.MAX_SCALE, RoundingMode.HALF_EVEN);
    if (each.multiply(BigDecimal.valueOf(days - 1L)).compareTo(cost) > 0) {
      each = cost.divide(BigDecimal.valueOf(days), CostRules.MAX_SCALE, RoundingMode.DOWN);
    }
    BigDecimal last = cost.subtract(each.multiply(BigDecimal.valueOf(days - 1L)));
    List<SpendRow> rows = new ArrayList<>();
    for (int i = 0; i < days; i++) {
      rows.add(SpendRow.pushed(target.level(), target.id(), from.plusDays(i), zone.getId(), currency,
          i == days - 1 ? last : each));
    }
    return rows;
  }
}
