package dev.eventrouter.api.reports;

import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The reconciliation as CSV: a line per group and action type, then the totals. Cells as the funnel's CSV writes
 * them (text from outside, an ad id, never read as a formula).
 */
final class ReconcileCsv {

  private ReconcileCsv() {}

  static String of(JsonObject report) {
    StringBuilder csv = new StringBuilder();
    String group = "day".equals(report.getString("group_by")) ? "day" : report.getString("group_by") + "_id";
    FunnelCsv.line(csv, List.of(group, "action_type", "events", "delivered", "network_count", "difference",
        "ratio", "short"));
    for (Object item : report.getJsonArray("rows")) {
      JsonObject row = (JsonObject) item;
      FunnelCsv.line(csv, cells(row.getJsonObject("group").getString(group), row));
    }
    for (Object item : report.getJsonArray("totals")) {
      FunnelCsv.line(csv, cells("total", (JsonObject) item));
    }
    return csv.toString();
  }

  private static List<String> cells(String group, JsonObject row) {
    List<String> cells = new ArrayList<>();
    cells.add(group);
    cells.add(row.getString("action_type"));
    cells.add(String.join(" ", row.getJsonArray("events").stream().map(String::valueOf).toList()));
    cells.add(String.valueOf(row.getLong("delivered")));
    cells.add(String.valueOf(row.getLong("network_count")));
    cells.add(String.valueOf(row.getLong("difference")));
    cells.add(row.getValue("ratio") == null ? "" : String.valueOf(row.getValue("ratio")));
    cells.add(String.valueOf(row.getBoolean("short")));
    return cells;
  }
}
