package dev.eventrouter.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/** The success envelope {@code {"ok": true, "data": ...}}. */
public final class Responses {

  static final String JSON = "application/json; charset=utf-8";

  private Responses() {}

  public static void ok(RoutingContext rc, JsonObject data) {
    ok(rc, new JsonObject().put("ok", true).put("data", data).toBuffer());
  }

  /** An envelope already written out. */
  public static void ok(RoutingContext rc, Buffer envelope) {
    rc.response()
        .setStatusCode(200)
        .putHeader(HttpHeaders.CONTENT_TYPE, JSON)
        .end(envelope);
  }
}
