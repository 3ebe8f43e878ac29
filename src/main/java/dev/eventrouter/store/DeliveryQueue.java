package dev.eventrouter.store;

import dev.eventrouter.config.Network;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The outbox as a forwarder sees it: claim what is due, then record what became of it. {@link DeliveryStore} on
 * PostgreSQL in the service; the forwarder's cycle logic is also tested against a double.
 */
public interface DeliveryQueue extends DeliveryOutcomes {

  /**
   * Claims deliveries of the network, leased for {@code leaseMs}: due rows, then new events past its cursors, each
   * cursor held until {@link #settle}.
   */
  Future<Claim> claim(Network network, int limit, long leaseMs);

  /**
   * After every delivery of a claim has been taken its way: moves the cursors it holds past what it took, and makes
   * the rows of those that got no outcome (their processing failed), to be claimed again.
   */
  Future<Void> settle(Network network, Claim claim);

  /**
   * Makes sure each integration of the network (a workspace and an integration id, at the same index) has a cursor
   * past which the claims find its new events.
   */
  Future<Void> follow(Network network, List<UUID> workspaces, List<String> integrations);

  /** Ends deliveries in a final state without sending them (expired, or their integration was removed). */
  Future<Void> end(List<ClaimedDelivery> jobs, String status, String reason);

  /** Stores the payload each delivery would have been sent with, instead of sending it. */
  Future<Void> dryRun(Map<ClaimedDelivery, JsonObject> payloads);

  /** The paused integrations of a network. */
  Future<List<Pause>> pauses(Network network);

  /**
   * Ends a pause: its held deliveries are due now. Completes with true for the call that ended it (the pause may
   * have been ended already, by another node). With {@code onlyIfNoneHeld}, only when it holds no delivery.
   */
  Future<Boolean> resume(Pause pause, boolean onlyIfNoneHeld);

  /** Claims one held delivery of a paused integration, to probe the network with it. */
  Future<List<ClaimedDelivery>> claimHeld(Pause pause, long leaseMs);
}
