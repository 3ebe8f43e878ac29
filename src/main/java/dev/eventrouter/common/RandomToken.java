package dev.eventrouter.common;

import java.security.SecureRandom;
import java.util.Base64;

/** Random secrets (API keys, the embedded PostgreSQL's password) as base64url text: safe in URLs, headers and SQL. */
public final class RandomToken {

  private static final SecureRandom RANDOM = new SecureRandom();

  private RandomToken() {}

  /** {@code bytes} random bytes, base64url without padding. */
  public static String of(int bytes) {
    byte[] value = new byte[bytes];
    RANDOM.nextBytes(value);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
  }
}
