package dev.eventrouter.common;

import io.netty.handler.ipfilter.IpFilterRuleType;
import io.netty.handler.ipfilter.IpSubnetFilterRule;
import io.netty.util.NetUtil;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * An IP address, or a CIDR block of them ({@code 10.0.0.0/8}, {@code 2001:db8::/32}), matched with Netty's own
 * subnet rule. Only address literals are taken, so nothing here ever asks DNS.
 */
public final class IpBlock {

  private final IpSubnetFilterRule rule;

  private IpBlock(IpSubnetFilterRule rule) {
    this.rule = rule;
  }

  /** The block the text names, or null when it names none. */
  public static IpBlock parse(String text) {
    int slash = text.indexOf('/');
    String address = slash < 0 ? text : text.substring(0, slash);
    InetAddress literal = literal(address);
    if (literal == null) {
      return null;
    }
    int bits = literal.getAddress().length * 8;
    int prefix = bits;
    if (slash >= 0) {
      try {
        prefix = Integer.parseInt(text.substring(slash + 1));
      } catch (NumberFormatException notANumber) {
        return null;
      }
    }
    return prefix < 0 || prefix > bits ? null
        : new IpBlock(new IpSubnetFilterRule(literal, prefix, IpFilterRuleType.ACCEPT));
  }

  /** Whether the address (a literal) is in this block; false for anything that is not an address. */
  public boolean contains(String address) {
    InetAddress literal = literal(address);
    return literal != null && rule.matches(new InetSocketAddress(literal, 0));
  }

  /** The address an IPv4 or IPv6 literal stands for, or null when the text is not one. */
  private static InetAddress literal(String text) {
    byte[] bytes = text == null ? null : NetUtil.createByteArrayFromIpAddressString(text.strip());
    try {
      return bytes == null ? null : InetAddress.getByAddress(bytes);
    } catch (UnknownHostException wrongLength) {
      return null;
    }
  }
}
