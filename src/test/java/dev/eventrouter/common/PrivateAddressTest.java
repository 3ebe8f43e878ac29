package dev.eventrouter.common;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.net.UnknownHostException;

import static org.assertj.core.api.Assertions.assertThat;

/** Which addresses an outbound request may not reach unless allowed, resolved or as a URL writes them. */
class PrivateAddressTest {

  private static InetAddress literal(String text) throws UnknownHostException {
    return InetAddress.getByName(text); // a literal: nothing is resolved
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.0.0.0", "0.255.255.255", "10.0.0.1", "10.255.255.255", "100.64.0.1", "100.127.255.254",
      "127.0.0.1", "127.255.0.1", "169.254.169.254", "172.16.0.1", "172.31.255.255", "192.0.0.8", "192.0.2.1",
      "192.168.0.1", "198.18.0.1", "198.19.255.255", "198.51.100.7", "203.0.113.9", "224.0.0.1", "239.1.1.1",
      "240.0.0.1", "255.255.255.255", "::", "::1", "::127.0.0.1", "100::1", "2001:db8::1", "fc00::1", "fd12:3456::1",
      "fe80::1", "febf::1", "fec0::1", "ff02::1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "64:ff9b::a00:1",
      "64:ff9b::7f00:1", "2002:a00:1::1", "2002:7f00:1::"})
  @DisplayName("loopback, link-local, private, shared, unspecified, multicast, documentation and reserved ranges, "
      + "and IPv6 addresses that carry one of those IPv4 addresses, are private")
  void privateAddresses(String address) throws UnknownHostException {
    assertThat(PrivateAddress.contains(literal(address))).isTrue();
    assertThat(PrivateAddress.named(address.contains(":") ? "[" + address + "]" : address)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.1.1.1", "8.8.8.8", "9.255.255.255", "11.0.0.1", "100.63.255.255", "100.128.0.1",
      "126.255.255.255", "128.0.0.1", "169.253.255.255", "169.255.0.1", "172.15.255.255", "172.32.0.1",
      "192.0.1.1", "192.167.255.255", "192.169.0.1", "198.17.255.255", "198.20.0.1", "223.255.255.255",
      "2606:4700::1111", "2a00:1450::1", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "fbff::1",
      "fe7f::1", "2001:db9::1"})
  @DisplayName("public addresses are not, the IPv6 ones that carry a public IPv4 address neither")
  void publicAddresses(String address) throws UnknownHostException {
    assertThat(PrivateAddress.contains(literal(address))).isFalse();
    assertThat(PrivateAddress.named(address.contains(":") ? "[" + address + "]" : address)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost", "LocalHost", "localhost.", "api.localhost", "a.b.localhost.", "2130706433",
      "127.1", "0x7f000001", "0x7f.0.0.1", "017700000001", "1.2.3.0x10", "host.123"})
  @DisplayName("localhost and the names under it, and numeric names that are no plain address literal, are named "
      + "private")
  void privateNames(String host) {
    assertThat(PrivateAddress.named(host)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"tracker.example", "graph.facebook.com", "localhost.example", "my-localhost",
      "notlocalhost", "10.example", "0x.example", "123.example", "a1", "[tracker.example]"})
  @DisplayName("other names are left to what they resolve to when a request is made")
  void publicNames(String host) {
    assertThat(PrivateAddress.named(host)).isFalse();
  }
}
