package dev.eventrouter.config;

import dev.eventrouter.common.RandomToken;
import dev.eventrouter.common.Sha256;

import java.util.HexFormat;

/** API keys are kept only as SHA-256 digests, written in the config as {@code sha256:<64 lowercase hex>}. */
public final class ApiKeys {

  public static final String PREFIX = "sha256:";
  /**
   * The shortest key {@code hash-key} accepts. A key's digest is compared with no salt and no stretching, so the key
   * itself must be too long to guess: 24 random characters of any usual alphabet (hex, base64) are 96 bits or more.
   */
  public static final int MIN_LENGTH = 24;
  /** What {@code generate-key} draws: 256 bits, 43 base64url characters. */
  private static final int GENERATED_BYTES = 32;

  private ApiKeys() {}

  public static byte[] digest(String key) {
    return Sha256.bytes(key);
  }

  /** The config value for a key, as printed by {@code hash-key}. */
  public static String configValue(String key) {
    return PREFIX + HexFormat.of().formatHex(digest(key));
  }

  /** Whether {@code hash-key} takes the key: long enough not to be guessed (it cannot tell random from chosen). */
  public static boolean longEnough(String key) {
    return key.length() >= MIN_LENGTH;
  }

  /** A new random key, as {@code generate-key} prints it. */
  public static String generate() {
    return RandomToken.of(GENERATED_BYTES);
  }
}
