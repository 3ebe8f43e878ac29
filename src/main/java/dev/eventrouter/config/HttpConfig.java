package dev.eventrouter.config;

import java.util.List;

/**
 * @param instances           HttpVerticle instances (one event loop each)
 * @param requestTimeoutMs    how long a request may wait for the store before it is answered 503
 * @param trustedProxies      the proxies whose X-Forwarded-For is believed: IP addresses or CIDR blocks
 * @param publishableRateLimit the limit per client IP on requests with a publishable key (a page in the open can be
 *                            called by anyone, so its key gets a limit per caller besides its workspace's)
 * @param publishableShare    the share of a workspace's rate limit that its publishable keys draw from, a bucket of
 *                            their own, so visitors' captures never take what the bot's server-side events need
 * @param limits              what one caller can make the server hold: connections, time, buffered bytes
 */
public record HttpConfig(String host, int port, int maxBodyBytes, int instances, long requestTimeoutMs,
                         List<String> trustedProxies, RateLimitConfig publishableRateLimit, double publishableShare,
                         ServerLimits limits) {

  /** A landing page makes one session per visit: 20 at once, then one every 2 seconds, per IP. */
  public static final RateLimitConfig DEFAULT_PUBLISHABLE_RATE_LIMIT = new RateLimitConfig(0.5, 20);
  public static final double DEFAULT_PUBLISHABLE_SHARE = 0.5;

  /**
   * @param idleTimeoutS     a connection with nothing to read or write for this long is closed (keep-alive included)
   * @param readTimeoutMs    a request's head and body must have arrived within this long of the connection's start,
   *                         or of the end of its previous answer: a client that sends a byte now and then (slowloris)
   *                         is cut off
   * @param maxConnections   open connections of this node; one more is closed at once
   * @param maxBufferedBytes request bodies of this node being read at once, in bytes; a request beyond is answered
   *                         503 with Retry-After before its body is read
   */
  public record ServerLimits(int idleTimeoutS, long readTimeoutMs, int maxConnections, long maxBufferedBytes) {
    public static final ServerLimits DEFAULT = new ServerLimits(60, 10_000, 4096, 64L * 1024 * 1024);
  }

  /** Defaults for what a test or tool does not set. */
  public HttpConfig(String host, int port, int maxBodyBytes, int instances, long requestTimeoutMs) {
    this(host, port, maxBodyBytes, instances, requestTimeoutMs, List.of(), DEFAULT_PUBLISHABLE_RATE_LIMIT,
        DEFAULT_PUBLISHABLE_SHARE, ServerLimits.DEFAULT);
  }

  public HttpConfig withLimits(ServerLimits other) {
    return new HttpConfig(host, port, maxBodyBytes, instances, requestTimeoutMs, trustedProxies, publishableRateLimit,
        publishableShare, other);
  }
}
