package dev.eventrouter.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** A workspace's {@code telegram}: the connector's bots, their channels, Bot API address and pass-through. */
final class TelegramParser {

  // Telegram bot usernames: 5 to 32 characters of letters, digits and underscores, starting with a letter.
  private static final Pattern BOT_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{4,31}");
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

  private final JsonReader r;
  private final PrivateNetworkRule addresses;

  TelegramParser(JsonReader reader) {
    this.r = reader;
    this.addresses = new PrivateNetworkRule(reader);
  }

  /**
   * The Telegram connector's bots: one object (the single-bot form, named by its own or the workspace's bot_name, if
   * at all), or a list of bots, each named, no two with one name or one channel (a join to a channel two bots
   * administer would reach both, and count twice). Empty when the workspace has none.
   */
  List<TelegramConfig> bots(Object value, String path, String workspaceBot) {
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
    if (startEvent != null && !WorkspaceParser.EVENT_NAME.matcher(startEvent).matches()) {
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
    } else if (!TelegramConfig.local(apiBase) && PrivateNetworkRule.namesPrivate(apiBase)) {
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
    boolean allowPrivate = addresses.allowed(json, path);
    if (!url.matches("https?://[^/?#\\s]+([/?#]\\S*)?")) {
      r.problem(path + ".url: required, the absolute http(s) URL of the bot's own webhook");
    } else {
      addresses.check(url, allowPrivate, path + ".url", "in pass_through");
    }
    String secret = r.string(json, "secret_token", path + ".secret_token", null);
    if (secret != null && !WEBHOOK_SECRET.matcher(secret).matches()) {
      r.problem(path + ".secret_token: must be 16 to 256 characters of A-Z a-z 0-9 _ - (the bot's own webhook "
          + "secret; use \"${ENV_NAME}\")");
    }
    return new TelegramConfig.PassThrough(url, secret, allowPrivate);
  }

  /** The bot's username, a leading '@' dropped, or null. */
  String botName(JsonObject json, String path) {
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
}
