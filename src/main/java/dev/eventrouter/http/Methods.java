package dev.eventrouter.http;

import io.vertx.core.http.HttpMethod;

import java.util.Set;

/**
 * The methods served: RFC 9110's and PATCH (https://www.rfc-editor.org/rfc/rfc9110#section-9). The HTTP codec takes
 * any token as a method, and the server's metrics label requests by it; anything else is answered 405
 * method_not_allowed (a client's mistake, in the error body, as every refusal) and its connection closed, and
 * {@link MetricLabels} files it under one label.
 */
public final class Methods {

  public static final Set<String> SERVED = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE",
      "PATCH");

  private Methods() {}

  public static boolean served(HttpMethod method) {
    return SERVED.contains(method.name());
  }
}
