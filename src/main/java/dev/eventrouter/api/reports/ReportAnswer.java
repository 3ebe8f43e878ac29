package dev.eventrouter.api.reports;

import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.http.BuyerScope;
import dev.eventrouter.http.Edge;
import dev.eventrouter.http.ReportSlots;
import dev.eventrouter.http.Responses;
import dev.eventrouter.http.StoreClient;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.function.Consumer;
import java.util.function.Function;

/**
 * How every report is answered: asked of the read verticle with one of {@link ReportSlots}' slots held until it
 * answers, however it ends; what was asked added to the answer; then sent as JSON, or as a CSV file with
 * {@code format=csv}.
 */
final class ReportAnswer {

  private ReportAnswer() {}

  /**
   * @param describe adds what was asked (the days, the zone, the groups) to the report
   * @param file     the CSV file's name
   * @param csv      the report as CSV
   */
  static void send(RoutingContext rc, StoreClient store, ReportSlots slots, String address, JsonObject query,
                   Consumer<JsonObject> describe, String file, Function<JsonObject, String> csv) {
    WorkspaceConfig workspace = Edge.workspace(rc);
    boolean asCsv = "csv".equals(rc.queryParams().get("format"));
    slots.take(workspace.id());
    store.ask(address, query, rc)
        .onComplete(done -> slots.release(workspace.id()))
        .onSuccess(report -> {
          describe.accept(report);
          if (BuyerScope.campaigns(rc) != null && report.getValue("totals") instanceof JsonObject totals
              && totals.containsKey("spend_unmatched")) {
            // The workspace's spend no click explains is no buyer's: it would tell the workspace's whole spend.
            totals.putNull("spend_unmatched");
          }
          if (asCsv) {
            rc.response().setStatusCode(200)
                .putHeader(HttpHeaders.CONTENT_TYPE, "text/csv; charset=utf-8")
                .putHeader(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"" + file + "\"")
                .end(csv.apply(report));
          } else {
            Responses.ok(rc, report);
          }
        })
        .onFailure(rc::fail);
  }
}
