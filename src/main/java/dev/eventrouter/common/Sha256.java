package dev.eventrouter.common;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** SHA-256 over UTF-8, the one digest the service uses: API keys, idempotency content, ad-network hashing. */
public final class Sha256 {

  private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]{64}");

  private Sha256() {}

  public static byte[] bytes(String value) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /** Lowercase hex, as both ad networks want it. */
  public static String hex(String value) {
    return HexFormat.of().formatHex(bytes(value));
  }

  /** A value that already is a SHA-256 in hex: sent as is, never hashed twice. */
  public static boolean isHex(String value) {
    return HEX.matcher(value).matches();
  }
}
