package dev.eventrouter.alert;

import dev.eventrouter.alert.AlertRules.Reading;
import dev.eventrouter.event.ReconcileQuery;
import dev.eventrouter.store.ReconcileReports;
import dev.eventrouter.store.Reconciliation;
import io.vertx.core.json.JsonObject;

/**
 * The {@code network_undercounts} condition of one network: on the query's day, at least {@code minDelivered}
 * conversions were delivered to it for its ads, and its own count of them (the reconciliation's totals, every action
 * type held against something) is under the workspace's threshold of that.
 */
final class Undercount {

  private Undercount() {}

  /** The reading when the condition holds, else null. */
  static Reading reading(ReconcileQuery query, ReconcileReports.Sides sides, long minDelivered) {
    long delivered = 0;
    long counted = 0;
    for (Object item : Reconciliation.of(query, sides).getJsonArray("totals")) {
      JsonObject total = (JsonObject) item;
      if (total.getLong("delivered") > 0) {
        delivered += total.getLong("delivered");
        counted += total.getLong("network_count");
      }
    }
    if (delivered < minDelivered || counted >= query.threshold() * delivered) {
      return null;
    }
    return Reading.state(null, counted + " of the " + delivered + " conversions delivered to it for its ads on "
        + query.from() + " (" + Math.round(100.0 * counted / delivered) + "%, under "
        + Math.round(100 * query.threshold()) + "%)");
  }
}
