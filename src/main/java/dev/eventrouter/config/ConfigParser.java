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

  private static final Set<String> TOP_LEVEL = Set.of("http", "database", "session", "delivery", "workspaces");
  private static final Set<String> DELIVERY_KEYS = Set.of("batch_size", "linger_ms", "request_timeout_ms",
      "initial_backoff_ms", "max_backoff_ms", "scan_interval_ms", "breaker");
  private static final Set<String> BREAKER_KEYS = Set.of("failure_threshold", "reset_timeout_ms");
  private static final Set<String> COMMON_INTEGRATION_KEYS = Set.of("id", "type", "access_token", "api_base",
      "test_event_code", "enabled", "dry_run");
  private static final Set<String> META_KEYS = union(COMMON_INTEGRATION_KEYS, "pixel_id", "api_version",
      "action_source");
  private static final Set<String> TIKTOK_KEYS = union(COMMON_INTEGRATION_KEYS, "pixel_code", "event_source",
      "page_url");
  private static final Set<String> EVENT_MAPPING_KEYS = Set.of("meta", "tiktok", "monetary");
  // The values each network documents (ad-networks.md 1.2 and 2.2).
  private static final Set<String> META_ACTION_SOURCES = Set.of("email", "website", "app", "phone_call", "chat",
      "physical_store", "system_generated", "business_messaging", "other");
  private static final Set<String> TIKTOK_EVENT_SOURCES = Set.of("web", "app", "offline", "crm");
  private static final Pattern INTEGRATION_ID = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
  private static final Pattern NATIVE_EVENT_NAME = Pattern.compile("[A-Za-z0-9_ -]{1,50}");
  private static final Set<String> SESSION_KEYS = Set.of("source_timeout_ms");
  private static final Set<String> HTTP_KEYS =
      Set.of("host", "port", "max_body_bytes", "instances", "request_timeout_ms");
  private static final Set<String> DATABASE_KEYS = Set.of("url", "data_dir", "pool_size", "write_batch_size",
      "write_linger_ms", "max_pending_writes");
  private static final Set<String> WORKSPACE_KEYS = Set.of("id", "name", "api_keys", "rate_limit", "bot_name",
      "attribution_window_days", "integrations", "event_map");
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
        delivery(object(json, "delivery", "delivery")),
        workspaces(json.getValue("workspaces")));
  }

  private DeliveryConfig delivery(JsonObject json) {
    unknownKeys(json, "delivery", DELIVERY_KEYS);
    JsonObject breaker = object(json, "breaker", "delivery.breaker");
    unknownKeys(breaker, "delivery.breaker", BREAKER_KEYS);
    long initial = integer(json, "initial_backoff_ms", "delivery.initial_backoff_ms", 1_000, 1, 86_400_000);
    long max = integer(json, "max_backoff_ms", "delivery.max_backoff_ms", 600_000, 1, 86_400_000);
    if (max < initial) {
      problems.add("delivery.max_backoff_ms: must be at least delivery.initial_backoff_ms");
    }
    return new DeliveryConfig(
        (int) integer(json, "batch_size", "delivery.batch_size", 500, 1, 1000),
        integer(json, "linger_ms", "delivery.linger_ms", 50, 0, 60_000),
        integer(json, "request_timeout_ms", "delivery.request_timeout_ms", 10_000, 100, 300_000),
        initial, max,
        integer(json, "scan_interval_ms", "delivery.scan_interval_ms", 5_000, 10, 3_600_000),
        (int) integer(breaker, "failure_threshold", "delivery.breaker.failure_threshold", 5, 1, 1000),
        integer(breaker, "reset_timeout_ms", "delivery.breaker.reset_timeout_ms", 30_000, 10, 3_600_000));
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
    List<IntegrationConfig> integrations =
        integrations(json.getValue("integrations"), path + ".integrations", botName);
    Map<String, EventMappingOverride> eventMap = eventMap(object(json, "event_map", path + ".event_map"), path + ".event_map");
    return id == null ? null
        : new WorkspaceConfig(id, name, keys, rateLimit, botName, window, integrations, eventMap);
  }

  private List<IntegrationConfig> integrations(Object value, String path, String botName) {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof JsonArray array)) {
      problems.add(path + ": must be an array");
      return List.of();
    }
    List<IntegrationConfig> result = new ArrayList<>();
    Map<String, String> seen = new HashMap<>();
    for (int i = 0; i < array.size(); i++) {
      String itemPath = path + "[" + i + "]";
      if (!(array.getValue(i) instanceof JsonObject item)) {
        problems.add(itemPath + ": must be an object");
        continue;
      }
      IntegrationConfig integration = integration(item, itemPath, botName);
      if (integration == null) {
        continue;
      }
      String earlier = seen.putIfAbsent(integration.id(), itemPath);
      if (earlier != null) {
        problems.add(itemPath + ".id: duplicate integration id " + integration.id() + " (also at " + earlier + ")");
      }
      result.add(integration);
    }
    return List.copyOf(result);
  }

  private IntegrationConfig integration(JsonObject json, String path, String botName) {
    String id = string(json, "id", path + ".id", null);
    if (id == null || !INTEGRATION_ID.matcher(id).matches()) {
      problems.add(path + ".id: required, 1 to 64 of A-Z a-z 0-9 _ . -");
    }
    String type = string(json, "type", path + ".type", null);
    Network network;
    if ("meta".equals(type)) {
      network = Network.META;
      unknownKeys(json, path, META_KEYS);
    } else if ("tiktok".equals(type)) {
      network = Network.TIKTOK;
      unknownKeys(json, path, TIKTOK_KEYS);
    } else {
      problems.add(path + ".type: required, \"meta\" or \"tiktok\"");
      return null;
    }
    boolean meta = network == Network.META;
    String pixelKey = meta ? "pixel_id" : "pixel_code";
    String pixel = string(json, pixelKey, path + "." + pixelKey, null);
    if (pixel == null || !(meta ? pixel.matches("[0-9]{1,30}") : pixel.matches("[A-Za-z0-9]{1,64}"))) {
      problems.add(path + "." + pixelKey + ": required, " + (meta ? "the numeric pixel (dataset) id"
          : "the TikTok pixel code"));
    }
    // The message never quotes the token, only where it is missing.
    String token = string(json, "access_token", path + ".access_token", null);
    if (token == null) {
      problems.add(path + ".access_token: required (use \"${ENV_NAME}\" to keep it out of the file)");
    }
    String apiBase = string(json, "api_base", path + ".api_base",
        meta ? "https://graph.facebook.com" : "https://business-api.tiktok.com");
    if (!apiBase.matches("https?://[^/?#\\s]+(/[^?#\\s]*)?")) {
      problems.add(path + ".api_base: must be an http(s) URL without query");
    }
    String apiVersion = meta ? string(json, "api_version", path + ".api_version", "v25.0") : null;
    if (apiVersion != null && !apiVersion.matches("v[0-9]{1,3}\\.[0-9]{1,3}")) {
      problems.add(path + ".api_version: must look like v25.0");
    }
    String sourceKey = meta ? "action_source" : "event_source";
    String source = string(json, sourceKey, path + "." + sourceKey, meta ? "chat" : "web");
    if (!(meta ? META_ACTION_SOURCES : TIKTOK_EVENT_SOURCES).contains(source)) {
      problems.add(path + "." + sourceKey + ": must be one of "
          + String.join(", ", (meta ? META_ACTION_SOURCES : TIKTOK_EVENT_SOURCES).stream().sorted().toList()));
    }
    String pageUrl = meta ? null : tiktokPageUrl(json, path, source, botName);
    return new IntegrationConfig(id, network, pixel, token, stripSlash(apiBase), apiVersion, source, pageUrl,
        string(json, "test_event_code", path + ".test_event_code", null),
        bool(json, "enabled", path + ".enabled", true),
        bool(json, "dry_run", path + ".dry_run", false));
  }

  /**
   * TikTok requires {@code page.url} on web events (Events API 2.0; RudderStack's mapping marks it required:
   * https://github.com/rudderlabs/rudder-transformer/blob/develop/src/v0/destinations/tiktok_ads/data/TikTokTrackV2.json),
   * and a Telegram-only event or an invite session has no landing page. The fallback is the integration's
   * {@code page_url}, else the bot's {@code https://t.me/<bot_name>}; a web integration with neither is refused here
   * rather than failing every such event at TikTok later.
   */
  private String tiktokPageUrl(JsonObject json, String path, String source, String botName) {
    String pageUrl = string(json, "page_url", path + ".page_url", null);
    if (pageUrl != null && !pageUrl.matches("https?://[^/?#\\s]+([/?#]\\S*)?")) {
      problems.add(path + ".page_url: must be an absolute http(s) URL");
    }
    if (pageUrl == null && botName != null) {
      pageUrl = "https://t.me/" + botName;
    }
    if (pageUrl == null && "web".equals(source)) {
      problems.add(path + ".page_url: required for a web integration when the workspace has no bot_name "
          + "(TikTok needs page.url on web events; events without a landing page would be refused)");
    }
    return pageUrl;
  }

  private Map<String, EventMappingOverride> eventMap(JsonObject json, String path) {
    Map<String, EventMappingOverride> map = new HashMap<>();
    for (String name : json.fieldNames()) {
      String itemPath = path + "." + name;
      if (!(json.getValue(name) instanceof JsonObject item)) {
        problems.add(itemPath + ": must be an object {\"meta\", \"tiktok\", \"monetary\"}");
        continue;
      }
      unknownKeys(item, itemPath, EVENT_MAPPING_KEYS);
      // Kept as written: what a row leaves out is filled from the default table at lookup.
      String meta = string(item, "meta", itemPath + ".meta", null);
      String tiktok = string(item, "tiktok", itemPath + ".tiktok", null);
      for (String nativeName : new String[] {meta, tiktok}) {
        if (nativeName != null && !NATIVE_EVENT_NAME.matcher(nativeName).matches()) {
          problems.add(itemPath + ": event names must be 1 to 50 letters, digits, _ - or spaces");
        }
      }
      Boolean monetary = item.getValue("monetary") == null ? null : bool(item, "monetary", itemPath + ".monetary", false);
      map.put(name, new EventMappingOverride(meta, tiktok, monetary));
    }
    return Map.copyOf(map);
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

  private boolean bool(JsonObject json, String key, String path, boolean fallback) {
    Object value = json.getValue(key);
    if (value == null) {
      return fallback;
    }
    if (value instanceof Boolean b) {
      return b;
    }
    problems.add(path + ": must be true or false");
    return fallback;
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  private static Set<String> union(Set<String> base, String... more) {
    Set<String> all = new java.util.HashSet<>(base);
    all.addAll(List.of(more));
    return Set.copyOf(all);
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
