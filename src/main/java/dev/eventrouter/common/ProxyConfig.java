package dev.eventrouter.common;

/**
 * The proxy an integration's (or a bot's) requests go out through: buyers send each pixel's traffic from the
 * pixel's country, as farmed ad accounts are tied to a GEO.
 *
 * @param scheme   {@code http} (a forward proxy, CONNECT for https targets), {@code https} (the same, reached over
 *                 TLS) or {@code socks5}
 * @param caFile   for an {@code https} proxy whose certificate no public CA signed: a PEM file of the CA that did;
 *                 null to trust the JDK's CAs
 * @param username null for a proxy without authentication
 * @param password from {@code ${ENV}}; never printed
 */
public record ProxyConfig(String scheme, String host, int port, String caFile, String username, String password) {

  public static final String HTTP = "http";
  public static final String HTTPS = "https";
  public static final String SOCKS5 = "socks5";

  /** Where the proxy is, as logs, errors and the API may show it: never its credentials. */
  @Override
  public String toString() {
    return scheme + "://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
