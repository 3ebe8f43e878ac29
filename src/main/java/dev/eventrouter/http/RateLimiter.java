package dev.eventrouter.http;

import dev.eventrouter.config.RateLimitConfig;
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

  private static final class Bucket {
    final RateLimitConfig config;
    final double perNano;
    final double capacity;
    double tokens;
    long updatedAt;

    Bucket(RateLimitConfig config, long now) {
      this.config = config;
      this.perNano = config.perSecond() / 1e9;
      this.capacity = config.burst();
      this.tokens = capacity;
      this.updatedAt = now;
    }
  }

  private final Map<UUID, Bucket> buckets = new HashMap<>();
  private final LongSupplier nanoClock;

  public RateLimiter(List<WorkspaceConfig> workspaces, LongSupplier nanoClock) {
    this(workspaces, nanoClock, Map.of());
  }

  private RateLimiter(List<WorkspaceConfig> workspaces, LongSupplier nanoClock, Map<UUID, Bucket> before) {
    this.nanoClock = nanoClock;
    long now = nanoClock.getAsLong();
    for (WorkspaceConfig w : workspaces) {
      Bucket kept = before.get(w.id());
      buckets.put(w.id(), kept != null && kept.config.equals(w.rateLimit()) ? kept : new Bucket(w.rateLimit(), now));
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
    Bucket bucket = buckets.get(workspaceId);
    if (bucket == null) {
      return 0;
    }
    synchronized (bucket) {
      long now = nanoClock.getAsLong();
      bucket.tokens = Math.min(bucket.capacity, bucket.tokens + (now - bucket.updatedAt) * bucket.perNano);
      bucket.updatedAt = now;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      double waitNanos = (1 - bucket.tokens) / bucket.perNano;
      return Math.max(1, (long) Math.ceil(waitNanos / 1e9));
    }
  }
}
