package dev.eventrouter.api.reports;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The cohort report as CSV: a line per cohort (its groups, clicks, cost, then revenue, payers and ROAS at each age),
 * then the totals. Cells as the funnel's CSV writes them (text from outside never read as a formula); an age not
 * reached yet is an empty cell.
 */
final class CohortCsv {

  private CohortCsv() {}

  static String of(List<String> groupBy, JsonObject report) {
    StringBuilder csv = new StringBuilder();
    List<String> header = new ArrayList<>(groupBy);
    header.addAll(List.of("clicks", "cost"));
    for (Object age : report.getJsonArray("ages")) {
      header.addAll(List.of("revenue_d" + age, "payers_d" + age, "roas_d" + age));
    }
    FunnelCsv.line(csv, header);
    for (Object item : report.getJsonArray("rows")) {
      JsonObject row = (JsonObject) item;
      List<String> cells = new ArrayList<>(groupBy.stream().map(row.getJsonObject("group")::getString).toList());
      FunnelCsv.line(csv, cells(cells, row));
    }
    List<String> totals = new ArrayList<>(groupBy.stream().map(g -> "").toList());
    if (!totals.isEmpty()) {
      totals.set(0, "total");
    }
    FunnelCsv.line(csv, cells(totals, report.getJsonObject("totals")));
    return csv.toString();
  }

  private static List<String> cells(List<String> cells, JsonObject row) {
    cells.add(String.valueOf(row.getLong("clicks")));
    cells.add(text(row.getValue("cost")));
    for (Object item : row.getJsonArray("ages", new JsonArray())) {
      JsonObject age = (JsonObject) item;
      cells.add(text(age.getValue("revenue")));
      cells.add(text(age.getValue("payers")));
      cells.add(text(age.getValue("roas")));
    }
    return cells;
  }

  private static String text(Object value) {
    return value == null ? "" : String.valueOf(value);
  }
}
