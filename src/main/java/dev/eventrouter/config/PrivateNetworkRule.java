package dev.eventrouter.config;

import dev.eventrouter.common.PrivateAddress;
import dev.eventrouter.common.UrlHost;
import io.vertx.core.json.JsonObject;

/**
 * Where a configured URL may point: never at a loopback, link-local, private or unspecified address unless its
 * section sets {@code allow_private_network}, so a URL cannot aim the service at its own host, its network or the
 * cloud metadata service (169.254.169.254).
 */
final class PrivateNetworkRule {

  private final JsonReader r;

  PrivateNetworkRule(JsonReader reader) {
    this.r = reader;
  }

  /** Whether the section may send to such addresses: off unless set. */
  boolean allowed(JsonObject json, String path) {
    return r.bool(json, "allow_private_network", path + ".allow_private_network", false);
  }

  /**
   * A URL whose host is written as such an address (or localhost) is refused here unless allowed; a name is checked
   * by what it resolves to when each request is made.
   *
   * @param where where the message says to allow it: "on the integration", "in pass_through"
   */
  void check(String url, boolean allowPrivate, String at, String where) {
    if (!allowPrivate && namesPrivate(url)) {
      r.problem(at + ": the host is a loopback, link-local, private or unspecified address (or localhost); set "
          + "\"allow_private_network\": true " + where + " to send there");
    }
  }

  /** Whether the URL's host is written as a loopback, link-local, private or unspecified address, or localhost. */
  static boolean namesPrivate(String url) {
    UrlHost host = UrlHost.parse(url);
    return host != null && PrivateAddress.named(host.host());
  }
}
