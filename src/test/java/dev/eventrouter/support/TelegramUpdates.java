package dev.eventrouter.support;

import io.vertx.core.json.JsonObject;

/**
 * Telegram updates as the Bot API sends them to a webhook (https://core.telegram.org/bots/api#update): a user's
 * /start, a join request through an invite link, a chat member's change; without their update_id, which the sender
 * adds.
 */
public final class TelegramUpdates {

  private TelegramUpdates() {}

  public static JsonObject user(long id) {
    return new JsonObject().put("id", id).put("is_bot", false).put("first_name", "U");
  }

  public static JsonObject chat(long channel) {
    return new JsonObject().put("id", channel).put("title", "Signals").put("type", "channel");
  }

  /** {@code /start <session>} in the user's private chat with the bot. */
  public static JsonObject start(long user, String session) {
    return new JsonObject().put("message", new JsonObject().put("message_id", 1).put("from", user(user))
        .put("chat", new JsonObject().put("id", user).put("type", "private")).put("date", 1795406070)
        .put("text", "/start " + session));
  }

  /** A link the bot's owner made for a session ({@code er:<session>}). */
  public static JsonObject link(String session, boolean request) {
    return new JsonObject().put("invite_link", "https://t.me/+" + session).put("name", "er:" + session)
        .put("creator", user(1)).put("creates_join_request", request).put("is_primary", false)
        .put("is_revoked", false);
  }

  public static JsonObject joinRequest(long channel, long user, String session) {
    return new JsonObject().put("chat_join_request", new JsonObject().put("chat", chat(channel))
        .put("from", user(user)).put("user_chat_id", user).put("date", 1795406060).put("invite_link",
            link(session, true)));
  }

  /** A member's status changing from {@code from} to {@code to}, through {@code link} (or none: null). */
  public static JsonObject member(long channel, long user, String from, String to, JsonObject link) {
    JsonObject change = new JsonObject().put("chat", chat(channel)).put("from", user(user)).put("date", 1795406080)
        .put("old_chat_member", new JsonObject().put("status", from).put("user", user(user)))
        .put("new_chat_member", new JsonObject().put("status", to).put("user", user(user)));
    return new JsonObject().put("chat_member", link == null ? change : change.put("invite_link", link));
  }
}
