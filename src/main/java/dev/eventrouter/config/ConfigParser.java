package dev.eventrouter.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Turns the config JSON into an {@link AppConfig}. Strict: unknown keys and bad values are collected, each named by
 * its JSON path, and reported together, so one start shows every mistake.
 */
public final class ConfigParser {

  private static final Pattern UUID_TEXT =
      Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final Pattern KEY_HASH = Pattern.compile("sha256:[0-9a-f]{64}");

  // Telegram bot usernames: 5 to 32 characters of letters, digits and underscores, starting with a letter.
  private static final Pattern BOT_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{4,31}");

  private static final Set<String> TOP_LEVEL = Set.of("http", "database", "session", "workspaces");
  private static final Set<String> SESSION_KEYS = Set.of("source_timeout_ms");
  private static final Set<String> HTTP_KEYS =
      Set.of("host", "port", "max_body_bytes", "instances", "request_timeout_ms");
  private static final Set<String> DATABASE_KEYS = Set.of("url", "data_dir", "pool_size", "write_batch_size",
      "write_linger_ms", "max_pending_writes");
  // "integrations" is accepted here and given its meaning by the forwarding slice.
  private static final Set<String> WORKSPACE_KEYS = Set.of("id", "name", "api_keys", "rate_limit", "bot_name",
      "attribution_window_days", "integrations");
  private static final Set<String> RATE_LIMIT_KEYS = Set.of("per_second", "burst");

  private final List<String> problems = new ArrayList<>();

  private ConfigParser() {}

  public static AppConfig parse(JsonObject json) {
    ConfigParser parser = new ConfigParser();
    AppConfig config = parser.app(json);
    if (!parser.problems.isEmpty()) {
      throw new ConfigException(parser.problems);
    }
    return config;
  }

  private AppConfig app(JsonObject json) {
    unknownKeys(json, "", TOP_LEVEL);
    return new AppConfig(
        http(object(json, "http", "http")),
        database(object(json, "database", "database")),
        session(object(json, "session", "session")),
        workspaces(json.getValue("workspaces")));
  }

  private SessionConfig session(JsonObject json) {
    unknownKeys(json, "session", SESSION_KEYS);
    return new SessionConfig(integer(json, "source_timeout_ms", "session.source_timeout_ms", 200, 1, 60_000));
  }

  private HttpConfig http(JsonObject json) {
    unknownKeys(json, "http", HTTP_KEYS);
    return new HttpConfig(
        string(json, "host", "http.host", "0.0.0.0"),
        (int) integer(json, "port", "http.port", 8080, 0, 65535),
        (int) integer(json, "max_body_bytes", "http.max_body_bytes", 65536, 1, 16 * 1024 * 1024),
        (int) integer(json, "instances", "http.instances", Runtime.getRuntime().availableProcessors(), 1, 256),
        integer(json, "request_timeout_ms", "http.request_timeout_ms", 10_000, 100, 600_000));
  }

  private DatabaseConfig database(JsonObject json) {
    unknownKeys(json, "database", DATABASE_KEYS);
    String url = string(json, "url", "database.url", null);
    if (url != null && !(url.startsWith("postgresql://") || url.startsWith("postgres://"))) {
      problems.add("database.url: must look like postgresql://user:pass@host:port/db");
    }
    return new DatabaseConfig(
        url,
        Path.of(string(json, "data_dir", "database.data_dir", "data/postgres")),
        (int) integer(json, "pool_size", "database.pool_size", 8, 1, 200),
        (int) integer(json, "write_batch_size", "database.write_batch_size", 500, 1, 5000),
        integer(json, "write_linger_ms", "database.write_linger_ms", 2, 1, 1000),
        (int) integer(json, "max_pending_writes", "database.max_pending_writes", 20_000, 1, 1_000_000));
  }

