package dev.eventrouter.config;

import dev.eventrouter.common.Sha256;

import java.util.HexFormat;

/** API keys are kept only as SHA-256 digests, written in the config as {@code sha256:<64 lowercase hex>}. */
public final class ApiKeys {

  public static final String PREFIX = "sha256:";

  private ApiKeys() {}

  public static byte[] digest(String key) {
    return Sha256.bytes(key);
  }

  /** The config value for a key, as printed by {@code hash-key}. */
  public static String configValue(String key) {
    return PREFIX + HexFormat.of().formatHex(digest(key));
  }
}
