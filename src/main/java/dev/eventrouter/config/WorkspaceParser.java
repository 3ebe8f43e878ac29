package dev.eventrouter.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The {@code workspaces} array: ids, API key hashes (unique across all workspaces), rate limits, event maps and the
 * report settings; integrations, bots, postback sources and alerts each by a parser of their own.
 */
final class WorkspaceParser {

  private static final Pattern KEY_HASH = Pattern.compile("sha256:[0-9a-f]{64}");
  /** An event name as the networks take it, and as an integration's {@code events} list names ours. */
  static final Pattern EVENT_NAME = Pattern.compile("[A-Za-z0-9_ -]{1,50}");
  private static final Set<String> WORKSPACE_KEYS = Set.of("id", "name", "api_keys", "publishable_keys",
      "rate_limit", "bot_name", "attribution_window_days", "integrations", "event_map", "telegram",
      "postback_sources", "unsubscribe_window_days", "report_currency", "currency_aliases", "funnel_events",
      "report_timezone", "alerts", "cost_sources", "reconcile", "keys");
  private static final Set<String> PUBLISHABLE_KEY_KEYS = Set.of("key", "allowed_origins");
  /** An origin as a browser sends it: http(s)://host[:port], nothing after; lowercase (browsers send it so). */
  private static final Pattern ORIGIN = Pattern.compile("https?://([a-z0-9-]+(\\.[a-z0-9-]+)*|\\[[0-9a-f:.]+])"
      + "(:[0-9]{1,5})?");
  private static final Set<String> EVENT_MAPPING_KEYS = Set.of("meta", "tiktok", "snapchat", "monetary");

  private final JsonReader r;
  private final IntegrationParser integrationParser;
  private final PostbackSourceParser postbackParser;
  private final AlertsParser alertsParser;
  private final TelegramParser telegramParser;
  private final CostSourceParser costSourceParser;
  /** Every key hash seen so far, in any workspace, with where: one key may open one workspace only. */
  private final Map<String, String> seenKeys = new HashMap<>();

  WorkspaceParser(JsonReader reader) {
    this.r = reader;
    this.integrationParser = new IntegrationParser(reader);
    this.postbackParser = new PostbackSourceParser(reader, this::keyHash);
    this.alertsParser = new AlertsParser(reader, integrationParser);
    this.telegramParser = new TelegramParser(reader);
    this.costSourceParser = new CostSourceParser(reader);
  }

  List<WorkspaceConfig> workspaces(Object value) {
    return r.uniqueObjects(value, "workspaces", this::workspace, WorkspaceConfig::id, "workspace");
  }

  private WorkspaceConfig workspace(JsonObject json, String path) {
    r.unknownKeys(json, path, WORKSPACE_KEYS);
    UUID id = r.uuid(json, "id", path + ".id");
    String name = r.string(json, "name", path + ".name", "");
    List<byte[]> legacyKeys = apiKeys(json.getValue("api_keys"), path + ".api_keys", json.getValue("keys") != null);
    List<PublishableKey> publishable = publishableKeys(json.getValue("publishable_keys"),
        path + ".publishable_keys");
    RateLimitConfig rateLimit = r.rateLimit(r.object(json, "rate_limit", path + ".rate_limit"), path + ".rate_limit",
        RateLimitConfig.DEFAULT);
    String ownBotName = telegramParser.botName(json, path);
    List<TelegramConfig> bots = telegramParser.bots(json.getValue("telegram"), path + ".telegram", ownBotName);
    // Without a bot_name of its own, the workspace sends visitors to its first bot.
    String botName = ownBotName == null && !bots.isEmpty() ? bots.get(0).name() : ownBotName;
    int window = (int) r.integer(json, "attribution_window_days", path + ".attribution_window_days",
        WorkspaceConfig.DEFAULT_ATTRIBUTION_WINDOW_DAYS, 1, 3650);
    List<IntegrationConfig> integrations = r.uniqueObjects(json.getValue("integrations"), path + ".integrations",
        (item, itemPath) -> integrationParser.integration(item, itemPath, botName), IntegrationConfig::id,
        "integration");
    Map<String, EventMappingOverride> eventMap =
        eventMap(r.object(json, "event_map", path + ".event_map"), path + ".event_map");
    List<PostbackSource> postbacks = r.uniqueObjects(json.getValue("postback_sources"), path + ".postback_sources",
        postbackParser::source, PostbackSource::id, "postback source");
    int unsubscribeWindow = (int) r.integer(json, "unsubscribe_window_days", path + ".unsubscribe_window_days",
        WorkspaceConfig.DEFAULT_UNSUBSCRIBE_WINDOW_DAYS, 0, 3650);
    ReportConfig report = new WorkspaceReportParser(r).report(json, path);
    AlertsConfig alerts = json.getValue("alerts") == null ? AlertsConfig.NONE
        : alertsParser.alerts(r.object(json, "alerts", path + ".alerts"), path + ".alerts", bots);
    List<CostSourceConfig> costSources = r.uniqueObjects(json.getValue("cost_sources"), path + ".cost_sources",
        costSourceParser::source, CostSourceConfig::id, "cost source");
    Set<String> accounts = costSources.stream().map(CostSourceConfig::account).collect(Collectors.toSet());
    List<AccessKey> keys = new AccessKeyParser(r, this::keyHash).keys(json.getValue("keys"), path + ".keys", accounts);
    if (json.getValue("api_keys") == null && keys.isEmpty() && json.getValue("keys") instanceof JsonArray) {
      r.problem(path + ".keys: has no key, and there are no api_keys: nothing could open the workspace");
    }
    return id == null ? null
        : new WorkspaceConfig(id, name, legacyKeys, publishable, rateLimit, botName, window, integrations, eventMap,
            bots, postbacks, unsubscribeWindow, report, alerts, costSources, keys);
  }

