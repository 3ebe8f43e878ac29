package dev.eventrouter.config;

import java.util.List;

/**
 * @param instances           HttpVerticle instances (one event loop each)
 * @param requestTimeoutMs    how long a request may wait for the store before it is answered 503
 * @param trustedProxies      the proxies whose X-Forwarded-For is believed: IP addresses or CIDR blocks
 * @param publishableRateLimit the limit per client IP on requests with a publishable key (a page in the open can be
 *                            called by anyone, so its key gets a limit per caller besides its workspace's)
 */
public record HttpConfig(String host, int port, int maxBodyBytes, int instances, long requestTimeoutMs,
                         List<String> trustedProxies, RateLimitConfig publishableRateLimit) {

  /** A landing page makes one session per visit: 20 at once, then one every 2 seconds, per IP. */
  public static final RateLimitConfig DEFAULT_PUBLISHABLE_RATE_LIMIT = new RateLimitConfig(0.5, 20);

  /** Defaults for what a test or tool does not set. */
  public HttpConfig(String host, int port, int maxBodyBytes, int instances, long requestTimeoutMs) {
    this(host, port, maxBodyBytes, instances, requestTimeoutMs, List.of(), DEFAULT_PUBLISHABLE_RATE_LIMIT);
  }
}
