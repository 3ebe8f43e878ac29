package dev.eventrouter.api.reports;

import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A funnel report as CSV (RFC 4180, https://www.rfc-editor.org/rfc/rfc4180): a header, a line per group, a last
 * line of totals. Group values are whatever the ads' URLs carried, so none may reach a spreadsheet as a formula
 * (https://owasp.org/www-community/attacks/CSV_Injection): a formula character (=, +, -, @, a tab or a return) that
 * starts a value, or follows a separator inside it, is prefixed with '. Excel in the ru, de and fr locales splits a
 * .csv on ; rather than , so {@code x;=1+1} would open as a cell starting with =; such a value is quoted too (a
 * quoted field is one cell whatever the separator).
 */
final class FunnelCsv {

  static final List<String> STEPS = List.of("clicks", "starts", "join_requests", "joins", "unsubscribes",
      "remaining_subscribers", "revenue");
  static final List<String> STATUSES = List.of("pending", "approved", "rejected", "chargeback");
  /** The cost fields (docs/costs.md), each funnel event's cost per user among them as cost_per_<event>. */
  static final List<String> COSTS = List.of("cost", "cost_per_click", "cost_per_start", "cost_per_join",
      "cost_per_remaining_subscriber");
  static final List<String> RETURNS = List.of("roas", "profit", "roi");
  /** A number the report computed, negative profit among them: no formula, so written as it is. */
  private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?");

  /** What a spreadsheet may run as a formula when it starts a cell. */
  private static final String FORMULA = "=+-@\t\r";
  /** What starts a cell in one spreadsheet or another: the separators of every locale, and a line's end. */
  private static final String SEPARATORS = ",;\t\r\n";
  /** What makes a value quoted: a separator, or a quote. */
  private static final String QUOTED = SEPARATORS + "\"";

  private FunnelCsv() {}

  static String of(List<String> groupBy, JsonObject report) {
    JsonObject totals = report.getJsonObject("totals");
    List<String> events = new ArrayList<>(totals.getJsonObject("events").fieldNames());
    List<String> rates = new ArrayList<>(totals.getJsonObject("rates").fieldNames());
    List<String> header = new ArrayList<>(groupBy);
    header.addAll(STEPS);
    for (String event : events) {
      header.add(event);
      header.add(event + "_users");
      header.add(event + "_revenue");
      header.add(event + "_unconverted");
      STATUSES.forEach(status -> header.add(event + "_" + status));
    }
    header.addAll(rates);
    header.addAll(COSTS);
    events.forEach(event -> header.add("cost_per_" + event));
    header.addAll(RETURNS);
    StringBuilder csv = new StringBuilder();
    line(csv, header);
    for (Object row : report.getJsonArray("rows")) {
      JsonObject group = ((JsonObject) row).getJsonObject("group");
      line(csv, cells(groupBy.stream().map(group::getString).toList(), (JsonObject) row, events, rates));
    }
    List<String> total = new ArrayList<>();
    groupBy.forEach(g -> total.add(total.isEmpty() ? "total" : ""));
    line(csv, cells(total, totals, events, rates));
    return csv.toString();
  }

  private static List<String> cells(List<String> group, JsonObject row, List<String> events, List<String> rates) {
    List<String> cells = new ArrayList<>(group);
    STEPS.forEach(step -> cells.add(String.valueOf(row.getValue(step))));
    for (String name : events) {
      JsonObject event = row.getJsonObject("events").getJsonObject(name);
      if (event == null) {
        cells.addAll(List.of("0", "0", "0.00", "0", "0", "0", "0", "0"));
        continue;
      }
      cells.add(String.valueOf(event.getLong("count")));
      cells.add(String.valueOf(event.getLong("users")));
      cells.add(event.getString("revenue"));
      cells.add(String.valueOf(event.getLong("unconverted")));
      STATUSES.forEach(status -> cells.add(String.valueOf(event.getJsonObject("statuses").getLong(status))));
    }
    rates.forEach(rate -> {
      Object value = row.getJsonObject("rates").getValue(rate);
      cells.add(value == null ? "" : String.valueOf(value));
    });
    COSTS.forEach(field -> cells.add(text(row.getValue(field))));
    JsonObject costPer = row.getJsonObject("cost_per", new JsonObject());
    events.forEach(event -> cells.add(text(costPer.getValue(event))));
    RETURNS.forEach(field -> cells.add(text(row.getValue(field))));
    return cells;
  }

  static void line(StringBuilder csv, List<String> cells) {
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        csv.append(',');
      }
      csv.append(cell(cells.get(i)));
    }
    csv.append("\r\n");
  }

  private static String text(Object value) {
    return value == null ? "" : String.valueOf(value);
  }

  static String cell(String value) {
    String text = value == null ? "" : value;
    if (NUMBER.matcher(text).matches()) {
      return text;
    }
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (FORMULA.indexOf(c) >= 0 && (i == 0 || SEPARATORS.indexOf(text.charAt(i - 1)) >= 0)) {
        cell.append('\'');
      }
      quoted |= QUOTED.indexOf(c) >= 0;
      cell.append(c == '"' ? "\"\"" : String.valueOf(c));
    }
    return quoted ? "\"" + cell + "\"" : cell.toString();
  }
}
