package dev.eventrouter.forward;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The e-mail rule's bounds, exactly at their limits (the table of ordinary cases is NormalizationTableTest's). */
class NormalizeUnitTest {

  private static String address(int length) {
    String domain = "@example.com";
    return "a".repeat(length - domain.length()) + domain;
  }

  @Test
  @DisplayName("an e-mail address of 254 characters is one; of 255 it is none")
  void emailLength() {
    assertThat(Normalize.MAX_EMAIL_CHARS).isEqualTo(254);
    assertThat(Normalize.email(address(254))).isEqualTo(address(254));
    assertThat(Normalize.email(" " + address(254).toUpperCase() + " ")).as("counted once trimmed")
        .isEqualTo(address(254));
    assertThat(Normalize.email(address(255))).isNull();
  }

  @Test
  @DisplayName("the domain's last label needs two characters: x@a.bc is an address, x@a.b is not")
  void lastLabel() {
    assertThat(Normalize.email("x@a.bc")).isEqualTo("x@a.bc");
    assertThat(Normalize.email("x@a.b")).isNull();
    assertThat(Normalize.email("x@ab.c")).isNull();
    assertThat(Normalize.email("x@a.b.cd")).isEqualTo("x@a.b.cd");
    assertThat(Normalize.email("x@.cd")).as("an empty first label").isNull();
  }

  @Test
  @DisplayName("a text without '@' is no address, even when it looks like a domain; nor one with nothing before it")
  void noLocalPart() {
    assertThat(Normalize.email("example.com")).isNull();
    assertThat(Normalize.email("@example.com")).isNull();
    assertThat(Normalize.email("a@example.com")).isEqualTo("a@example.com");
  }
}
