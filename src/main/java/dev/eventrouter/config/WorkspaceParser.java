package dev.eventrouter.config;

import dev.eventrouter.common.CurrencyCode;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/** The {@code workspaces} array: ids, API key hashes (unique across all workspaces), rate limits and event maps. */
final class WorkspaceParser {

  private static final Pattern KEY_HASH = Pattern.compile("sha256:[0-9a-f]{64}");
  // Telegram bot usernames: 5 to 32 characters of letters, digits and underscores, starting with a letter.
  private static final Pattern BOT_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{4,31}");
  /** An event name as the networks take it, and as an integration's {@code events} list names ours. */
  static final Pattern EVENT_NAME = Pattern.compile("[A-Za-z0-9_ -]{1,50}");
  private static final Set<String> WORKSPACE_KEYS = Set.of("id", "name", "api_keys", "publishable_keys",
      "rate_limit", "bot_name", "attribution_window_days", "integrations", "event_map", "telegram",
      "postback_sources", "unsubscribe_window_days", "report_currency", "currency_aliases", "funnel_events",
      "report_timezone", "alerts");
  /** A sender's unit that is not an ISO code: USDT, USDC, a casino's own. */
  private static final Pattern CURRENCY_UNIT = Pattern.compile("[A-Za-z0-9]{2,10}");
  private static final Set<String> TELEGRAM_KEYS = Set.of("bot_name", "webhook_secret", "start_event", "bot_token",
      "channel_id", "channels", "invite_link_pool", "approve_join_requests", "api_base", "pass_through", "proxy");
  private static final Set<String> PASS_THROUGH_KEYS = Set.of("url", "secret_token", "allow_private_network");
  /** A local Bot API server (https://github.com/tdlib/telegram-bot-api), or a test's fake. */
  private static final String LOOPBACK_HTTP = "http://(localhost|127\\.0\\.0\\.1|\\[::1])(:[0-9]{1,5})?(/[^?#\\s]*)?";
  /**
   * A Bot API token as @BotFather gives it: the bot's id, a colon, the secret
   * (https://core.telegram.org/bots/api#authorizing-your-bot).
   */
  static final Pattern BOT_TOKEN = Pattern.compile("[0-9]{1,20}:[A-Za-z0-9_-]{20,100}");
  /**
   * A chat's id (a channel's is -100...) or a public channel's @username
   * (https://core.telegram.org/bots/api#createchatinvitelink).
   */
  static final Pattern CHANNEL_ID = Pattern.compile("-?[0-9]{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31}");
  /** What Telegram allows as a webhook's secret_token: https://core.telegram.org/bots/api#setwebhook. */
  private static final Pattern WEBHOOK_SECRET = Pattern.compile("[A-Za-z0-9_-]{16,256}");
  private static final Set<String> PUBLISHABLE_KEY_KEYS = Set.of("key", "allowed_origins");
  /** An origin as a browser sends it: http(s)://host[:port], nothing after; lowercase (browsers send it so). */
  private static final Pattern ORIGIN = Pattern.compile("https?://([a-z0-9-]+(\\.[a-z0-9-]+)*|\\[[0-9a-f:.]+])"
      + "(:[0-9]{1,5})?");
  private static final Set<String> EVENT_MAPPING_KEYS = Set.of("meta", "tiktok", "monetary");

  private final JsonReader r;
  private final IntegrationParser integrationParser;
  private final PostbackSourceParser postbackParser;
  private final AlertsParser alertsParser;
  /** Every key hash seen so far, in any workspace, with where: one key may open one workspace only. */
  private final Map<String, String> seenKeys = new HashMap<>();

  WorkspaceParser(JsonReader reader) {
    this.r = reader;
    this.integrationParser = new IntegrationParser(reader);
    this.postbackParser = new PostbackSourceParser(reader, this::keyHash);
    this.alertsParser = new AlertsParser(reader, integrationParser);
  }

