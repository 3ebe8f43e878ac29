package dev.eventrouter.http;

import dev.eventrouter.bus.BusHeaders;
import dev.eventrouter.common.LogSafe;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The one place that turns any failure (a handler's {@link ApiException}, a router 404/405, a body-handler 413, an
 * unexpected exception) into the documented error body. Never a stack trace to the client; an unexpected failure is
 * logged with the request id only, never with the request body.
 */
public final class ErrorResponder implements Handler<RoutingContext> {

  private static final Logger LOG = LoggerFactory.getLogger(ErrorResponder.class);
  /** The largest body of a refused request that is read past (and dropped) to keep its connection. */
  public static final long SKIPPED_BODY_BYTES = 64 * 1024;

  /**
   * For requests the HTTP codec could not read (a request line over 4 KB, headers over 8 KB, broken syntax): they
   * never reach the router, and Vert.x's own answer has an empty body. The connection is closed after the answer, as
   * the codec's state cannot be trusted.
   */
  public static void invalidRequest(HttpServerRequest request) {
    Throwable cause = request.decoderResult().cause();
    answerAndClose(request, cause instanceof TooLongHttpLineException ? ErrorCode.URI_TOO_LONG
        : cause instanceof TooLongHttpHeaderException ? ErrorCode.HEADERS_TOO_LARGE
        : ErrorCode.BAD_REQUEST);
  }

  /** Answers in the error body outside the router, then closes the connection. */
  public static void answerAndClose(HttpServerRequest request, ErrorCode code) {
    request.response()
        .setStatusCode(code.status)
        .putHeader(HttpHeaders.CONTENT_TYPE, Responses.JSON)
        .putHeader(HttpHeaders.CONNECTION, "close")
        .putHeader(RequestIds.HEADER, RequestIds.next())
        .end(new ApiException(code).toJson().toBuffer())
        .onComplete(done -> request.connection().close());
  }

  @Override
  public void handle(RoutingContext rc) {
    respond(rc, rc.statusCode());
  }

  /**
   * For the router's own error handler of one status: the context it passes may carry no status (an unreadable path
   * fails before routing), so the registered status is the one answered.
   */
  public Handler<RoutingContext> forStatus(int status) {
    return rc -> respond(rc, status);
  }

  private void respond(RoutingContext rc, int status) {
    if (rc.response().ended() || rc.response().closed()) {
      return;
    }
    ApiException error = toApiError(rc, status);
    if (error.code() == ErrorCode.INTERNAL_ERROR) {
      // In the message for a text log, and as its own field (MDC) for a JSON one.
      try (MDC.MDCCloseable ignored = MDC.putCloseable(BusHeaders.REQUEST_ID, RequestIds.of(rc))) {
        LOG.error("request {} {} {} failed", RequestIds.of(rc), rc.request().method(), LogSafe.path(rc.request().path()),
            rc.failure());
      }
    }
    // Refused before its body was read (key, rate limit, body budget; the body handler's own 413 is left as it is):
    // a small body is read past and dropped, never kept, so the connection serves the next request; a larger or
    // chunked one is not read at all, and the connection is closed once the answer is out.
    boolean unread = bodyUnread(rc.request()) && error.code() != ErrorCode.PAYLOAD_TOO_LARGE;
    boolean skipped = unread && skippable(rc.request());
    if (skipped) {
      rc.request().handler(dropped -> { }).resume();
    } else if (unread) {
      rc.response().putHeader(HttpHeaders.CONNECTION, "close");
    }
    if (error.retryAfterSeconds() != null) {
      rc.response().putHeader(HttpHeaders.RETRY_AFTER, String.valueOf(error.retryAfterSeconds()));
    }
    rc.response()
        .setStatusCode(error.code().status)
        .putHeader(HttpHeaders.CONTENT_TYPE, Responses.JSON)
        .end(error.toJson().toBuffer())
        .onComplete(sent -> {
          if (unread && !skipped) {
            rc.request().connection().close();
          }
        });
  }

  /** A body of known, small length: cheaper to read past than a new connection (a bot with a wrong key retrying). */
  static boolean skippable(HttpServerRequest request) {
    return request.getHeader(HttpHeaders.TRANSFER_ENCODING) == null
        && ServerBudget.declaredLength(request.getHeader(HttpHeaders.CONTENT_LENGTH)) <= SKIPPED_BODY_BYTES;
  }

  static boolean bodyUnread(HttpServerRequest request) {
    // Only a request that declares a body: one without may not have been marked ended yet when handlers run.
    String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    return !request.isEnded() && (request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null
        || length != null && ServerBudget.declaredLength(length) > 0);
  }

  /** A thrown exception leaves no status (-1): {@link ErrorCode#forStatus} makes it, like any non-4xx, a 500. */
  private static ApiException toApiError(RoutingContext rc, int status) {
    if (rc.failure() instanceof ApiException api) {
      return api;
    }
    return new ApiException(fromCodec(rc.failure()) ? ErrorCode.BAD_REQUEST : ErrorCode.forStatus(status));
  }

  /**
   * Raised by Netty's HTTP codec on bytes of the body it cannot read (a chunk size past any number): the client's
   * fault, not ours, and not worth an error line with a stack trace.
   */
  public static boolean fromCodec(Throwable failure) {
    StackTraceElement[] trace = failure == null ? new StackTraceElement[0] : failure.getStackTrace();
    return trace.length > 0 && trace[0].getClassName().startsWith("io.netty.handler.codec.");
  }
}
