package dev.eventrouter.http;

import dev.eventrouter.config.WorkspaceConfig;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * A token bucket per workspace, shared by all HttpVerticle instances of this process (so the limit is per node:
 * N nodes admit up to N times the rate).
 */
public final class RateLimiter {

  private final Map<UUID, TokenBucket> buckets = new HashMap<>();
  private final LongSupplier nanoClock;

  public RateLimiter(List<WorkspaceConfig> workspaces, LongSupplier nanoClock) {
    this(workspaces, nanoClock, Map.of());
  }

  private RateLimiter(List<WorkspaceConfig> workspaces, LongSupplier nanoClock, Map<UUID, TokenBucket> before) {
    this.nanoClock = nanoClock;
    long now = nanoClock.getAsLong();
    for (WorkspaceConfig w : workspaces) {
      TokenBucket kept = before.get(w.id());
      buckets.put(w.id(), kept != null && kept.config().equals(w.rateLimit()) ? kept
          : new TokenBucket(w.rateLimit(), now));
    }
  }

  /**
   * The limiter for a reloaded config: a workspace whose limit did not change keeps its bucket as it is, so a reload
   * never hands a workspace over its limit a fresh burst.
   */
  public RateLimiter reloaded(List<WorkspaceConfig> workspaces) {
    return new RateLimiter(workspaces, nanoClock, buckets);
  }

  /**
   * Takes one token. Returns 0 when the request may go on, otherwise the whole seconds (at least 1) until a token
   * is free, for Retry-After.
   */
  public long tryAcquire(UUID workspaceId) {
    TokenBucket bucket = buckets.get(workspaceId);
    return bucket == null ? 0 : bucket.take(nanoClock.getAsLong());
  }
}
