package dev.eventrouter;

import dev.eventrouter.config.AppConfig;
import dev.eventrouter.config.ConfigException;
import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.TelegramConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.telegram.BotApi;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * {@code telegram-webhook --workspace ID --url PUBLIC_URL [--config PATH] [--allowed-updates a,b]}: points the
 * workspace's bot at this service's receiver with setWebhook (https://core.telegram.org/bots/api#setwebhook), with
 * the config's webhook secret, so the set-up needs no hand-made request and the secret never has to be typed.
 */
final class SetWebhookCommand {

  static final String USAGE = "usage: java -jar event-router.jar telegram-webhook --workspace ID --url PUBLIC_URL"
      + " [--config PATH] [--allowed-updates TYPE,...]";
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
    List<String> allowed = null;
    for (int i = 1; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (value == null ? "" : args[i]) {
        case "--workspace" -> workspaceId = value;
        case "--url" -> url = value;
        case "--config" -> configPath = value;
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
    TelegramConfig bot;
    UUID workspace;
    try {
      AppConfig config = loader.readNow(loader.path(configPath));
      workspace = UUID.fromString(workspaceId);
      bot = config.workspace(workspace).map(WorkspaceConfig::telegram).orElse(null);
    } catch (ConfigException e) {
      err.println(e.getMessage());
      return 1;
    } catch (IllegalArgumentException e) {
      err.println("--workspace: not a workspace id (a UUID)");
      return 2;
    }
    if (bot == null || bot.botToken() == null) {
      err.println("workspace " + workspaceId + " has no telegram.bot_token in the config: setWebhook needs the bot");
      return 1;
    }
    String webhook = url.replaceAll("/+$", "") + "/telegram/" + workspace + "/webhook";
    Vertx vertx = Vertx.vertx();
    try {
      // No redirects: the bot token is in the URL, and it goes to the configured api_base only.
      BotApi api = new BotApi(WebClient.create(vertx, new WebClientOptions().setFollowRedirects(false)), TIMEOUT_MS);
      List<String> updates = allowed != null ? allowed
          : bot.passThrough() == null ? RECEIVER_UPDATES : withReceivers(api.allowedUpdates(bot).await());
      api.setWebhook(bot, webhook, updates).await();
      out.println("Telegram sends the bot's updates to " + webhook + " (" + String.join(", ", updates) + ")");
      return 0;
    } catch (BotApi.Failure refused) {
      err.println("Telegram refused: " + refused.getMessage());
      return 1;
    } catch (Exception e) {
      err.println("setWebhook failed: " + e.getClass().getSimpleName());
      return 1;
    } finally {
      vertx.close();
    }
  }
}
