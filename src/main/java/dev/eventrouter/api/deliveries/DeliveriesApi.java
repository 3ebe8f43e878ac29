package dev.eventrouter.api.deliveries;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.event.CampaignScope;
import dev.eventrouter.event.DeliveryFilter;
import dev.eventrouter.http.AuditTrail;
import dev.eventrouter.http.BuyerScope;
import dev.eventrouter.http.Edge;
import dev.eventrouter.http.Responses;
import dev.eventrouter.http.StoreClient;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;

/**
 * {@code GET /api/v1/deliveries} (the deliveries of the key's workspace that a filter names, a page at a time) and
 * {@code POST /api/v1/deliveries/redeliver} (re-queue the failed, expired and unconfirmed ones among them, a bounded number per
 * call). Re-queuing only touches rows in a final state, so it is safe while forwarding runs, and calling it again
 * re-queues nothing twice.
 */
public final class DeliveriesApi {

  private final StoreClient store;

  public DeliveriesApi(StoreClient store) {
    this.store = store;
  }

  public void list(RoutingContext rc) {
    DeliveryFilter filter = DeliveryFilters.list(Edge.workspace(rc).id(), rc.queryParams(), Instant.now());
    store.ask(Addresses.DELIVERIES_LIST, CampaignScope.put(filter.toJson(), BuyerScope.campaigns(rc)), rc)
        .onSuccess(page -> Responses.ok(rc, page))
        .onFailure(rc::fail);
  }

  public void redeliver(RoutingContext rc) {
    DeliveryFilter filter = DeliveryFilters.redeliver(Edge.workspace(rc).id(), Edge.ownBody(rc), Instant.now());
    AuditTrail.target(rc, "deliveries" + (filter.integrationId() == null ? "" : " of " + filter.integrationId())
        + (filter.eventName() == null ? "" : " for " + filter.eventName()) + " " + String.join(",", filter.statuses()));
    store.ask(Addresses.DELIVERIES_REDELIVER, filter.toJson(), rc)
        .onSuccess(result -> Responses.ok(rc, result))
        .onFailure(rc::fail);
  }
}
