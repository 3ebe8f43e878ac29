package dev.eventrouter.common;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class IpBlockTest {

  @Test
  @DisplayName("an address or a CIDR block, IPv4 or IPv6; anything else, a name above all, is no block")
  void parse() {
    assertThat(IpBlock.parse("127.0.0.1").contains("127.0.0.1")).isTrue();
    assertThat(IpBlock.parse("127.0.0.1").contains("127.0.0.2")).isFalse();
    IpBlock ten = IpBlock.parse("10.0.0.0/8");
    assertThat(ten.contains("10.255.1.2")).isTrue();
    assertThat(ten.contains("11.0.0.1")).isFalse();
    assertThat(ten.contains("not-an-ip")).isFalse();
    assertThat(ten.contains(null)).isFalse();
    assertThat(IpBlock.parse("0.0.0.0/0").contains("198.51.100.7")).isTrue();
    IpBlock doc = IpBlock.parse("2001:db8::/32");
    assertThat(doc.contains("2001:db8:1::5")).isTrue();
    assertThat(doc.contains("2001:db9::5")).isFalse();
    assertThat(doc.contains("10.0.0.1")).isFalse();
    assertThat(IpBlock.parse("::1").contains("::1")).isTrue();
    for (String bad : new String[] {"localhost", "1.2.3", "10.0.0.0/33", "::/129", "10.0.0.0/-1", "10.0.0.0/x",
        "10.0.0.0/", "", "256.0.0.1"}) {
      assertThat(IpBlock.parse(bad)).as(bad).isNull();
    }
  }
}
