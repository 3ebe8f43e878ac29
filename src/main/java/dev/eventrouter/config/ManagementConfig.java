package dev.eventrouter.config;

/**
 * The management listener: {@code /metrics} and the detailed {@code /health/ready}, which name every workspace and
 * integration and show per-tenant volumes, so they are not served on the public port.
 *
 * @param host  where it listens: loopback by default, reachable from the host's own scraper only
 * @param port  its port (0: any free one)
 * @param token when set, a caller must send {@code Authorization: Bearer <token>} (for a scraper on another host)
 * @param httpServerMetrics whether Vert.x's own per-request HTTP server meters ({@code vertx_http_server_*}) are
 *              kept: each request then updates five meters found by their tags, measured (bench/run.sh with
 *              BENCH_HTTP_SERVER_METRICS) at up to a tenth of the service's CPU per event, so off by default; the
 *              ingest route's own answers are counted either way ({@code event_router_http_events})
 */
public record ManagementConfig(String host, int port, String token, boolean httpServerMetrics) {

  public static final int DEFAULT_PORT = 9464;
  public static final boolean DEFAULT_HTTP_SERVER_METRICS = false;

  public ManagementConfig(String host, int port, String token) {
    this(host, port, token, DEFAULT_HTTP_SERVER_METRICS);
  }

  @Override
  public String toString() {
    return "ManagementConfig[host=" + host + ", port=" + port + ", token=" + (token == null ? "none" : "***")
        + ", httpServerMetrics=" + httpServerMetrics + "]";
  }
}
