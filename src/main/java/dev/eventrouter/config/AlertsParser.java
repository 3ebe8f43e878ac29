package dev.eventrouter.config;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A workspace's {@code alerts}: its targets (Telegram chats, signed webhooks) and its conditions, each on unless set
 * to false, with its thresholds. Durations are in minutes, fractions allowed.
 */
final class AlertsParser {

  private static final Set<String> KEYS = Set.of("targets", "summary_minutes", "integration_paused", "breaker_open",
      "deliveries_failed", "conversions_stopped", "postbacks_unmatched", "postback_macros", "invite_pool_empty",
      "cost_source_failed", "network_undercounts");
  private static final Set<String> TELEGRAM_KEYS = Set.of("type", "chat_id", "bot", "bot_token", "api_base", "proxy");
  private static final Set<String> WINDOW_KEYS = Set.of("enabled", "window_minutes", "min_count");
  private static final Set<String> HOLD_KEYS = Set.of("enabled", "minutes");
  private static final Set<String> QUIET_KEYS = Set.of("enabled", "hours", "days");
  private static final Set<String> UNDERCOUNT_KEYS = Set.of("enabled", "min_delivered");
  /** A week: longer periods and windows say nothing a buyer acts on. */
  private static final double MAX_MINUTES = 7 * 24 * 60;

  static final Duration DEFAULT_SUMMARY = Duration.ofHours(1);
  static final Duration DEFAULT_BREAKER_OPEN = Duration.ofMinutes(10);
  static final AlertsConfig.Window DEFAULT_DELIVERIES_FAILED = new AlertsConfig.Window(Duration.ofMinutes(15), 1);
  static final AlertsConfig.Quiet DEFAULT_CONVERSIONS_STOPPED = new AlertsConfig.Quiet(3, 7);
  static final AlertsConfig.Window DEFAULT_POSTBACKS_UNMATCHED = new AlertsConfig.Window(Duration.ofHours(1), 1);
  static final AlertsConfig.Window DEFAULT_POSTBACK_MACROS = new AlertsConfig.Window(Duration.ofHours(1), 1);
  static final Duration DEFAULT_INVITE_POOL_EMPTY = Duration.ofMinutes(5);
  /** Failing polls are retried every 5 minutes: an hour of them is a source that will not come back alone. */
  static final Duration DEFAULT_COST_SOURCE_FAILED = Duration.ofMinutes(60);
  /** Fewer deliveries than this in a day say little of a ratio. */
  static final long DEFAULT_MIN_DELIVERED = 20;

  private final JsonReader r;
  private final IntegrationParser integrations;

  AlertsParser(JsonReader reader, IntegrationParser integrations) {
    this.r = reader;
    this.integrations = integrations;
  }

  /** @param bots the workspace's connector bots, which a Telegram target may send through */
  AlertsConfig alerts(JsonObject json, String path, List<TelegramConfig> bots) {
    r.unknownKeys(json, path, KEYS);
    List<AlertTarget> targets = targets(json.getValue("targets"), path + ".targets", bots);
    Duration summary = minutes(json, "summary_minutes", path + ".summary_minutes", DEFAULT_SUMMARY, false);
    boolean paused = r.bool(json, "integration_paused", path + ".integration_paused", true);
    JsonObject breaker = condition(json, "breaker_open", path, HOLD_KEYS);
    JsonObject failed = condition(json, "deliveries_failed", path, WINDOW_KEYS);
    JsonObject quiet = condition(json, "conversions_stopped", path, QUIET_KEYS);
    JsonObject unmatched = condition(json, "postbacks_unmatched", path, WINDOW_KEYS);
    JsonObject macros = condition(json, "postback_macros", path, WINDOW_KEYS);
    JsonObject pool = condition(json, "invite_pool_empty", path, HOLD_KEYS);
    JsonObject costs = condition(json, "cost_source_failed", path, HOLD_KEYS);
    // Off unless set: it needs the cost import's counts, and a threshold the buyer has looked at.
    JsonObject undercounts = json.getValue("network_undercounts") == null ? null
        : condition(json, "network_undercounts", path, UNDERCOUNT_KEYS);
    return new AlertsConfig(targets, summary, paused,
        breaker == null ? null : minutes(breaker, "minutes", path + ".breaker_open.minutes", DEFAULT_BREAKER_OPEN,
            true),
        window(failed, path + ".deliveries_failed", DEFAULT_DELIVERIES_FAILED),
        quiet == null ? null : new AlertsConfig.Quiet(
            (int) r.integer(quiet, "hours", path + ".conversions_stopped.hours",
                DEFAULT_CONVERSIONS_STOPPED.hours(), 1, 72),
            (int) r.integer(quiet, "days", path + ".conversions_stopped.days", DEFAULT_CONVERSIONS_STOPPED.days(), 1,
                7)),
        window(unmatched, path + ".postbacks_unmatched", DEFAULT_POSTBACKS_UNMATCHED),
        window(macros, path + ".postback_macros", DEFAULT_POSTBACK_MACROS),
        pool == null ? null : minutes(pool, "minutes", path + ".invite_pool_empty.minutes", DEFAULT_INVITE_POOL_EMPTY,
            true),
        costs == null ? null : minutes(costs, "minutes", path + ".cost_source_failed.minutes",
            DEFAULT_COST_SOURCE_FAILED, true),
        undercounts == null ? null : new AlertsConfig.Undercounts(r.integer(undercounts, "min_delivered",
            path + ".network_undercounts.min_delivered", DEFAULT_MIN_DELIVERED, 1, 1_000_000)));
  }