  List<WorkspaceConfig> workspaces(Object value) {
    return r.uniqueObjects(value, "workspaces", this::workspace, WorkspaceConfig::id, "workspace");
  }

  private WorkspaceConfig workspace(JsonObject json, String path) {
    r.unknownKeys(json, path, WORKSPACE_KEYS);
    UUID id = r.uuid(json, "id", path + ".id");
    String name = r.string(json, "name", path + ".name", "");
    List<byte[]> keys = apiKeys(json.getValue("api_keys"), path + ".api_keys");
    List<PublishableKey> publishable = publishableKeys(json.getValue("publishable_keys"),
        path + ".publishable_keys");
    RateLimitConfig rateLimit = r.rateLimit(r.object(json, "rate_limit", path + ".rate_limit"), path + ".rate_limit",
        RateLimitConfig.DEFAULT);
    String ownBotName = botName(json, path);
    List<TelegramConfig> bots = bots(json.getValue("telegram"), path + ".telegram", ownBotName);
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
    ReportConfig report = report(json, path);
    AlertsConfig alerts = json.getValue("alerts") == null ? AlertsConfig.NONE
        : alertsParser.alerts(r.object(json, "alerts", path + ".alerts"), path + ".alerts", bots);
    return id == null ? null
        : new WorkspaceConfig(id, name, keys, publishable, rateLimit, botName, window, integrations, eventMap, bots,
            postbacks, unsubscribeWindow, report, alerts);
  }

  /** The report's currency, the senders' currency aliases and the funnel's event names. */
  private ReportConfig report(JsonObject json, String path) {
    String currency = CurrencyCode.iso(r.string(json, "report_currency", path + ".report_currency",
        ReportConfig.DEFAULT.currency()));
    if (currency == null) {
      r.problem(path + ".report_currency: must be a 3-letter ISO 4217 code such as USD");
    }
    Map<String, String> aliases = new LinkedHashMap<>();
    JsonObject aliasJson = r.object(json, "currency_aliases", path + ".currency_aliases");
    for (String unit : aliasJson.fieldNames()) {
      String iso = aliasJson.getValue(unit) instanceof String text ? CurrencyCode.iso(text) : null;
      if (!CURRENCY_UNIT.matcher(unit).matches() || iso == null) {
        r.problem(path + ".currency_aliases." + unit + ": must map a unit of 2 to 10 letters or digits to a 3-letter"
            + " ISO 4217 code, such as \"USDT\": \"USD\"");
      } else {
        aliases.put(unit.toUpperCase(Locale.ROOT), iso);
      }
    }
    Set<String> funnel = r.strings(json, "funnel_events", path + ".funnel_events", EVENT_NAME,
        "an event name of 1 to 50 letters, digits, spaces, _ or -");
    String zoneName = r.string(json, "report_timezone", path + ".report_timezone", "UTC");
    ZoneId zone = ReportZone.configured(zoneName);
    if (zone == null) {
      r.problem(path + ".report_timezone: " + ReportZone.RULE);
      zone = ZoneOffset.UTC;
    }
    return new ReportConfig(currency == null ? ReportConfig.DEFAULT.currency() : currency, Map.copyOf(aliases),
        funnel == null ? ReportConfig.DEFAULT.funnelEvents() : List.copyOf(funnel), zone);
  }

  /**
   * The Telegram connector's bots: one object (the single-bot form, named by its own or the workspace's bot_name, if
   * at all), or a list of bots, each named, no two with one name or one channel (a join to a channel two bots
   * administer would reach both, and count twice). Empty when the workspace has none.
   */
  private List<TelegramConfig> bots(Object value, String path, String workspaceBot) {
    if (value == null) {
      return List.of();
    }
    if (value instanceof JsonObject json) {
      return List.of(bot(json, path, workspaceBot));
    }
    if (!(value instanceof JsonArray array) || array.isEmpty()) {
      r.problem(path + ": must be an object {\"webhook_secret\", \"bot_token\", ...} or a non-empty list of them");
      return List.of();
    }
    Map<String, String> seen = new HashMap<>();
    return r.objects(array, path, (item, itemPath) -> {
      TelegramConfig bot = bot(item, itemPath, null);
      if (bot.name() == null) {
        r.problem(itemPath + ".bot_name: required in a list of bots (the bot's username: its webhook path and the "
            + "name its sessions are reported by)");
      } else {
        unique(seen, "bot_name " + bot.name(), itemPath + ".bot_name");
      }
      bot.channels().forEach(channel -> unique(seen, "channel " + channel, itemPath + ".channels"));
      return bot;
    });
  }

