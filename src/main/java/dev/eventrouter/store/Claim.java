package dev.eventrouter.store;

import java.util.List;
import java.util.UUID;

/**
 * What one claim of a forwarder took: the deliveries to send, and the cursors it holds while they are sent, which
 * {@link DeliveryQueue#settle} moves past them once each has its outcome.
 *
 * @param more whether there may be more to claim right behind
 */
public record Claim(List<ClaimedDelivery> jobs, List<Lease> leases, boolean more) {

  /** A cursor held by a claim: its integration, and the epoch that fences it against a later holder. */
  public record Lease(UUID workspaceId, String integrationId, long epoch) {}
}
