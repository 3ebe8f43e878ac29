package dev.eventrouter.api.deliveries;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.http.Edge;
import dev.eventrouter.http.Responses;
import dev.eventrouter.http.StoreClient;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /api/v1/integrations/{integration_id}/pause} and {@code .../resume}: an admin holds an integration's
 * deliveries (a campaign under review, a pixel being moved) and lets them go. A pause by hand holds them as a
 * refused token does, kept (status {@code paused}) and sent on resume; neither a new token nor a probe ends it. A
 * resume ends any pause, one on a refused token too (sent again, such a token pauses it again).
 */
public final class IntegrationPauses {

  private final StoreClient store;

  public IntegrationPauses(StoreClient store) {
    this.store = store;
  }

  public void pause(RoutingContext rc) {
    change(rc, true);
  }

  public void resume(RoutingContext rc) {
    change(rc, false);
  }

  private void change(RoutingContext rc, boolean pause) {
    IntegrationConfig integration = IntegrationsApi.integration(Edge.workspace(rc), rc.pathParam("integration_id"));
    JsonObject ask = new JsonObject().put("workspace_id", Edge.workspace(rc).id().toString())
        .put("integration_id", integration.id()).put("network", integration.network().id).put("paused", pause)
        .put("reason", "paused by hand by key \"" + Edge.grant(rc).key().name() + "\"");
    store.ask(Addresses.INTEGRATION_PAUSE, ask, rc)
        .onSuccess(answer -> Responses.ok(rc, new JsonObject().put("integration_id", integration.id())
            .put("paused", pause).put("changed", answer.getBoolean("changed"))))
        .onFailure(rc::fail);
  }
}