  /**
   * A condition's settings: absent or {@code true}, its defaults; {@code false} or {@code "enabled": false}, off
   * (null); an object, its settings.
   */
  private JsonObject condition(JsonObject json, String key, String path, Set<String> keys) {
    Object value = json.getValue(key);
    String at = path + "." + key;
    if (value == null || Boolean.TRUE.equals(value)) {
      return new JsonObject();
    }
    if (Boolean.FALSE.equals(value)) {
      return null;
    }
    if (!(value instanceof JsonObject settings)) {
      r.problem(at + ": must be true, false or an object of its settings");
      return null;
    }
    r.unknownKeys(settings, at, keys);
    return r.bool(settings, "enabled", at + ".enabled", true) ? settings : null;
  }

  private AlertsConfig.Window window(JsonObject json, String path, AlertsConfig.Window defaults) {
    if (json == null) {
      return null;
    }
    return new AlertsConfig.Window(minutes(json, "window_minutes", path + ".window_minutes", defaults.window(), false),
        r.integer(json, "min_count", path + ".min_count", defaults.minCount(), 1, 1_000_000));
  }

  /**
   * A number of minutes (fractions allowed) as a duration; the fallback when absent. A wrong one is a problem, which
   * refuses the config.
   */
  private Duration minutes(JsonObject json, String key, String path, Duration fallback, boolean zeroAllowed) {
    Object value = json.getValue(key);
    double minutes = value == null ? fallback.toMillis() / 60_000.0
        : value instanceof Number number ? number.doubleValue() : Double.NaN;
    if (!(minutes <= MAX_MINUTES && (zeroAllowed ? minutes >= 0 : minutes > 0))) { // NaN (not a number) fails both
      r.problem(path + ": must be a number of minutes from " + (zeroAllowed ? "0" : "more than 0") + " to "
          + (long) MAX_MINUTES + " (fractions allowed)");
    }
    return Duration.ofMillis(Math.round(minutes * 60_000));
  }

  private List<AlertTarget> targets(Object value, String path, List<TelegramConfig> bots) {
    if (!(value instanceof JsonArray array) || array.isEmpty()) {
      r.problem(path + ": required, a non-empty list of {\"type\": \"telegram\", \"chat_id\"} or {\"type\": "
          + "\"webhook\", \"url\", \"secret\"}");
      return List.of();
    }
    Map<String, String> seen = new HashMap<>();
    return r.objects(array, path, (item, itemPath) -> {
      AlertTarget target = target(item, itemPath, bots);
      String earlier = target == null ? null : seen.putIfAbsent(target.key(), itemPath);
      if (earlier != null) {
        r.problem(itemPath + ": the same target as " + earlier);
        return null;
      }
      return target;
    });
  }

  private AlertTarget target(JsonObject json, String path, List<TelegramConfig> bots) {
    Object type = json.getValue("type");
    if ("telegram".equals(type)) {
      return telegram(json, path, bots);
    }
    if ("webhook".equals(type)) {
      return new AlertTarget.Webhook(integrations.alertWebhook(json, path));
    }
    r.problem(path + ".type: required, \"telegram\" or \"webhook\"");
    return null;
  }

  /**
   * A chat, sent to by the bot named in {@code bot} (one of the workspace's), by a bot of its own
   * ({@code bot_token}), or else by the workspace's first bot with a token.
   */
  private AlertTarget telegram(JsonObject json, String path, List<TelegramConfig> bots) {
    r.unknownKeys(json, path, TELEGRAM_KEYS);
    Object chat = json.getValue("chat_id");
    String chatId = chat instanceof Number n && n.doubleValue() == n.longValue() ? String.valueOf(n.longValue())
        : chat instanceof String text ? text : null;
    if (chatId == null || !TelegramParser.CHANNEL_ID.matcher(chatId).matches()) {
      r.problem(path + ".chat_id: required, the chat's numeric id (a group's or channel's starts with -) or a "
          + "channel's @username");
    }
    String named = r.string(json, "bot", path + ".bot", null);
    String token = r.string(json, "bot_token", path + ".bot_token", null);
    TelegramConfig sender;
    if (token != null) {
      if (named != null) {
        r.problem(path + ": bot or bot_token, not both");
      }
      if (!TelegramParser.BOT_TOKEN.matcher(token).matches()) {
        r.problem(path + ".bot_token: must be a Bot API token as @BotFather gives it (<bot id>:<secret>; use "
            + "\"${ENV_NAME}\" to keep it out of the file)");
      }
      sender = TelegramConfig.sender(token, TelegramParser.apiBase(r, json, path),
          new ProxyParser(r).proxy(json, path));
    } else {
      if (json.containsKey("api_base") || json.containsKey("proxy")) {
        r.problem(path + ": api_base and proxy go with bot_token; a connector bot's own are used");
      }
      String bare = named != null && named.startsWith("@") ? named.substring(1) : named;
      sender = bots.stream().filter(bot -> bot.botToken() != null)
          .filter(bot -> bare == null || bare.equalsIgnoreCase(bot.name())).findFirst().orElse(null);
      if (sender == null) {
        r.problem(path + (bare == null ? ": needs a bot_token, as the workspace's telegram has no bot with a "
            + "bot_token" : ".bot: no bot named " + bare + " with a bot_token in the workspace's telegram"));
      }
    }
    return new AlertTarget.Telegram(sender, chatId); // with a problem recorded when either is missing
  }
}
