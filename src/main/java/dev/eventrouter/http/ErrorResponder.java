package dev.eventrouter.http;

import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that turns any failure (a handler's {@link ApiException}, a router 404/405, a body-handler 413, an
 * unexpected exception) into the documented error body. Never a stack trace to the client; an unexpected failure is
 * logged with the request id only, never with the request body.
 */
public final class ErrorResponder implements Handler<RoutingContext> {

  private static final Logger LOG = LoggerFactory.getLogger(ErrorResponder.class);

  @Override
  public void handle(RoutingContext rc) {
    if (rc.response().ended() || rc.response().closed()) {
      return;
    }
    ApiException error = toApiError(rc);
    if (error.code() == ErrorCode.INTERNAL_ERROR) {
      LOG.error("request {} {} {} failed", RequestIds.of(rc), rc.request().method(), rc.request().path(), rc.failure());
    }
    if (error.retryAfterSeconds() != null) {
      rc.response().putHeader(HttpHeaders.RETRY_AFTER, String.valueOf(error.retryAfterSeconds()));
    }
    rc.response()
        .setStatusCode(error.code().status)
        .putHeader(HttpHeaders.CONTENT_TYPE, Responses.JSON)
        .end(error.toJson().toBuffer());
  }

  private static ApiException toApiError(RoutingContext rc) {
    if (rc.failure() instanceof ApiException api) {
      return api;
    }
    int status = rc.statusCode();
    if (rc.failure() != null && status < 400) {
      return new ApiException(ErrorCode.INTERNAL_ERROR);
    }
    return new ApiException(ErrorCode.forStatus(status < 400 ? 500 : status));
  }
}
