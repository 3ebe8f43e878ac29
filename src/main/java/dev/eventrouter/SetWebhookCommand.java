package dev.eventrouter;

import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.common.ProxyRoutes;
import dev.eventrouter.config.AppConfig;
import dev.eventrouter.config.ConfigException;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.TelegramConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.telegram.BotApi;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * {@code telegram-webhook --workspace ID --url PUBLIC_URL [--bot NAME] [--config PATH] [--allowed-updates a,b]}:
 * points each of the workspace's bots (or the one named) at this service's receiver with setWebhook
 * (https://core.telegram.org/bots/api#setwebhook), each at its own path and with its own webhook secret from the
 * config, so the set-up needs no hand-made request and no secret has to be typed.
 */
final class SetWebhookCommand {

  static final String USAGE = "usage: java -jar event-router.jar telegram-webhook --workspace ID --url PUBLIC_URL"
      + " [--bot NAME] [--config PATH] [--allowed-updates TYPE,...]";
  /** What the receiver reads: /start messages, join requests, joins through a link. */
  static final List<String> RECEIVER_UPDATES = List.of("message", "chat_join_request", "chat_member");
  /**
   * What a bot that never chose gets (https://core.telegram.org/bots/api#setwebhook: every type but chat_member,
   * message_reaction and message_reaction_count), of the types of https://core.telegram.org/bots/api#update.
   */
  static final List<String> TELEGRAM_DEFAULT = List.of("message", "edited_message", "channel_post",
      "edited_channel_post", "business_connection", "business_message", "edited_business_message",
      "deleted_business_messages", "inline_query", "chosen_inline_result", "callback_query", "shipping_query",
      "pre_checkout_query", "purchased_paid_media", "poll", "poll_answer", "my_chat_member", "chat_join_request",
      "chat_boost", "removed_chat_boost");
  private static final long TIMEOUT_MS = 15_000;

  private SetWebhookCommand() {}

  /**
   * setWebhook replaces the bot's list, so a bot whose updates pass through keeps every type it gets now (Telegram's
   * default when it never chose), with the receiver's added.
   */
  static List<String> withReceivers(List<String> current) {
    Set<String> types = new LinkedHashSet<>(current == null ? TELEGRAM_DEFAULT : current);
    types.addAll(RECEIVER_UPDATES);
    return List.copyOf(types);
  }

  static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
    String workspaceId = null;
    String url = null;
    String configPath = null;
    String botName = null;
    List<String> allowed = null;
    for (int i = 1; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (value == null ? "" : args[i]) {
        case "--workspace" -> workspaceId = value;
        case "--url" -> url = value;
        case "--config" -> configPath = value;
        case "--bot" -> botName = value.startsWith("@") ? value.substring(1) : value;
        case "--allowed-updates" -> allowed = Arrays.stream(value.split(",")).map(String::trim).toList();
        default -> {
          err.println(USAGE);
          return 2;
        }
      }
      i++;
    }
    if (workspaceId == null || url == null || !url.matches("https://[^/?#\\s]+(/[^?#\\s]*)?")) {
      err.println(USAGE + "\n(PUBLIC_URL: the https:// address Telegram reaches this service at; Telegram calls "
          + "webhooks over HTTPS only)");
      return 2;
    }
    ConfigLoader loader = new ConfigLoader(env);
    WorkspaceConfig workspace;
    try {
      AppConfig config = loader.readNow(loader.path(configPath));
      workspace = config.workspace(UUID.fromString(workspaceId)).orElse(null);
    } catch (ConfigException e) {
      err.println(e.getMessage());
      return 1;
    } catch (IllegalArgumentException e) {
      err.println("--workspace: not a workspace id (a UUID)");
      return 2;
    }
    String named = botName;
    List<TelegramConfig> bots = workspace == null ? List.of() : workspace.bots().stream()
        .filter(bot -> bot.botToken() != null && (named == null || named.equalsIgnoreCase(bot.name()))).toList();
    if (bots.isEmpty()) {
      err.println("workspace " + workspaceId + " has no telegram.bot_token" + (named == null ? ""
          : " of a bot named " + named) + " in the config: setWebhook needs the bot");
      return 1;
    }
    String base = url.replaceAll("/+$", "") + "/telegram/" + workspace.id() + "/webhook";
    Vertx vertx = Vertx.vertx();
    try {
      // No redirects: the bot token is in the URL, and it goes to the configured api_base only.
      BotApi api = new BotApi(new CheckedRequests(vertx, WebClient.create(vertx, CheckedRequests.options(TIMEOUT_MS)),
          new ProxyRoutes(vertx, TIMEOUT_MS)), TIMEOUT_MS);
      int failed = 0;
      for (TelegramConfig bot : bots) {
        // The default bot at the plain path, as with a single bot; each other at its name's.
        String key = workspace.botKey(bot);
        failed += setWebhook(api, bot, key.isEmpty() ? base : base + "/" + key, allowed, out, err);
      }
      return failed == 0 ? 0 : 1;
    } finally {
      vertx.close();
    }
  }

  /** Points one bot at its receiver path; 1 when that failed (said on err), else 0. */
  private static int setWebhook(BotApi api, TelegramConfig bot, String webhook, List<String> allowed,
                                PrintStream out, PrintStream err) {
    String who = bot.name() == null ? "the bot" : "@" + bot.name();
    try {
      List<String> updates = allowed != null ? allowed
          : bot.passThrough() == null ? RECEIVER_UPDATES : withReceivers(api.allowedUpdates(bot).await());
      api.setWebhook(bot, webhook, updates).await();
      out.println("Telegram sends " + who + "'s updates to " + webhook + " (" + String.join(", ", updates) + ")");
      return 0;
    } catch (BotApi.Failure refused) {
      err.println(who + ": Telegram refused: " + refused.getMessage());
      return 1;
    } catch (Exception e) {
      err.println(who + ": setWebhook failed: " + e.getClass().getSimpleName());
      return 1;
    }
  }
}
