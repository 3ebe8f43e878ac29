package dev.eventrouter.alert;

import dev.eventrouter.bus.BreakerOpened;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Since when each integration's circuit breaker has stayed open anywhere in the cluster, from the notices of its
 * openings ({@code Addresses.BREAKER_OPENED}, published to every node). A breaker that stays open re-opens after each
 * failed trial request, with a new notice, so a notice that comes before the last one's open time ran out (plus a
 * grace for the trial: the scan that picks it up and its request) continues the same outage; no notice within that
 * time means the breaker closed, or its node stopped. Used on one event loop.
 */
final class BreakerTrack {

  /** An outage: open since, last heard open until, and the last failure before it opened. */
  record Open(Instant since, Instant until, String reason) {}

  private final Map<Key, Open> open = new HashMap<>();
  private final long graceMs;

  record Key(UUID workspaceId, String subject) {}

  BreakerTrack(long graceMs) {
    this.graceMs = graceMs;
  }

  void opened(BreakerOpened notice, Instant now) {
    Key key = new Key(notice.workspaceId(), notice.network() + "/" + notice.integrationId());
    Open before = open.get(key);
    boolean continues = before != null && !now.isAfter(before.until().plusMillis(graceMs));
    Instant until = continues && before.until().isAfter(notice.until()) ? before.until() : notice.until();
    String reason = notice.reason() != null ? notice.reason() : continues ? before.reason() : null;
    open.put(key, new Open(continues ? before.since() : now, until, reason));
  }

  /** The breakers open now, by workspace and "network/integration"; those heard of no longer are forgotten. */
  Map<Key, Open> openAt(Instant now) {
    open.values().removeIf(o -> now.isAfter(o.until().plusMillis(graceMs)));
    return Map.copyOf(open);
  }
}