  private List<WorkspaceConfig> workspaces(Object value) {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof JsonArray array)) {
      problems.add("workspaces: must be an array");
      return List.of();
    }
    List<WorkspaceConfig> result = new ArrayList<>();
    Map<UUID, String> seenIds = new HashMap<>();
    Map<String, String> seenKeys = new HashMap<>();
    for (int i = 0; i < array.size(); i++) {
      String path = "workspaces[" + i + "]";
      if (!(array.getValue(i) instanceof JsonObject json)) {
        problems.add(path + ": must be an object");
        continue;
      }
      WorkspaceConfig workspace = workspace(json, path, seenKeys);
      if (workspace == null) {
        continue;
      }
      String earlier = seenIds.putIfAbsent(workspace.id(), path);
      if (earlier != null) {
        problems.add(path + ".id: duplicate workspace id " + workspace.id() + " (also at " + earlier + ")");
      }
      result.add(workspace);
    }
    return List.copyOf(result);
  }

  private WorkspaceConfig workspace(JsonObject json, String path, Map<String, String> seenKeys) {
    unknownKeys(json, path, WORKSPACE_KEYS);
    UUID id = uuid(json, "id", path + ".id");
    String name = string(json, "name", path + ".name", "");
    List<byte[]> keys = apiKeys(json.getValue("api_keys"), path + ".api_keys", seenKeys);
    RateLimitConfig rateLimit = rateLimit(object(json, "rate_limit", path + ".rate_limit"), path + ".rate_limit");
    String botName = string(json, "bot_name", path + ".bot_name", null);
    if (botName != null) {
      botName = botName.startsWith("@") ? botName.substring(1) : botName;
      if (!BOT_NAME.matcher(botName).matches()) {
        problems.add(path + ".bot_name: must be a Telegram bot username (5 to 32 letters, digits or _)");
      }
    }
    int window = (int) integer(json, "attribution_window_days", path + ".attribution_window_days",
        WorkspaceConfig.DEFAULT_ATTRIBUTION_WINDOW_DAYS, 1, 3650);
    Object integrations = json.getValue("integrations");
    if (integrations != null && !(integrations instanceof JsonArray)) {
      problems.add(path + ".integrations: must be an array");
    }
    return id == null ? null : new WorkspaceConfig(id, name, keys, rateLimit, botName, window);
  }

  private List<byte[]> apiKeys(Object value, String path, Map<String, String> seenKeys) {
    if (!(value instanceof JsonArray array) || array.isEmpty()) {
      problems.add(path + ": required, a non-empty array of \"sha256:<hex>\" key hashes");
      return List.of();
    }
    List<byte[]> hashes = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      String itemPath = path + "[" + i + "]";
      Object item = array.getValue(i);
      if (!(item instanceof String text)) {
        problems.add(itemPath + ": must be a string \"sha256:<hex>\"");
      } else if (!text.startsWith(ApiKeys.PREFIX)) {
        // Never echo the value: it is probably a real key.
        problems.add(itemPath + ": looks like a plain API key; only its hash may be stored."
            + " Run `java -jar target/event-router.jar hash-key KEY` and paste the sha256:... it prints");
      } else if (!KEY_HASH.matcher(text).matches()) {
        problems.add(itemPath + ": malformed key hash, expected sha256: followed by 64 lowercase hex digits");
      } else {
        String earlier = seenKeys.putIfAbsent(text, itemPath);
        if (earlier != null) {
          problems.add(itemPath + ": the same API key is already configured at " + earlier);
        }
        hashes.add(HexFormat.of().parseHex(text.substring(ApiKeys.PREFIX.length())));
      }
    }
    return List.copyOf(hashes);
  }

  private RateLimitConfig rateLimit(JsonObject json, String path) {
    unknownKeys(json, path, RATE_LIMIT_KEYS);
    double perSecond = number(json, "per_second", path + ".per_second", RateLimitConfig.DEFAULT.perSecond());
    double burst = number(json, "burst", path + ".burst", RateLimitConfig.DEFAULT.burst());
    if (burst < 1) {
      problems.add(path + ".burst: must be at least 1");
    }
    return new RateLimitConfig(perSecond, Math.max(burst, 1));
  }

  // --- typed readers: each records a problem and returns a usable default, so parsing goes on ---

  private JsonObject object(JsonObject parent, String key, String path) {
    Object value = parent.getValue(key);
    if (value == null) {
      return new JsonObject();
    }
    if (value instanceof JsonObject json) {
      return json;
    }
    problems.add(path + ": must be an object");
    return new JsonObject();
  }

  private String string(JsonObject json, String key, String path, String fallback) {
    Object value = json.getValue(key);
    if (value == null) {
      return fallback;
    }
    if (value instanceof String text && !text.isBlank()) {
      return text;
    }
    problems.add(path + ": must be a non-empty string");
    return fallback;
  }

  private long integer(JsonObject json, String key, String path, long fallback, long min, long max) {
    Object value = json.getValue(key);
    if (value == null) {
      return fallback;
    }
    if ((value instanceof Integer || value instanceof Long) && ((Number) value).longValue() >= min
        && ((Number) value).longValue() <= max) {
      return ((Number) value).longValue();
    }
    problems.add(path + ": must be a whole number from " + min + " to " + max);
    return fallback;
  }

  private double number(JsonObject json, String key, String path, double fallback) {
    Object value = json.getValue(key);
    if (value == null) {
      return fallback;
    }
    if (value instanceof Number number && number.doubleValue() > 0 && Double.isFinite(number.doubleValue())) {
      return number.doubleValue();
    }
    problems.add(path + ": must be a number greater than 0");
    return fallback;
  }

  private UUID uuid(JsonObject json, String key, String path) {
    Object value = json.getValue(key);
    if (value instanceof String text && UUID_TEXT.matcher(text).matches()) {
      return UUID.fromString(text);
    }
    problems.add(path + ": required, a UUID such as 7c9e6679-7425-40de-944b-e07fc1f90ae7");
    return null;
  }

  private void unknownKeys(JsonObject json, String path, Set<String> known) {
    for (String key : json.fieldNames()) {
      if (!known.contains(key)) {
        problems.add((path.isEmpty() ? key : path + "." + key) + ": unknown key (known: "
            + String.join(", ", known.stream().sorted().toList()) + ")");
      }
    }
  }
}
