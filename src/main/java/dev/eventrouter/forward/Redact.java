package dev.eventrouter.forward;

import dev.eventrouter.config.IntegrationConfig;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Keeps credentials out of what is stored, logged or answered: a timeout message, for one, quotes the request URL,
 * and a receiver may echo a request's headers back.
 */
final class Redact {

  private Redact() {}

  /** A word of a header value this long may be a credential on its own ("Bearer <token>"). */
  static final int MIN_SECRET_WORD = 8;

  /**
   * Without the integration's access token (a webhook's secret, Google's refresh token), Google's developer token
   * and client secret, and its webhook's header values, whole and each word of them long enough to be a credential.
   */
  static String secrets(String text, IntegrationConfig integration) {
    String redacted = token(text, integration.accessToken());
    if (integration.google() != null) {
      for (String secret : integration.google().secrets()) {
        redacted = token(redacted, secret);
      }
    }
    if (integration.webhook() != null) {
      for (String value : integration.webhook().headers().values()) {
        redacted = token(redacted, value);
        for (String word : value.split("[\\s,;]+")) {
          redacted = word.length() >= MIN_SECRET_WORD ? token(redacted, word) : redacted;
        }
      }
    }
    return redacted;
  }

  static String token(String text, String token) {
    if (text == null || token == null || token.isEmpty()) {
      return text;
    }
    return text.replace(token, "***").replace(URLEncoder.encode(token, StandardCharsets.UTF_8), "***");
  }
}
