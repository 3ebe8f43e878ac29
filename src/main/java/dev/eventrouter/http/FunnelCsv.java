package dev.eventrouter.http;

import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * A funnel report as CSV (RFC 4180, https://www.rfc-editor.org/rfc/rfc4180): a header, a line per group, a last
 * line of totals. A value a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a return) is
 * prefixed with ', as OWASP advises (https://owasp.org/www-community/attacks/CSV_Injection): group values are
 * whatever the ads' URLs carried.
 */
final class FunnelCsv {

  static final List<String> STEPS = List.of("clicks", "starts", "join_requests", "joins", "unsubscribes",
      "remaining_subscribers", "revenue");
  static final List<String> STATUSES = List.of("pending", "approved", "rejected", "chargeback");

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
    return cells;
  }

  private static void line(StringBuilder csv, List<String> cells) {
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        csv.append(',');
      }
      csv.append(cell(cells.get(i)));
    }
    csv.append("\r\n");
  }

  static String cell(String value) {
    String text = value == null ? "" : value;
    if (!text.isEmpty() && "=+-@\t\r".indexOf(text.charAt(0)) >= 0) {
      text = "'" + text;
    }
    if (text.contains(",") || text.contains("\"") || text.contains("\n") || text.contains("\r")) {
      text = "\"" + text.replace("\"", "\"\"") + "\"";
    }
    return text;
  }
}
