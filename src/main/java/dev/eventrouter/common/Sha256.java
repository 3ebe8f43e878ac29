package dev.eventrouter.common;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * SHA-256 over UTF-8, the one digest the service uses: API keys, idempotency content, ad-network hashing, and the
 * HMAC that signs webhook requests.
 */
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

  /** HMAC-SHA256 (RFC 2104) of {@code content} with a UTF-8 key, in lowercase hex. */
  public static String hmacHex(String key, byte[] content) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(content));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every JVM has HmacSHA256", e);
    }
  }

  /**
   * Whether a presented secret (a webhook secret, a bearer token) is the expected one, compared as digests in constant
   * time: neither a prefix nor the secret's length shows in the timing. False when none was presented.
   */
  public static boolean sameSecret(String expected, String given) {
    return given != null && MessageDigest.isEqual(bytes(expected), bytes(given));
  }

  /** A value that already is a SHA-256 in hex: sent as is, never hashed twice. */
  public static boolean isHex(String value) {
    return HEX.matcher(value).matches();
  }
}
