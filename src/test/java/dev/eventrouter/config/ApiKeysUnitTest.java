package dev.eventrouter.config;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ApiKeysUnitTest {

  @Test
  @DisplayName("the config value is sha256: and the lowercase hex digest of the key's UTF-8")
  void configValue() {
    assertThat(ApiKeys.configValue("abc"))
        .isEqualTo("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }

  @Test
  @DisplayName("a key is long enough from 24 characters on")
  void longEnough() {
    assertThat(ApiKeys.MIN_LENGTH).isEqualTo(24);
    assertThat(ApiKeys.longEnough("a")).isFalse();
    assertThat(ApiKeys.longEnough("x".repeat(23))).isFalse();
    assertThat(ApiKeys.longEnough("x".repeat(24))).isTrue();
    assertThat(ApiKeys.longEnough("x".repeat(64))).isTrue();
  }

  @Test
  @DisplayName("a generated key is 32 random bytes in base64url (43 characters), long enough, new each time")
  void generate() {
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      String key = ApiKeys.generate();
      assertThat(key).hasSize(43).matches("[A-Za-z0-9_-]+");
      assertThat(ApiKeys.longEnough(key)).isTrue();
      keys.add(key);
    }
    assertThat(keys).hasSize(100);
  }
}
