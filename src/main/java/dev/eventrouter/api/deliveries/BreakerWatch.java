package dev.eventrouter.api.deliveries;

import dev.eventrouter.bus.BreakerOpened;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which integrations' breakers are open anywhere in the cluster, as the notices of their opening tell it
 * ({@code Addresses.BREAKER_OPENED}), so the workspace summary can show it on a node that does not forward. A notice
 * may be lost (it is a publish): a breaker this node did not hear of is shown closed.
 */
public final class BreakerWatch {

  private record Key(UUID workspaceId, String integrationId) {}

  private final Map<Key, Instant> openUntil = new ConcurrentHashMap<>();

  public void opened(BreakerOpened notice) {
    openUntil.merge(new Key(notice.workspaceId(), notice.integrationId()), notice.until(),
        (a, b) -> a.isAfter(b) ? a : b);
  }

  /** Until when the integration's breaker is open, or null when it is not (as far as this node heard). */
  Instant openUntil(UUID workspaceId, String integrationId, Instant now) {
    Instant until = openUntil.get(new Key(workspaceId, integrationId));
    return until != null && until.isAfter(now) ? until : null;
  }
}
