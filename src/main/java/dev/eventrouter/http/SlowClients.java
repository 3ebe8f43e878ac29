package dev.eventrouter.http;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The connections of one HttpVerticle instance (confined to its event loop), against the node's connection cap and
 * its read deadline: a request's head and body must arrive within {@code http.read_timeout_ms} of the connection's
 * start, or of the previous request on it. The server's idle timeout alone cannot stop a client that sends a byte
 * every few seconds and never finishes a request (slowloris, https://en.wikipedia.org/wiki/Slowloris_(cyber_attack)).
 */
public final class SlowClients {

  /** What a connection is waiting for: a request head (request null), or the rest of that request's body. */
  private static final class Waiting {
    long sinceNanos;
    HttpServerRequest request;

    Waiting(long sinceNanos) {
      this.sinceNanos = sinceNanos;
    }
  }

  private final ServerBudget budget;
  private final long readTimeoutNanos;
  private final LongSupplier nanoClock;
  private final Map<HttpConnection, Waiting> open = new HashMap<>();

  public SlowClients(ServerBudget budget, LongSupplier nanoClock) {
    this.budget = budget;
    this.readTimeoutNanos = budget.limits().readTimeoutMs() * 1_000_000;
    this.nanoClock = nanoClock;
  }

  /** How often the deadlines are checked: a quarter of the deadline, between 50 ms and 1 s. */
  public long scanIntervalMs() {
    return Math.max(50, Math.min(1000, budget.limits().readTimeoutMs() / 4));
  }

  /** A timer of the verticle's: Vert.x cancels it when the verticle is undeployed. */
  public void start(Vertx vertx) {
    vertx.setPeriodic(scanIntervalMs(), id -> scan());
  }

  public void connected(HttpConnection connection) {
    if (!budget.open()) {
      connection.close();
      return;
    }
    open.put(connection, new Waiting(nanoClock.getAsLong()));
    connection.closeHandler(v -> {
      open.remove(connection);
      budget.closed();
    });
  }

  /** A request's head arrived; a later request on the same connection starts its own deadline. */
  public void requested(HttpServerRequest request) {
    Waiting waiting = open.get(request.connection());
    if (waiting == null) {
      return;
    }
    if (waiting.request != null) {
      waiting.sinceNanos = nanoClock.getAsLong();
    }
    waiting.request = request;
  }

  /** Closes what waited too long: no head yet, or a body still coming (answered 408 when nothing was answered). */
  void scan() {
    long now = nanoClock.getAsLong();
    List<HttpConnection> late = new ArrayList<>();
    List<HttpServerRequest> unread = new ArrayList<>();
    open.forEach((connection, waiting) -> {
      HttpServerRequest request = waiting.request;
      if (request != null && request.isEnded()) {
        if (request.response().ended()) {
          // Answered: the connection now waits for its next request.
          waiting.request = null;
          waiting.sinceNanos = now;
        }
      } else if (now - waiting.sinceNanos > readTimeoutNanos) {
        if (request == null || request.response().headWritten()) {
          late.add(connection);
        } else {
          unread.add(request);
        }
      }
    });
    late.forEach(HttpConnection::close);
    unread.forEach(request -> ErrorResponder.answerAndClose(request, ErrorCode.REQUEST_TIMEOUT));
  }

}
