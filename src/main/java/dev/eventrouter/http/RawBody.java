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
 * postback must be read leniently (by its own route). Past the limit: 413, the rest read and dropped,
 * as the BodyHandler does.
 */
public final class RawBody {

  private static final String KEY = "raw_body";

  private RawBody() {}

  public static Handler<RoutingContext> within(int limit) {
    return rc -> {
      HttpServerRequest request = rc.request();
      Buffer body = Buffer.buffer();
      if (request.isEnded()) {
        rc.put(KEY, body).next(); // no body, or one already read past
        return;
      }
      long declared = ServerBudget.declaredLength(request.getHeader(HttpHeaders.CONTENT_LENGTH));
      if (declared > limit && declared != Long.MAX_VALUE) {
        rc.fail(413); // refused from its head, before a byte of it is read
        return;
      }
      // Only a client that waits for it is told to go on (https://www.rfc-editor.org/rfc/rfc9110#name-expect); never
      // an HTTP/1.0 one, which does not know the status.
      if ("100-continue".equalsIgnoreCase(request.getHeader(HttpHeaders.EXPECT))
          && request.version() != HttpVersion.HTTP_1_0) {
        request.response().writeContinue();
      }
      request.handler(chunk -> {
        if (body.length() + chunk.length() <= limit) {
          body.appendBuffer(chunk);
          return;
        }
        request.handler(dropped -> { }).endHandler(null); // the rest is read and dropped, as BodyHandler does
        rc.fail(413);
      });
      request.exceptionHandler(rc::fail);
      request.endHandler(end -> rc.put(KEY, body).next());
      request.resume();
    };
  }

  /** The body read, empty when there was none. */
  public static Buffer of(RoutingContext rc) {
    return rc.get(KEY);
  }
}
