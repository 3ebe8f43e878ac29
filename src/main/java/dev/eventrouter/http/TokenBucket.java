package dev.eventrouter.http;

import dev.eventrouter.config.RateLimitConfig;

/** One token bucket: {@code burst} tokens, refilled at {@code per_second}; safe to share between event loops. */
final class TokenBucket {

  private final RateLimitConfig config;
  private final double perNano;
  private double tokens;
  private long updatedAt;

  TokenBucket(RateLimitConfig config, long now) {
    this.config = config;
    this.perNano = config.perSecond() / 1e9;
    this.tokens = config.burst();
    this.updatedAt = now;
  }

  RateLimitConfig config() {
    return config;
  }

  /**
   * Takes one token. Returns 0 when the request may go on, otherwise the whole seconds (at least 1) until a token
   * is free, for Retry-After.
   */
  synchronized long take(long now) {
    tokens = Math.min(config.burst(), tokens + (now - updatedAt) * perNano);
    updatedAt = now;
    if (tokens >= 1) {
      tokens -= 1;
      return 0;
    }
    double waitNanos = (1 - tokens) / perNano;
    return Math.max(1, (long) Math.ceil(waitNanos / 1e9));
  }

  /** Whether it is full again at {@code now}: a caller who went quiet, whose bucket can be forgotten. */
  synchronized boolean fullAt(long now) {
    return tokens + (now - updatedAt) * perNano >= config.burst();
  }
}
