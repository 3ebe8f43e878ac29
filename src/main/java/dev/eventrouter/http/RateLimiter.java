package dev.eventrouter.http;

import dev.eventrouter.config.RateLimitConfig;
import dev.eventrouter.config.WorkspaceConfig;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.LongSupplier;

/**
 * Two token buckets per workspace, shared by all HttpVerticle instances of this process (so the limit is per node:
 * N nodes admit up to N times the rate): one for its API keys at the workspace's rate limit, and one for its
 * publishable keys at a share of it, so anonymous captures from pages can never take what the bot's server-side
 * events need.
 */
public final class RateLimiter {

  private final Map<UUID, TokenBucket> buckets = new HashMap<>();
  private final Map<UUID, TokenBucket> publishable = new HashMap<>();
  private final double share;
  private final LongSupplier nanoClock;

  public RateLimiter(List<WorkspaceConfig> workspaces, double share, LongSupplier nanoClock) {
    this(workspaces, share, nanoClock, Map.of(), Map.of());
  }

  private RateLimiter(List<WorkspaceConfig> workspaces, double share, LongSupplier nanoClock,
                      Map<UUID, TokenBucket> before, Map<UUID, TokenBucket> publishableBefore) {
    this.share = share;
    this.nanoClock = nanoClock;
    long now = nanoClock.getAsLong();
    for (WorkspaceConfig w : workspaces) {
      buckets.put(w.id(), kept(before.get(w.id()), w.rateLimit(), now));
      publishable.put(w.id(), kept(publishableBefore.get(w.id()), shareOf(w.rateLimit(), share), now));
    }
  }

  private static TokenBucket kept(TokenBucket before, RateLimitConfig limit, long now) {
    return before != null && before.config().equals(limit) ? before : new TokenBucket(limit, now);
  }

  /** The publishable keys' limit: the share of the rate and of the burst, a burst of at least one. */
  static RateLimitConfig shareOf(RateLimitConfig limit, double share) {
    return new RateLimitConfig(limit.perSecond() * share, Math.max(1, limit.burst() * share));
  }

  /**
   * The limiter for a reloaded config: a workspace whose limit did not change keeps its buckets as they are, so a
   * reload never hands a workspace over its limit a fresh burst.
   */
  public RateLimiter reloaded(List<WorkspaceConfig> workspaces) {
    return new RateLimiter(workspaces, share, nanoClock, buckets, publishable);
  }

  /**
   * Takes one token from the workspace's bucket for its API keys, or for its publishable keys. Returns 0 when the
   * request may go on, otherwise the whole seconds (at least 1) until a token is free, for Retry-After.
   */
  public long tryAcquire(UUID workspaceId, boolean publishableKey) {
    TokenBucket bucket = (publishableKey ? publishable : buckets).get(workspaceId);
    return bucket == null ? 0 : bucket.take(nanoClock.getAsLong());
  }
}
