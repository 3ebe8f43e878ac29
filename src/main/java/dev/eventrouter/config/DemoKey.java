package dev.eventrouter.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

/**
 * The demo key ({@value #KEY}) is published in the README and the shipped config, so anyone can use it. A workspace
 * that accepts it on a server reachable from other machines accepts conversions from anyone.
 */
public final class DemoKey {

  public static final String KEY = "demo-key-change-me";
  private static final byte[] DIGEST = ApiKeys.digest(KEY);

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

  private static boolean isLoopback(String host) {
    if (host.equalsIgnoreCase("localhost")) {
      return true;
    }
    try {
      // A literal address only: no name lookup at start for a host that is not one.
      return host.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == '.' || c == ':')
          && InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
