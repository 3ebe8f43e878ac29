package dev.eventrouter.common;

import io.netty.util.NetUtil;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Addresses an outbound request of the service must not reach unless an operator allows it: loopback, link-local
 * (the cloud metadata service at 169.254.169.254 among them), private, shared (carrier-grade NAT), unspecified,
 * multicast, documentation and reserved ranges, from IANA's special-purpose registries
 * (https://www.iana.org/assignments/iana-ipv4-special-registry/,
 * https://www.iana.org/assignments/iana-ipv6-special-registry/), and the IPv6 forms that carry an IPv4 address inside
 * (mapped, NAT64 64:ff9b::/96, 6to4 2002::/16), judged by the IPv4 address they carry.
 */
public final class PrivateAddress {

  private static final List<IpBlock> BLOCKS = Stream.of("0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8",
      "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24", "192.168.0.0/16", "198.18.0.0/15",
      "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
      "::/96", "100::/64", "2001:db8::/32", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8")
      .map(IpBlock::parse).toList();
  private static final byte[] MAPPED_PREFIX = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff};
  private static final byte[] NAT64_PREFIX = {0, 0x64, (byte) 0xff, (byte) 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
  /**
   * A last label of digits (or 0x and hex digits) that is no dotted quad: "2130706433", "127.1", "0x7f.1". No top
   * level domain is numeric (RFC 3696, section 2), and resolvers read such names as addresses, each its own way.
   */
  private static final Pattern NUMERIC_LAST_LABEL = Pattern.compile("(?:^|.*\\.)(?:[0-9]+|0x[0-9a-f]*)");

  private PrivateAddress() {}

  /** Whether the address is in one of the ranges above. */
  public static boolean contains(InetAddress address) {
    byte[] bytes = address.getAddress();
    if (address instanceof Inet6Address) {
      byte[] carried = carriedIpv4(bytes);
      if (carried != null) {
        return contains(address(carried));
      }
    }
    String text = address.getHostAddress();
    return BLOCKS.stream().anyMatch(block -> block.contains(text));
  }

  /**
   * Whether a URL's host names such an address as written, without asking DNS: {@code localhost} or a name under it
   * (RFC 6761, section 6.3), an address literal in one of the ranges (IPv6 in brackets or not), or a numeric name
   * that is no plain address literal.
   */
  public static boolean named(String host) {
    String name = host.toLowerCase(Locale.ROOT);
    if (name.startsWith("[") && name.endsWith("]")) {
      name = name.substring(1, name.length() - 1);
    }
    name = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    if (name.equals("localhost") || name.endsWith(".localhost")) {
      return true;
    }
    byte[] literal = NetUtil.createByteArrayFromIpAddressString(name);
    if (literal != null) {
      return contains(address(literal));
    }
    return NUMERIC_LAST_LABEL.matcher(name).matches();
  }

  /** The IPv4 address an IPv4-mapped, NAT64 or 6to4 address carries, or null. */
  private static byte[] carriedIpv4(byte[] v6) {
    if (startsWith(v6, MAPPED_PREFIX) || startsWith(v6, NAT64_PREFIX)) {
      return Arrays.copyOfRange(v6, 12, 16);
    }
    if (v6[0] == 0x20 && v6[1] == 0x02) {
      return Arrays.copyOfRange(v6, 2, 6);
    }
    return null;
  }

  private static boolean startsWith(byte[] bytes, byte[] prefix) {
    return Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }

  private static InetAddress address(byte[] bytes) {
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException wrongLength) {
      throw new IllegalArgumentException(wrongLength); // 4 or 16 bytes by construction
    }
  }
}
