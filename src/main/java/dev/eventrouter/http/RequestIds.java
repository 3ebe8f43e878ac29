package dev.eventrouter.http;

import io.vertx.ext.web.RoutingContext;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/** A short id per request, sent back as X-Request-Id and used in logs instead of anything the client sent. */
final class RequestIds {

  static final String HEADER = "X-Request-Id";
  private static final String KEY = "request_id";

  private RequestIds() {}

  static void assign(RoutingContext rc) {
    String id = next();
    rc.put(KEY, id);
    rc.response().putHeader(HEADER, id);
    rc.next();
  }

  static String next() {
    return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
  }

  static String of(RoutingContext rc) {
    String id = rc.get(KEY);
    return id == null ? "-" : id;
  }
}
