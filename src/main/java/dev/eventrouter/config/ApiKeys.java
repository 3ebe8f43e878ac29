package dev.eventrouter.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** API keys are kept only as SHA-256 digests, written in the config as {@code sha256:<64 lowercase hex>}. */
public final class ApiKeys {

  public static final String PREFIX = "sha256:";

  private ApiKeys() {}

  public static byte[] digest(String key) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /** The config value for a key, as printed by {@code hash-key}. */
  public static String configValue(String key) {
    return PREFIX + HexFormat.of().formatHex(digest(key));
  }
}
