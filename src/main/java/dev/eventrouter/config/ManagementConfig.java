package dev.eventrouter.config;

/**
 * The management listener: {@code /metrics} and the detailed {@code /health/ready}, which name every workspace and
 * integration and show per-tenant volumes, so they are not served on the public port.
 *
 * @param host  where it listens: loopback by default, reachable from the host's own scraper only
 * @param port  its port (0: any free one)
 * @param token when set, a caller must send {@code Authorization: Bearer <token>} (for a scraper on another host)
 */
public record ManagementConfig(String host, int port, String token) {

  public static final int DEFAULT_PORT = 9464;

  @Override
  public String toString() {
    return "ManagementConfig[host=" + host + ", port=" + port + ", token=" + (token == null ? "none" : "***") + "]";
  }
}
