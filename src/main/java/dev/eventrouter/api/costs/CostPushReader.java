package dev.eventrouter.api.costs;

import dev.eventrouter.event.SpendRow;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.ApiException.FieldError;
import dev.eventrouter.http.ErrorCode;
import dev.eventrouter.http.JsonBody;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads the body of {@code POST /api/v1/costs}: what ad objects cost on which days, as JSON or as CSV (a sheet's
 * export, Binom's), every row checked. Every problem is collected, so a buyer fixes a file in one go; the push is
 * refused whole, since it replaces its period and a partial one would leave days short.
 */
public final class CostPushReader {

  public static final int MAX_ROWS = 10_000;
  public static final int MAX_DAYS = CostRules.MAX_DAYS;
  public static final String DEFAULT_SOURCE = "push";

  static final Pattern SOURCE = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  static final String SOURCE_RULE = "must be 1 to 64 of A-Z a-z 0-9 _ . -";
  static final String LEVEL_RULE = "must be one of " + String.join(", ", SpendRow.LEVELS);
  /** A row's fields, as JSON names them and as a CSV header names its columns. */
  static final List<String> FIELDS = List.of("date", "timezone", "level", "id", "cost", "currency");
  static final String OPTIONAL = "timezone";

  private CostPushReader() {}

  /**
   * The push, or the documented error: 415 for another content type, {@code invalid_json} for a JSON body that is
   * no object, else a validation error with one detail per problem (at most 50, then a count).
   *
   * @param contentType the request's Content-Type; its parameters (charset) are not read, the body being text
   * @param sourceParam the {@code source} query parameter, or null: a CSV's source, and a JSON body's when it names
   *                    none
   */
  public static CostPush read(String contentType, String body, ZoneId defaultZone, String sourceParam) {
    String type = contentType == null ? "" : contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    String text = body == null ? "" : body;
    return switch (type) {
      case "application/json" -> json(text, defaultZone, sourceParam);
      case "text/csv", "text/plain" -> csv(text, defaultZone, sourceParam);
      default -> throw new ApiException(ErrorCode.UNSUPPORTED_MEDIA_TYPE,
          "Content-Type must be application/json or text/csv.", null, null);
    };
  }

  private static CostPush json(String body, ZoneId defaultZone, String sourceParam) {
    JsonObject object = JsonBody.parse(Buffer.buffer(body));
    List<FieldError> errors = new ArrayList<>();
    unknown(object.fieldNames(), Set.of("source", "rows"), "", errors);
    Object named = object.getValue("source");
    String source = source(named == null ? sourceParam : named, errors);
    Object value = object.getValue("rows");
    if (!(value instanceof JsonArray array)) {
      errors.add(new FieldError("rows", value == null ? "required: an array of rows" : "must be an array of rows"));
      throw CostRules.invalid(errors);
    }
    tooMany(array.size());
    Rows rows = new Rows(defaultZone, errors);
    for (int i = 0; i < array.size(); i++) {
      String where = "rows[" + i + "]";
      if (array.getValue(i) instanceof JsonObject row) {
        unknown(row.fieldNames(), Set.copyOf(FIELDS), where + ".", errors);
        rows.add(where, row::getValue);
      } else {
        errors.add(new FieldError(where, "must be a JSON object"));
      }
    }
    return rows.push(source, array.size());
  }

  private static CostPush csv(String body, ZoneId defaultZone, String sourceParam) {
    String text = body.startsWith("\uFEFF") ? body.substring(1) : body; // a BOM, as spreadsheet apps write one
    List<FieldError> errors = new ArrayList<>();
    String source = source(sourceParam, errors);
    List<CsvRecords.Record> records = CsvRecords.parse(text, CsvRecords.delimiter(text));
    if (records.isEmpty()) {
      throw CostRules.invalid(List.of(new FieldError("line 1", "must be a header naming the columns "
          + columns())));
    }
    CsvRecords.Record header = records.get(0);
    List<String> names = header.values().stream().map(name -> name.toLowerCase(Locale.ROOT)).toList();
    header(names, "line " + header.line(), errors);
    if (!errors.isEmpty()) {
      throw CostRules.invalid(errors);
    }
    tooMany(records.size() - 1);
    Rows rows = new Rows(defaultZone, errors);
    for (CsvRecords.Record record : records.subList(1, records.size())) {
      String where = "line " + record.line();
      if (record.values().size() != names.size()) {
        errors.add(new FieldError(where, "has " + record.values().size() + " values; the header names "
            + names.size() + " columns"));
        continue;
      }
      Map<String, String> values = new HashMap<>();
      for (int i = 0; i < names.size(); i++) {
        values.put(names.get(i), record.values().get(i).isEmpty() ? null : record.values().get(i));
      }
      rows.add(where, values::get);
    }
    return rows.push(source, records.size() - 1);
  }

  private static void header(List<String> names, String where, List<FieldError> errors) {
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      if (!FIELDS.contains(name)) {
        errors.add(new FieldError(where, "unknown column \"" + CostRules.shown(name) + "\"; the columns are "
            + columns()));
      } else if (names.indexOf(name) < i) {
        errors.add(new FieldError(where, "names the column " + name + " twice"));
      }
    }
    FIELDS.stream().filter(name -> !name.equals(OPTIONAL) && !names.contains(name))
        .forEach(name -> errors.add(new FieldError(where, "has no column " + name + "; the columns are "
            + columns())));
  }

  private static String columns() {
    return "date, timezone (optional), level, id, cost, currency";
  }

  /** A typo such as {@code costs} must not be dropped silently: its row would be read without its cost. */
  private static void unknown(Set<String> names, Set<String> known, String prefix, List<FieldError> errors) {
    names.stream().filter(name -> !known.contains(name)).sorted()
        .forEach(name -> errors.add(new FieldError(prefix + CostRules.shown(name), "unknown field")));
  }

  private static String source(Object value, List<FieldError> errors) {
    Object source = value == null ? DEFAULT_SOURCE : value;
    if (!(source instanceof String text) || !SOURCE.matcher(text).matches()) {
      errors.add(new FieldError("source", SOURCE_RULE));
    }
    return String.valueOf(source);
  }

  /** Refused before any row is read: the body limit bounds the size, this the work. */
  private static void tooMany(int rows) {
    if (rows > MAX_ROWS) {
      throw CostRules.invalid(List.of(new FieldError("rows", "holds " + rows + " rows; at most " + MAX_ROWS
          + " in one push: split it")));
    }
  }

  /** The rows read so far, their errors, and the first row of each object and day. */
  private static final class Rows {

    private record Key(String level, String id, LocalDate day) {}

    private final ZoneId defaultZone;
    private final List<FieldError> errors;
    private final List<SpendRow> read = new ArrayList<>();
    private final Map<Key, String> seen = new LinkedHashMap<>();

    Rows(ZoneId defaultZone, List<FieldError> errors) {
      this.defaultZone = defaultZone;
      this.errors = errors;
    }

    void add(String where, Function<String, Object> field) {
      int before = errors.size();
      String prefix = where + ".";
      LocalDate day = CostRules.date(field.apply("date"), prefix + "date", errors);
      ZoneId zone = CostRules.zone(field.apply("timezone"), defaultZone, prefix + "timezone", errors);
      String level = level(field.apply("level"), prefix + "level");
      String id = CostRules.id(field.apply("id"), prefix + "id", errors);
      BigDecimal cost = CostRules.cost(field.apply("cost"), prefix + "cost", errors);
      String currency = CostRules.currency(field.apply("currency"), prefix + "currency", errors);
      if (errors.size() > before) {
        return;
      }
      String first = seen.putIfAbsent(new Key(level, id, day), where);
      if (first != null) {
        errors.add(new FieldError(where, "has the same level, id and date as " + first + ": one cost per object "
            + "and day"));
        return;
      }
      read.add(SpendRow.pushed(level, id, day, zone.getId(), currency, cost));
    }

    private String level(Object value, String field) {
      String level = value instanceof String text ? text.toLowerCase(Locale.ROOT) : "";
      if (!SpendRow.LEVELS.contains(level)) {
        errors.add(new FieldError(field, value == null ? CostRules.REQUIRED : LEVEL_RULE));
      }
      return level;
    }

    CostPush push(String source, int given) {
      if (given == 0) {
        errors.add(new FieldError("rows", "must hold at least one row"));
      }
      LocalDate from = read.stream().map(SpendRow::day).min(LocalDate::compareTo).orElse(null);
      LocalDate to = read.stream().map(SpendRow::day).max(LocalDate::compareTo).orElse(null);
      if (from != null) {
        CostRules.span(from, to, "rows", errors);
      }
      if (!errors.isEmpty()) {
        throw CostRules.invalid(errors);
      }
      return new CostPush(source, read, from, to);
    }
  }
}
