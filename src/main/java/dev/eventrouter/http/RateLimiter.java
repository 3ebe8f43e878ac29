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
    final double perNano;
    final double capacity;
    double tokens;
    long updatedAt;

    Bucket(RateLimitConfig config, long now) {
      this.perNano = config.perSecond() / 1e9;
      this.capacity = config.burst();
      this.tokens = capacity;
      this.updatedAt = now;
    }
  }

  private final Map<UUID, Bucket> buckets = new HashMap<>();
  private final LongSupplier nanoClock;

  public RateLimiter(List<WorkspaceConfig> workspaces, LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    long now = nanoClock.getAsLong();
    workspaces.forEach(w -> buckets.put(w.id(), new Bucket(w.rateLimit(), now)));
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
