package dev.eventrouter.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The TCP sockets listening on a port, as the kernel lists them for this process's network namespace
 * (/proc/self/net/tcp and tcp6, https://www.kernel.org/doc/html/latest/networking/proc_net_tcp.html): what was
 * really bound, whatever the configuration asked for.
 */
public final class ListeningSockets {

  private static final String LISTEN = "0A";

  private ListeningSockets() {}

  /**
   * The local addresses listening on the port: 127.0.0.1 for a socket on loopback (an IPv4-mapped IPv6 one too),
   * 0.0.0.0 or :: for one on every interface.
   */
  public static List<InetAddress> on(int port) {
    List<InetAddress> addresses = new ArrayList<>();
    for (String table : List.of("/proc/self/net/tcp", "/proc/self/net/tcp6")) {
      for (String line : lines(Path.of(table))) {
        String[] fields = line.trim().split("\\s+");
        // sl, local_address (hex address:hex port), rem_address, st, ...; the first line is the header
        if (fields.length > 3 && fields[3].equals(LISTEN) && fields[1].endsWith(":" + hexPort(port))) {
          addresses.add(address(fields[1].substring(0, fields[1].indexOf(':'))));
        }
      }
    }
    return addresses;
  }

  private static String hexPort(int port) {
    return String.format("%04X", port);
  }

  /** The kernel prints an address as 32-bit words in host byte order: reversed, on a little-endian machine. */
  private static InetAddress address(String hex) {
    byte[] raw = HexFormat.of().parseHex(hex);
    boolean reversed = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    byte[] bytes = new byte[raw.length];
    for (int word = 0; word < raw.length; word += 4) {
      for (int i = 0; i < 4; i++) {
        bytes[word + i] = raw[word + (reversed ? 3 - i : i)];
      }
    }
    try {
      return InetAddress.getByAddress(bytes); // an IPv4-mapped IPv6 address comes back as the IPv4 one
    } catch (UnknownHostException e) {
      throw new IllegalStateException("not an address: " + hex, e);
    }
  }

  private static List<String> lines(Path table) {
    try {
      return Files.exists(table) ? Files.readAllLines(table) : List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
