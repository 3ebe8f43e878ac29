package dev.eventrouter.http;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;

/**
 * A route's body as its bytes, within the route's limit, for a route that decodes a form itself: vertx-web's
 * BodyHandler hands a form to Vert.x's own decoder, which refuses a value over 8 KiB, more than 256 fields, or a
 * {@code %} not followed by two hex digits with a bare 400 before the route sees the request, where a partner's
 * postback must be read leniently ({@link PostbackParams#decode}). Past the limit: 413, the rest read and dropped,
 * as the BodyHandler does.
 */
final class RawBody {

  private static final String KEY = "raw_body";

  private RawBody() {}

  static Handler<RoutingContext> within(int limit) {
    return rc -> {
      HttpServerRequest request = rc.request();
      long declared = ServerBudget.declaredLength(request.getHeader(HttpHeaders.CONTENT_LENGTH));
      boolean chunked = request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
      if (request.isEnded() || declared == 0 || declared == Long.MAX_VALUE && !chunked) {
        rc.put(KEY, Buffer.buffer()).next(); // no body
        return;
      }
      if (declared != Long.MAX_VALUE && declared > limit) {
        rc.fail(413);
        return;
      }
      if ("100-continue".equalsIgnoreCase(request.getHeader(HttpHeaders.EXPECT))
          && request.version() != HttpVersion.HTTP_1_0) {
        request.response().writeContinue();
      }
      Buffer body = Buffer.buffer();
      boolean[] over = {false};
      request.handler(chunk -> {
        if (!over[0] && body.length() + chunk.length() > limit) {
          over[0] = true;
          rc.fail(413);
        } else if (!over[0]) {
          body.appendBuffer(chunk);
        }
      });
      request.exceptionHandler(rc::fail);
      request.endHandler(end -> {
        if (!over[0]) {
          rc.put(KEY, body).next();
        }
      });
      request.resume();
    };
  }

  /** The body read, empty when there was none. */
  static Buffer of(RoutingContext rc) {
    Buffer body = rc.get(KEY);
    return body == null ? Buffer.buffer() : body;
  }
}
