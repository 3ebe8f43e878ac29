package dev.eventrouter.http;

import dev.eventrouter.config.HttpConfig.ServerLimits;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.PlatformHandler;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What all callers together may make one node hold, shared by its HttpVerticle instances: open connections, and the
 * bytes of request bodies being read. Past either bound a caller is turned away at once, so a flood costs it a
 * refusal, never the node its memory.
 */
public final class ServerBudget {

  /** Seconds a caller refused for the body budget is asked to wait: bodies in flight are read within seconds. */
  public static final long RETRY_AFTER_S = 1;

  private final ServerLimits limits;
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicLong buffered = new AtomicLong();

  public ServerBudget(ServerLimits limits) {
    this.limits = limits;
  }

  /** Gauges of what is held now, beside the bounds in the config. */
  public ServerBudget bindTo(MeterRegistry metrics) {
    Gauge.builder("event_router.http.connections", connections, AtomicInteger::get)
        .description("open connections of the public listener (bound: http.max_connections)").register(metrics);
    Gauge.builder("event_router.http.buffered_bytes", buffered, AtomicLong::get)
        .description("bytes reserved for request bodies being read (bound: http.max_buffered_bytes)")
        .baseUnit("bytes").register(metrics);
    return this;
  }

  ServerLimits limits() {
    return limits;
  }

  /** Counts a new connection; false (and not counted) when the node holds its maximum already. */
  public boolean open() {
    if (connections.incrementAndGet() > limits.maxConnections()) {
      connections.decrementAndGet();
      return false;
    }
    return true;
  }

  void closed() {
    connections.decrementAndGet();
  }

  public int connections() {
    return connections.get();
  }

  public long buffered() {
    return buffered.get();
  }

  /**
   * Before a route's body handler: reserves what the body may take (its Content-Length, or the route's limit when
   * it does not say) until the answer is sent or the connection closes; beyond the node's bound, 503 before any byte
   * of the body is read. The body handler still enforces the route's limit itself.
   */
  public Handler<RoutingContext> reserve(int bodyLimit) {
    return (PlatformHandler) rc -> {
      long bytes = Math.min(declaredLength(rc.request().getHeader(HttpHeaders.CONTENT_LENGTH)), bodyLimit);
      if (buffered.addAndGet(bytes) > limits.maxBufferedBytes()) {
        buffered.addAndGet(-bytes);
        rc.fail(ApiException.retryLater(ErrorCode.UNAVAILABLE, RETRY_AFTER_S));
        return;
      }
      rc.addEndHandler(done -> buffered.addAndGet(-bytes));
      rc.next();
    };
  }

  /** The Content-Length, or the most a body can be when it is absent or unreadable (chunked). */
  public static long declaredLength(String header) {
    if (header != null) {
      try {
        long length = Long.parseLong(header.trim());
        if (length >= 0) {
          return length;
        }
      } catch (NumberFormatException unreadable) {
        // the codec refuses such a request; reserve the most
      }
    }
    return Long.MAX_VALUE;
  }
}
