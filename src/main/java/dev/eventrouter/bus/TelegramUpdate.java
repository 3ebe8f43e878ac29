package dev.eventrouter.bus;

import io.vertx.core.json.JsonObject;

import java.util.UUID;

/**
 * What the webhook receiver hands the store for one Telegram update: the message of {@link Addresses#TELEGRAM_UPDATE},
 * answered with {@code {"session_id"}}, the session the update's invite link belongs to (null when none).
 *
 * @param bot         the bot's key: "" for the workspace's default bot, else its name (update ids are per bot)
 * @param passThrough the update's body as Telegram sent it, when the workspace passes its updates on to the bot's
 *                    backend; else null
 * @param inviteLink  the URL of the invite link a user joined through, or null
 * @param namedSession the session the update names itself (a /start payload, a link named {@code er:<session_id>}),
 *                     or null; a link the store made for a session overrides it
 * @param approve     {@code {"chat_id", "user_id"}} of a join request the workspace approves, or null
 */
public record TelegramUpdate(UUID workspaceId, String bot, long updateId, String passThrough, String inviteLink,
                             String namedSession, JsonObject approve) {

  public JsonObject toJson() {
    return new JsonObject().put("workspace_id", workspaceId.toString()).put("bot", bot).put("update_id", updateId)
        .put("pass_through", passThrough).put("invite_link", inviteLink).put("named_session", namedSession)
        .put("approve", approve);
  }

  public static TelegramUpdate fromJson(JsonObject json) {
    return new TelegramUpdate(UUID.fromString(json.getString("workspace_id")), json.getString("bot", ""),
        json.getLong("update_id"),
        json.getString("pass_through"), json.getString("invite_link"), json.getString("named_session"),
        json.getJsonObject("approve"));
  }
}
