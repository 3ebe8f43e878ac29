package dev.eventrouter.config;

import io.netty.util.NetUtil;

import java.util.Arrays;
import java.util.List;

/**
 * The demo key ({@value #KEY}) is published in the README and the shipped config, so anyone can use it. A workspace
 * that accepts it on a server reachable from other machines accepts conversions from anyone.
 */
public final class DemoKey {

  public static final String KEY = "demo-key-change-me";
  private static final byte[] DIGEST = ApiKeys.digest(KEY);
  private static final byte[] IPV6_LOOPBACK = NetUtil.LOCALHOST6.getAddress();

  private DemoKey() {}

  /** The names of the workspaces that accept the demo key, when the HTTP server listens beyond loopback. */
  public static List<String> exposedIn(AppConfig config) {
    if (isLoopback(config.http().host())) {
      return List.of();
    }
    return config.workspaces().stream()
        .filter(w -> w.apiKeyHashes().stream().anyMatch(hash -> Arrays.equals(hash, DIGEST)))
        .map(w -> w.name().isEmpty() ? w.id().toString() : w.name())
        .toList();
  }

  /** localhost, or a literal loopback address (127.0.0.0/8, ::1); a name other than localhost is not looked up. */
  private static boolean isLoopback(String host) {
    if (host.equalsIgnoreCase("localhost")) {
      return true;
    }
    byte[] address = NetUtil.createByteArrayFromIpAddressString(host);
    return address != null && (address.length == 4 ? address[0] == 127 : Arrays.equals(address, IPV6_LOOPBACK));
  }
}
