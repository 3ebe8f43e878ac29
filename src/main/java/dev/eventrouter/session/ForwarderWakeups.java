package dev.eventrouter.session;

import dev.eventrouter.bus.Addresses;
import io.vertx.core.Vertx;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Tells the forwarders of networks, on every node, that deliveries are due: once per event-loop turn, however many
 * events were stored in it (a committed batch answers all its events in one turn).
 */
final class ForwarderWakeups {

  private final Vertx vertx;
  private final Set<String> due = new HashSet<>();

  ForwarderWakeups(Vertx vertx) {
    this.vertx = vertx;
  }

  void wake(List<String> networks) {
    boolean scheduled = !due.isEmpty();
    due.addAll(networks);
    if (!scheduled && !due.isEmpty()) {
      vertx.runOnContext(v -> {
        due.forEach(network -> vertx.eventBus().publish(Addresses.deliveriesDue(network), network));
        due.clear();
      });
    }
  }
}
