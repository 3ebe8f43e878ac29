package dev.eventrouter.config;

import io.netty.util.NetUtil;

import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * The demo keys ({@value #KEY}, the publishable {@value #PUBLISHABLE_KEY} and the postback token
 * {@value #POSTBACK_TOKEN}) are published in the README and the
 * shipped config, so anyone can use them. A workspace that accepts one on a server reachable from other machines
 * accepts conversions (or click sessions) from anyone.
 */
public final class DemoKey {

  public static final String KEY = "demo-key-change-me";
  public static final String PUBLISHABLE_KEY = "demo-publishable-key";
  /** The demo workspace's postback source token, in the README's partner walkthrough. */
  public static final String POSTBACK_TOKEN = "demo-postback-token-change-me";
  private static final byte[] POSTBACK_DIGEST = ApiKeys.digest(POSTBACK_TOKEN);
  private static final byte[] DIGEST = ApiKeys.digest(KEY);
  private static final byte[] PUBLISHABLE_DIGEST = ApiKeys.digest(PUBLISHABLE_KEY);
  private static final byte[] IPV6_LOOPBACK = NetUtil.LOCALHOST6.getAddress();

  private DemoKey() {}

  /** The names of the workspaces that accept the demo key, when others can reach the server ({@link #reach}). */
  public static List<String> exposedIn(AppConfig config) {
    return exposed(config, w -> w.accessKeys().stream().anyMatch(key -> Arrays.equals(key.hash(), DIGEST)));
  }

  /** The same for the demo publishable key. */
  public static List<String> publishableExposedIn(AppConfig config) {
    return exposed(config,
        w -> w.publishableKeys().stream().anyMatch(k -> Arrays.equals(k.hash(), PUBLISHABLE_DIGEST)));
  }

  /** The same for the demo postback token. */
  public static List<String> postbackExposedIn(AppConfig config) {
    return exposed(config,
        w -> w.postbackSources().stream().anyMatch(s -> Arrays.equals(s.tokenHash(), POSTBACK_DIGEST)));
  }

  /**
   * How other machines reach the server, for the warning; null when none can: it listens on loopback and trusts no
   * proxy. A trusted proxy (Caddy on the same host, as the going-live guide sets it up) forwards the internet's
   * requests to a loopback listener.
   */
  public static String reach(AppConfig config) {
    if (!isLoopback(config.http().host())) {
      return "the server listens on " + config.http().host();
    }
    return config.http().trustedProxies().isEmpty() ? null
        : "the server is reached through the proxies " + config.http().trustedProxies() + " (http.trusted_proxies)";
  }

  private static List<String> exposed(AppConfig config, Predicate<WorkspaceConfig> accepts) {
    if (reach(config) == null) {
      return List.of();
    }
    return config.workspaces().stream()
        .filter(accepts)
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
