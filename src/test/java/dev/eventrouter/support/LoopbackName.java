package dev.eventrouter.support;

import dev.eventrouter.common.PrivateAddress;
import org.junit.jupiter.api.Assumptions;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * A host name that resolves to loopback without DNS: the test host's own name, which /etc/hosts maps to 127.0.0.1 on
 * most machines. Not {@code localhost}: the service refuses that by its name, before resolving anything, and a test
 * of what a name resolves to needs a name that looks public.
 */
public final class LoopbackName {

  private LoopbackName() {}

  /**
   * The host's own name, when every address it resolves to is loopback and 127.0.0.1 is one of them (where the tests'
   * servers listen); else the test is skipped, saying why.
   */
  public static String get() {
    String name = null;
    InetAddress[] addresses = new InetAddress[0];
    try {
      name = InetAddress.getLocalHost().getHostName();
      addresses = InetAddress.getAllByName(name);
    } catch (UnknownHostException unresolved) {
      // No usable name: skipped below.
    }
    boolean usable = name != null && !PrivateAddress.named(name) && addresses.length > 0
        && Arrays.stream(addresses).allMatch(InetAddress::isLoopbackAddress)
        && Arrays.stream(addresses).anyMatch(address -> address.getHostAddress().equals("127.0.0.1"));
    Assumptions.assumeTrue(usable, "the host's own name (" + name + ") does not resolve to loopback alone, 127.0.0.1 "
        + "among it, here (" + Arrays.toString(addresses) + "): no name to test a loopback-resolving host with");
    return name;
  }
}
