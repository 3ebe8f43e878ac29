package dev.eventrouter.config;

import dev.eventrouter.common.IpBlock;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns the config JSON into an {@link AppConfig}. Strict: unknown keys and bad values are collected, each named by
 * its JSON path, and reported together, so one start shows every mistake. The settings sections are read here; the
 * workspaces by {@link WorkspaceParser}, the reports by {@link ReportsParser}.
 */
public final class ConfigParser {

  private static final Set<String> TOP_LEVEL =
      Set.of("http", "management", "database", "session", "delivery", "cluster", "reports", "alerts", "roles",
          "workspaces");
  private static final Set<String> HTTP_KEYS =
      Set.of("host", "port", "max_body_bytes", "instances", "request_timeout_ms", "trusted_proxies",
          "publishable_rate_limit", "publishable_share", "idle_timeout_s", "read_timeout_ms", "max_connections",
          "max_buffered_bytes");
  private static final Set<String> MANAGEMENT_KEYS = Set.of("host", "port", "token", "http_server_metrics");
  /** A bearer token: long enough not to be guessed, in the characters a header carries unquoted. */
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._~+/=-]{24,256}");
  /** An IPv4 or IPv6 address, optionally /prefix (checked further by trustedProxies). */
  private static final Pattern PROXY = Pattern.compile("[0-9A-Fa-f:.]{2,45}(/[0-9]{1,3})?");
  private static final Set<String> DATABASE_KEYS = Set.of("url", "data_dir", "pool_size", "write_batch_size",
      "write_linger_ms", "max_pending_writes", "retention_days");
  private static final Set<String> ALERTS_KEYS = Set.of("check_every_ms");
  private static final Set<String> SESSION_KEYS = Set.of("source_timeout_ms");
  private static final Set<String> DELIVERY_KEYS = Set.of("batch_size", "linger_ms", "request_timeout_ms",
      "initial_backoff_ms", "max_backoff_ms", "scan_interval_ms", "breaker", "pause_probe_ms", "keep_payloads");
  private static final Set<String> BREAKER_KEYS = Set.of("failure_threshold", "reset_timeout_ms");
  private static final Set<String> CLUSTER_KEYS = Set.of("enabled", "host", "public_host", "port", "bus_port",
      "members");
  /** host:port, the host a name, an IPv4 address or a bracketed IPv6 address. */
  private static final Pattern MEMBER = Pattern.compile("(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9.-]+):[0-9]{1,5}");

  private final JsonReader r = new JsonReader();

  private ConfigParser() {}

  public static AppConfig parse(JsonObject json) {
    return new ConfigParser().app(json);
  }

  /** Reads every section before judging, so one start reports every mistake at once. */
  private AppConfig app(JsonObject json) {
    r.unknownKeys(json, "", TOP_LEVEL);
    HttpConfig http = http(r.object(json, "http", "http"));
    ManagementConfig management = management(r.object(json, "management", "management"));
    DatabaseConfig database = database(r.object(json, "database", "database"));
    SessionConfig session = session(r.object(json, "session", "session"));
    DeliveryConfig delivery = delivery(r.object(json, "delivery", "delivery"));
    ClusterConfig cluster = cluster(r.object(json, "cluster", "cluster"), database);
    ReportsConfig reports = new ReportsParser(r).reports(r.object(json, "reports", "reports"), database);
    JsonObject alertsJson = r.object(json, "alerts", "alerts");
    r.unknownKeys(alertsJson, "alerts", ALERTS_KEYS);
    AlertChecks alerts = new AlertChecks(r.integer(alertsJson, "check_every_ms", "alerts.check_every_ms",
        AlertChecks.DEFAULT.everyMs(), 100, 3_600_000));
    Set<Role> roles = roles(json.getValue("roles"));
    List<WorkspaceConfig> workspaces = new WorkspaceParser(r).workspaces(json.getValue("workspaces"));
    if (!r.problems().isEmpty()) {
      throw new ConfigException(r.problems());
    }
    return new AppConfig(http, management, database, session, delivery, cluster, reports, alerts, roles,
        workspaces);
  }

  private ClusterConfig cluster(JsonObject json, DatabaseConfig database) {
    r.unknownKeys(json, "cluster", CLUSTER_KEYS);
    boolean enabled = r.bool(json, "enabled", "cluster.enabled", false);
    if (enabled && database.embedded()) {
      r.problem("cluster.enabled: a cluster needs one shared PostgreSQL: set database.url or DATABASE_URL (an "
          + "embedded database on each node would split the data)");
    }
    String host = r.string(json, "host", "cluster.host", "127.0.0.1");
    String publicHost = r.string(json, "public_host", "cluster.public_host", host);
    if (ClusterConfig.EVERY_INTERFACE.contains(publicHost)) {
      r.problem("cluster.public_host: must be the address the other members reach this node at, not the wildcard "
          + publicHost + " (a wildcard cluster.host listens on every interface and needs it set)");
    }
    return new ClusterConfig(enabled, host, publicHost,
        (int) r.integer(json, "port", "cluster.port", ClusterConfig.DEFAULT_PORT, 1, 65535),
        (int) r.integer(json, "bus_port", "cluster.bus_port", 0, 0, 65535),
        members(json.getValue("members")));
  }

  private List<String> members(Object value) {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof JsonArray array)) {
      r.problem("cluster.members: must be an array of \"host:port\" strings");
      return List.of();
    }
    List<String> members = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      if (array.getValue(i) instanceof String member && MEMBER.matcher(member).matches()) {
        members.add(member);
      } else {
        r.problem("cluster.members[" + i + "]: must be \"host:port\", such as 10.0.0.5:5701");
      }
    }
    return List.copyOf(members);
  }

  /** Both roles when absent; otherwise a non-empty array of role names. */
  private Set<Role> roles(Object value) {
    if (value == null) {
      return Set.copyOf(EnumSet.allOf(Role.class));
    }
    Set<Role> roles = EnumSet.noneOf(Role.class);
    if (value instanceof JsonArray array) {
      for (int i = 0; i < array.size(); i++) {
        Role role = Role.of(array.getValue(i));
        if (role == null) {
          r.problem("roles[" + i + "]: must be \"ingest\" or \"forward\"");
        } else {
          roles.add(role);
        }
      }
    }
    if (roles.isEmpty()) {
      r.problem("roles: must be a non-empty array of \"ingest\" and \"forward\"");
    }
    return Set.copyOf(roles);
  }

  private DeliveryConfig delivery(JsonObject json) {
    r.unknownKeys(json, "delivery", DELIVERY_KEYS);
    JsonObject breaker = r.object(json, "breaker", "delivery.breaker");
    r.unknownKeys(breaker, "delivery.breaker", BREAKER_KEYS);
    long initial = r.integer(json, "initial_backoff_ms", "delivery.initial_backoff_ms", 1_000, 1, 86_400_000);
    long max = r.integer(json, "max_backoff_ms", "delivery.max_backoff_ms", 600_000, 1, 86_400_000);
    if (max < initial) {
      r.problem("delivery.max_backoff_ms: must be at least delivery.initial_backoff_ms");
    }
    return new DeliveryConfig(
        (int) r.integer(json, "batch_size", "delivery.batch_size", 500, 1, 1000),
        r.integer(json, "linger_ms", "delivery.linger_ms", 50, 0, 60_000),
        r.integer(json, "request_timeout_ms", "delivery.request_timeout_ms", 10_000, 100, 300_000),
        initial, max,
        r.integer(json, "scan_interval_ms", "delivery.scan_interval_ms", 5_000, 10, 3_600_000),
        (int) r.integer(breaker, "failure_threshold", "delivery.breaker.failure_threshold", 5, 1, 1000),
        r.integer(breaker, "reset_timeout_ms", "delivery.breaker.reset_timeout_ms", 30_000, 10, 3_600_000),
        r.integer(json, "pause_probe_ms", "delivery.pause_probe_ms", 300_000, 100, 86_400_000),
        r.bool(json, "keep_payloads", "delivery.keep_payloads", true));
  }

  private SessionConfig session(JsonObject json) {
    r.unknownKeys(json, "session", SESSION_KEYS);
    return new SessionConfig(r.integer(json, "source_timeout_ms", "session.source_timeout_ms", 200, 1, 60_000));
  }

  private HttpConfig http(JsonObject json) {
    r.unknownKeys(json, "http", HTTP_KEYS);
    return new HttpConfig(
        r.string(json, "host", "http.host", "0.0.0.0"),
        (int) r.integer(json, "port", "http.port", 8080, 0, 65535),
        (int) r.integer(json, "max_body_bytes", "http.max_body_bytes", 65536, 1, 16 * 1024 * 1024),
        (int) r.integer(json, "instances", "http.instances", Runtime.getRuntime().availableProcessors(), 1, 256),
        r.integer(json, "request_timeout_ms", "http.request_timeout_ms", 10_000, 100, 600_000),
        trustedProxies(json),
        r.rateLimit(r.object(json, "publishable_rate_limit", "http.publishable_rate_limit"),
            "http.publishable_rate_limit", HttpConfig.DEFAULT_PUBLISHABLE_RATE_LIMIT),
        share(json),
        limits(json));
  }

  private double share(JsonObject json) {
    double share = r.number(json, "publishable_share", "http.publishable_share", HttpConfig.DEFAULT_PUBLISHABLE_SHARE);
    if (share > 1) {
      r.problem("http.publishable_share: must be at most 1 (a share of the workspace's rate limit)");
    }
    return share;
  }

  private HttpConfig.ServerLimits limits(JsonObject json) {
    HttpConfig.ServerLimits d = HttpConfig.ServerLimits.DEFAULT;
    return new HttpConfig.ServerLimits(
        (int) r.integer(json, "idle_timeout_s", "http.idle_timeout_s", d.idleTimeoutS(), 1, 3600),
        r.integer(json, "read_timeout_ms", "http.read_timeout_ms", d.readTimeoutMs(), 100, 600_000),
        (int) r.integer(json, "max_connections", "http.max_connections", d.maxConnections(), 1, 1_000_000),
        r.integer(json, "max_buffered_bytes", "http.max_buffered_bytes", d.maxBufferedBytes(), 1024,
            64L * 1024 * 1024 * 1024));
  }

  private ManagementConfig management(JsonObject json) {
    r.unknownKeys(json, "management", MANAGEMENT_KEYS);
    String token = r.string(json, "token", "management.token", null);
    if (token != null && !TOKEN.matcher(token).matches()) {
      r.problem("management.token: 24 to 256 characters of A-Z a-z 0-9 . _ ~ + / = - (use \"${ENV_NAME}\" to keep "
          + "it out of the file)");
    }
    return new ManagementConfig(r.string(json, "host", "management.host", "127.0.0.1"),
        (int) r.integer(json, "port", "management.port", ManagementConfig.DEFAULT_PORT, 0, 65535), token,
        r.bool(json, "http_server_metrics", "management.http_server_metrics",
            ManagementConfig.DEFAULT_HTTP_SERVER_METRICS));
  }

  /** IP addresses or CIDR blocks, each checked (an address literal; a prefix no longer than the address). */
  private List<String> trustedProxies(JsonObject json) {
    Set<String> given = r.strings(json, "trusted_proxies", "http.trusted_proxies", PROXY,
        "an IP address or a CIDR block such as 10.0.0.0/8");
    List<String> proxies = new ArrayList<>();
    for (String proxy : given == null ? Set.<String>of() : given) {
      if (IpBlock.parse(proxy) == null) {
        r.problem("http.trusted_proxies: " + proxy + " is not an IP address or a CIDR block such as 10.0.0.0/8");
      } else {
        proxies.add(proxy);
      }
    }
    return List.copyOf(proxies);
  }

  private DatabaseConfig database(JsonObject json) {
    r.unknownKeys(json, "database", DATABASE_KEYS);
    String url = r.string(json, "url", "database.url", null);
    if (url != null && !(url.startsWith("postgresql://") || url.startsWith("postgres://"))) {
      r.problem("database.url: must look like postgresql://user:pass@host:port/db");
    }
    return new DatabaseConfig(
        url,
        Path.of(r.string(json, "data_dir", "database.data_dir", "data/postgres")),
        (int) r.integer(json, "pool_size", "database.pool_size", 8, 1, 200),
        (int) r.integer(json, "write_batch_size", "database.write_batch_size", 500, 1, 5000),
        r.integer(json, "write_linger_ms", "database.write_linger_ms", 0, 0, 1000),
        (int) r.integer(json, "max_pending_writes", "database.max_pending_writes", 20_000, 1, 1_000_000),
        (int) r.integer(json, "retention_days", "database.retention_days", DatabaseConfig.DEFAULT_RETENTION_DAYS,
            DatabaseConfig.MIN_RETENTION_DAYS, 3650));
  }
}
