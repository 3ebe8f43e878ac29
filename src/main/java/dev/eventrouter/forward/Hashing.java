package dev.eventrouter.forward;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** SHA-256 as both networks want it: over the UTF-8 bytes, lowercase hex. */
final class Hashing {

  private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-fA-F]{64}");

  private Hashing() {}

  static String sha256(String value) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /** A value the client already hashed is sent as is, never hashed twice. */
  static boolean isSha256(String value) {
    return SHA256_HEX.matcher(value).matches();
  }
}
