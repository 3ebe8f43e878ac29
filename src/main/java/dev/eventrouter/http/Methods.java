package dev.eventrouter.http;

import io.vertx.core.http.HttpMethod;

import java.util.Set;

/**
 * The methods served: RFC 9110's and PATCH (https://www.rfc-editor.org/rfc/rfc9110#section-9). The HTTP codec takes
 * any token as a method, and the server's metrics label requests by it; anything else is answered 501 and its
 * connection closed (https://www.rfc-editor.org/rfc/rfc9110#section-15.6.2), and {@link MetricLabels} files it under
 * one label.
 */
final class Methods {

  static final Set<String> SERVED = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE",
      "PATCH");

  private Methods() {}

  static boolean served(HttpMethod method) {
    return SERVED.contains(method.name());
  }
}