  private void unique(Map<String, String> seen, String what, String path) {
    String earlier = seen.putIfAbsent(what.toLowerCase(Locale.ROOT), path);
    if (earlier != null) {
      r.problem(path + ": " + what + " is also at " + earlier + " (one bot per name and per channel)");
    }
  }

  /** One bot's settings. */
  private TelegramConfig bot(JsonObject json, String path, String workspaceBot) {
    r.unknownKeys(json, path, TELEGRAM_KEYS);
    String name = json.containsKey("bot_name") ? botName(json, path) : workspaceBot;
    String secret = r.string(json, "webhook_secret", path + ".webhook_secret", null);
    if (secret == null || !WEBHOOK_SECRET.matcher(secret).matches()) {
      // Never echo the value: it is a secret.
      r.problem(path + ".webhook_secret: required, 16 to 256 characters of A-Z a-z 0-9 _ - (use \"${ENV_NAME}\" to "
          + "keep it out of the file)");
    }
    String startEvent = r.string(json, "start_event", path + ".start_event", null);
    if (startEvent != null && !EVENT_NAME.matcher(startEvent).matches()) {
      r.problem(path + ".start_event: must be an event name (1 to 50 letters, digits, '_', '-' or spaces)");
    }
    String token = r.string(json, "bot_token", path + ".bot_token", null);
    if (token != null && !BOT_TOKEN.matcher(token).matches()) {
      r.problem(path + ".bot_token: must be a Bot API token as @BotFather gives it (<bot id>:<secret>; use "
          + "\"${ENV_NAME}\" to keep it out of the file)");
    }
    List<String> channels = channels(json, path);
    int pool = (int) r.integer(json, "invite_link_pool", path + ".invite_link_pool",
        TelegramConfig.DEFAULT_INVITE_LINK_POOL, 1, 100);
    boolean approve = r.bool(json, "approve_join_requests", path + ".approve_join_requests", false);
    if (token == null && (!channels.isEmpty() || approve)) {
      r.problem(path + ": channel_id or channels and approve_join_requests need the bot's bot_token");
    } else if (approve && !json.containsKey("channel_id") && !json.containsKey("channels")) {
      // Only joins of the configured channels are approved: a bot may administer other chats too.
      r.problem(path + ".approve_join_requests: needs channel_id or channels, the channels whose join requests are "
          + "approved");
    }
    return new TelegramConfig(name, secret, startEvent, token, channels, pool, approve, apiBase(r, json, path),
        json.getValue("pass_through") == null ? null
            : passThrough(r.object(json, "pass_through", path + ".pass_through"), path + ".pass_through"),
        new ProxyParser(r).proxy(json, path));
  }

  /** A bot's {@code api_base}, without a trailing slash: the Bot API's own unless set. */
  static String apiBase(JsonReader r, JsonObject json, String path) {
    String apiBase = r.string(json, "api_base", path + ".api_base", TelegramConfig.DEFAULT_API_BASE);
    if (!apiBase.matches("https://[^/?#\\s]+(/[^?#\\s]*)?") && !apiBase.matches(LOOPBACK_HTTP)) {
      r.problem(path + ".api_base: must be an https URL without query (the bot token is in every request's URL;"
          + " plain http only to localhost)");
    } else if (!TelegramConfig.local(apiBase) && IntegrationParser.namesPrivate(apiBase)) {
      r.problem(path + ".api_base: the host is a loopback, link-local, private or unspecified address; the Bot API "
          + "is called at a public address, or at localhost, 127.0.0.1 or [::1] as written (a local Bot API server)");
    }
    return IntegrationParser.stripSlash(apiBase);
  }

