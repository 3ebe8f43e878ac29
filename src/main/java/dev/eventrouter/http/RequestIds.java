package dev.eventrouter.http;

import io.vertx.ext.web.RoutingContext;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The request id: the client's own X-Request-Id when it is sane, so a client can follow its request through our
 * logs, else a new one. Echoed on every answer, errors included, and written in the log lines of the request.
 */
public final class RequestIds {

  public static final String HEADER = "X-Request-Id";
  public static final int MAX_LENGTH = 128;
  private static final String KEY = "request_id";

  private RequestIds() {}

  public static void assign(RoutingContext rc) {
    String given = rc.request().getHeader(HEADER);
    String id = isSane(given) ? given : next();
    rc.put(KEY, id);
    rc.response().putHeader(HEADER, id);
    rc.next();
  }

  /**
   * Visible ASCII only (no spaces, no control characters), 1 to {@value #MAX_LENGTH} characters: nothing that could
   * forge or split a log line, or grow one without bound.
   */
  public static boolean isSane(String id) {
    return id != null && !id.isEmpty() && id.length() <= MAX_LENGTH && id.chars().allMatch(c -> c > 0x20 && c < 0x7f);
  }

  static String next() {
    return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
  }

  static String of(RoutingContext rc) {
    String id = rc.get(KEY);
    return id == null ? "-" : id;
  }
}
