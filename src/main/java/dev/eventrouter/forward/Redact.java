package dev.eventrouter.forward;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Keeps an access token out of what is stored or logged: a timeout message, for one, quotes the request URL. */
final class Redact {

  private Redact() {}

  static String token(String text, String token) {
    if (text == null || token == null || token.isEmpty()) {
      return text;
    }
    return text.replace(token, "***").replace(URLEncoder.encode(token, StandardCharsets.UTF_8), "***");
  }
}
