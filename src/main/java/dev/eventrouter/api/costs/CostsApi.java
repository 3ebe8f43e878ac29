package dev.eventrouter.api.costs;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.SpendPush;
import dev.eventrouter.config.CostSourceConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.SpendRow;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.ApiException.FieldError;
import dev.eventrouter.http.Edge;
import dev.eventrouter.http.ErrorCode;
import dev.eventrouter.http.Responses;
import dev.eventrouter.http.StoreClient;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.List;

/**
 * Spend pushed in by the buyer's tools ({@code POST /api/v1/costs}, and Keitaro's {@code update_costs} that Dolphin
 * and FBTool send), and the cost sources as the debugger shows them, with "poll now" (docs/costs.md).
 */
public final class CostsApi {

  /** A push of 10,000 rows of about a hundred bytes each, with room to spare. */
  public static final int MAX_BODY_BYTES = 2 * 1024 * 1024;

  private final StoreClient store;

  public CostsApi(StoreClient store) {
    this.store = store;
  }

  /** {@code POST /api/v1/costs}: JSON rows or CSV; the period the rows cover is replaced for their source. */
  public void push(RoutingContext rc) {
    WorkspaceConfig workspace = Edge.workspace(rc);
    CostPush push = CostPushReader.read(rc.request().getHeader(HttpHeaders.CONTENT_TYPE), body(rc),
        workspace.report().zone(), rc.queryParams().get("source"));
    refuseImportedSource(workspace, push.source());
    store(push, null, null, workspace, rc).onSuccess(rows -> Responses.ok(rc, new JsonObject()
            .put("source", push.source()).put("from", push.from().toString()).put("to", push.to().toString())
            .put("rows", rows)))
        .onFailure(rc::fail);
  }

  /**
   * Keitaro's {@code POST /admin_api/v1/campaigns/{campaign}/update_costs}: one object's cost over a period, spread
   * evenly over its days; answered as Keitaro answers, {@code {"success": true}} or {@code {"success": false,
   * "error": ...}}.
   */
  public void keitaro(RoutingContext rc) {
    WorkspaceConfig workspace = Edge.workspace(rc);
    CostPush push;
    try {
      push = KeitaroCostReader.read(rc.pathParam("campaign"), body(rc), workspace.report().zone(),
          KeitaroCostReader.DEFAULT_SUB_IDS);
    } catch (ApiException refused) {
      rc.response().setStatusCode(refused.code().status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
          .end(KeitaroCostReader.errorBody(refused).toBuffer());
      return;
    }
    SpendRow first = push.rows().get(0);
    store(push, first.level(), first.objectId(), workspace, rc)
        .onSuccess(rows -> rc.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
            .end(new JsonObject().put("success", true).toBuffer()))
        .onFailure(rc::fail);
  }

  /**
   * {@code GET /api/v1/cost-sources}: each configured source with its state, and each pushed source's rows; for a
   * buyer, the configured sources of its ad accounts alone.
   */
  public void sources(RoutingContext rc) {
    WorkspaceConfig workspace = Edge.workspace(rc);
    store.ask(Addresses.COST_SOURCES_LIST, new JsonObject().put("workspace_id", workspace.id().toString()), rc)
        .onSuccess(stored -> Responses.ok(rc, new JsonObject()
            .put("sources", CostSourceViews.of(workspace, stored.getJsonArray("sources"), Edge.grant(rc).key()))))
        .onFailure(rc::fail);
  }

  /** {@code POST /api/v1/cost-sources/{source_id}/poll}: due now, and no longer paused. */
  public void pollNow(RoutingContext rc) {
    WorkspaceConfig workspace = Edge.workspace(rc);
    String id = rc.pathParam("source_id");
    CostSourceConfig source = workspace.costSource(id);
    if (source == null) {
      throw new ApiException(ErrorCode.NOT_FOUND, "This workspace has no cost source of this id.", null, null);
    }
    store.ask(Addresses.COST_SOURCES_POLL, new JsonObject().put("workspace_id", workspace.id().toString())
            .put("source_id", id), rc)
        // A source not polled yet has no state to change: its first poll is due anyway.
        .recover(e -> e instanceof ApiException api && api.code() == ErrorCode.NOT_FOUND
            ? Future.succeededFuture(new JsonObject()) : Future.failedFuture(e))
        .onSuccess(v -> Responses.ok(rc, new JsonObject().put("source_id", id).put("due", true)))
        .onFailure(rc::fail);
  }

  private Future<Integer> store(CostPush push, String level, String objectId, WorkspaceConfig workspace,
                                RoutingContext rc) {
    SpendPush message = new SpendPush(workspace.id(), push.source(), push.from(), push.to(), level, objectId,
        push.rows());
    return store.<JsonObject>askLocal(Addresses.COSTS_PUSH, message, rc).map(reply -> reply.getInteger("rows"));
  }

  /** A push may not write under an imported source's id: the next poll would drop its rows, or it theirs. */
  private static void refuseImportedSource(WorkspaceConfig workspace, String source) {
    if (workspace.costSource(source) != null) {
      throw ApiException.validation(List.of(new FieldError("source", "is the id of one of the workspace's "
          + "cost_sources; a push needs a name of its own")));
    }
  }

  private static String body(RoutingContext rc) {
    return rc.body() == null || rc.body().buffer() == null ? "" : rc.body().asString("UTF-8");
  }
}