  /** The {@code api_keys}: required unless the workspace has {@code keys}. */
  private List<byte[]> apiKeys(Object value, String path, boolean hasKeys) {
    if (value == null && hasKeys) {
      return List.of();
    }
    if (!(value instanceof JsonArray array) || array.isEmpty()) {
      r.problem(path + ": required (unless the workspace has keys), a non-empty array of \"sha256:<hex>\" key "
          + "hashes");
      return List.of();
    }
    List<byte[]> hashes = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      byte[] hash = keyHash(array.getValue(i), path + "[" + i + "]");
      if (hash != null) {
        hashes.add(hash);
      }
    }
    return List.copyOf(hashes);
  }

  /** A key hash, unique across every workspace's API and publishable keys; null (with a problem) when not one. */
  private byte[] keyHash(Object item, String path) {
    if (!(item instanceof String text)) {
      r.problem(path + ": must be a string \"sha256:<hex>\"");
    } else if (!text.startsWith(ApiKeys.PREFIX)) {
      // Never echo the value: it is probably a real key.
      r.problem(path + ": looks like a plain API key; only its hash may be stored."
          + " Pipe the key to `java -jar target/event-router.jar hash-key` (or make a new one with generate-key)"
          + " and paste the sha256:... it prints");
    } else if (!KEY_HASH.matcher(text).matches()) {
      r.problem(path + ": malformed key hash, expected sha256: followed by 64 lowercase hex digits");
    } else {
      String earlier = seenKeys.putIfAbsent(text, path);
      if (earlier != null) {
        r.problem(path + ": the same API key is already configured at " + earlier);
      }
      return HexFormat.of().parseHex(text.substring(ApiKeys.PREFIX.length()));
    }
    return null;
  }

  /** {@code [{"key": "sha256:...", "allowed_origins": ["https://lp.example"]}]}; none when absent. */
  private List<PublishableKey> publishableKeys(Object value, String path) {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof JsonArray array)) {
      r.problem(path + ": must be an array of {\"key\", \"allowed_origins\"}");
      return List.of();
    }
    List<PublishableKey> keys = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      String itemPath = path + "[" + i + "]";
      if (!(array.getValue(i) instanceof JsonObject item)) {
        r.problem(itemPath + ": must be an object {\"key\", \"allowed_origins\"}");
        continue;
      }
      r.unknownKeys(item, itemPath, PUBLISHABLE_KEY_KEYS);
      byte[] hash = keyHash(item.getValue("key"), itemPath + ".key");
      List<String> origins = origins(item.getValue("allowed_origins"), itemPath + ".allowed_origins");
      if (hash != null) {
        keys.add(new PublishableKey(hash, origins));
      }
    }
    return List.copyOf(keys);
  }

  private List<String> origins(Object value, String path) {
    if (!(value instanceof JsonArray array) || array.isEmpty()) {
      r.problem(path + ": required, a non-empty array of origins such as \"https://lp.example\"");
      return List.of();
    }
    List<String> origins = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      Object item = array.getValue(i);
      if (item instanceof String origin && ORIGIN.matcher(origin).matches()) {
        origins.add(origin);
      } else {
        r.problem(path + "[" + i + "]: must be an origin as a browser sends it: http(s)://host[:port] in lowercase, "
            + "without a path or a trailing slash");
      }
    }
    return List.copyOf(origins);
  }

  private Map<String, EventMappingOverride> eventMap(JsonObject json, String path) {
    Map<String, EventMappingOverride> map = new HashMap<>();
    for (String name : json.fieldNames()) {
      String itemPath = path + "." + name;
      if (!(json.getValue(name) instanceof JsonObject item)) {
        r.problem(itemPath + ": must be an object {\"meta\", \"tiktok\", \"snapchat\", \"monetary\"}");
        continue;
      }
      r.unknownKeys(item, itemPath, EVENT_MAPPING_KEYS);
      // Kept as written: what a row leaves out is filled from the default table at lookup.
      String meta = r.string(item, "meta", itemPath + ".meta", null);
      String tiktok = r.string(item, "tiktok", itemPath + ".tiktok", null);
      for (String nativeName : new String[] {meta, tiktok}) {
        if (nativeName != null && !EVENT_NAME.matcher(nativeName).matches()) {
          r.problem(itemPath + ": event names must be 1 to 50 letters, digits, _ - or spaces");
        }
      }
      String snapchat = r.string(item, "snapchat", itemPath + ".snapchat", null);
      if (snapchat != null && !SnapchatEvents.STANDARD.contains(snapchat)) {
        r.problem(itemPath + ".snapchat: must be one of Snapchat's event names: "
            + String.join(", ", SnapchatEvents.STANDARD));
      }
      Boolean monetary = item.getValue("monetary") == null ? null
          : r.bool(item, "monetary", itemPath + ".monetary", false);
      map.put(name, new EventMappingOverride(meta, tiktok, snapchat, monetary));
    }
    return Map.copyOf(map);
  }
}