  /** {@code channel_id} (one) or {@code channels} (a list): numeric ids or @usernames, each once. */
  private List<String> channels(JsonObject json, String path) {
    Object one = json.getValue("channel_id");
    Object list = json.getValue("channels");
    if (json.containsKey("channel_id") && json.containsKey("channels")) {
      r.problem(path + ": channel_id or channels, not both");
      return List.of();
    }
    if (list == null) {
      return one == null ? List.of() : channelIds(List.of(one), path + ".channel_id: must be ");
    }
    if (!(list instanceof JsonArray array)) {
      r.problem(path + ".channels: must be a list of channel ids");
      return List.of();
    }
    return channelIds(array, path + ".channels: must be a list of ");
  }

  /** The valid ids among {@code items}, each once; each invalid one reported after {@code problem}. */
  private List<String> channelIds(Iterable<?> items, String problem) {
    Set<String> channels = new LinkedHashSet<>();
    for (Object item : items) {
      String channel = item instanceof Number n && n.doubleValue() == n.longValue()
          ? String.valueOf(n.longValue()) : item instanceof String text ? text : null;
      if (channel == null || !CHANNEL_ID.matcher(channel).matches()) {
        r.problem(problem + "the channel's numeric id (-100...) or its @username");
      } else {
        channels.add(channel);
      }
    }
    return List.copyOf(channels);
  }

  /** Where the bot's updates go on to, or null. */
  private TelegramConfig.PassThrough passThrough(JsonObject json, String path) {
    r.unknownKeys(json, path, PASS_THROUGH_KEYS);
    String url = r.string(json, "url", path + ".url", "");
    boolean allowPrivate = r.bool(json, "allow_private_network", path + ".allow_private_network", false);
    if (!url.matches("https?://[^/?#\\s]+([/?#]\\S*)?")) {
      r.problem(path + ".url: required, the absolute http(s) URL of the bot's own webhook");
    } else if (!allowPrivate && IntegrationParser.namesPrivate(url)) {
      r.problem(path + ".url: the host is a loopback, link-local, private or unspecified address (or localhost); "
          + "set \"allow_private_network\": true in pass_through to send there");
    }
    String secret = r.string(json, "secret_token", path + ".secret_token", null);
    if (secret != null && !WEBHOOK_SECRET.matcher(secret).matches()) {
      r.problem(path + ".secret_token: must be 16 to 256 characters of A-Z a-z 0-9 _ - (the bot's own webhook "
          + "secret; use \"${ENV_NAME}\")");
    }
    return new TelegramConfig.PassThrough(url, secret, allowPrivate);
  }

  /** The bot's username, a leading '@' dropped, or null. */
  private String botName(JsonObject json, String path) {
    String botName = r.string(json, "bot_name", path + ".bot_name", null);
    if (botName == null) {
      return null;
    }
    botName = botName.startsWith("@") ? botName.substring(1) : botName;
    if (!BOT_NAME.matcher(botName).matches()) {
      r.problem(path + ".bot_name: must be a Telegram bot username (5 to 32 letters, digits or _)");
    }
    return botName;
  }

  private List<byte[]> apiKeys(Object value, String path) {
    if (!(value instanceof JsonArray array) || array.isEmpty()) {
      r.problem(path + ": required, a non-empty array of \"sha256:<hex>\" key hashes");
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
        r.problem(itemPath + ": must be an object {\"meta\", \"tiktok\", \"monetary\"}");
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
      Boolean monetary = item.getValue("monetary") == null ? null
          : r.bool(item, "monetary", itemPath + ".monetary", false);
      map.put(name, new EventMappingOverride(meta, tiktok, monetary));
    }
    return Map.copyOf(map);
  }
}
