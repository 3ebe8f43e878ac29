package dev.eventrouter.event;

import io.vertx.core.json.JsonObject;

import java.util.UUID;

/**
 * A Telegram user came through a session: a /start in a bot, a join request or a join through an invite link, or
 * the bot's own report of one.
 *
 * @param via     {@link #START}, {@link #JOIN_REQUEST}, {@link #JOIN} or {@link #API}: the funnel step it counts as
 * @param bot     the bot it came through (its username), or null
 * @param channel the channel it joined (its @username or id), or null
 */
public record InviteSession(UUID workspaceId, long telegramId, String sessionId, String inviteLink, String via,
                            String bot, String channel) {

  public static final String START = "start";
  public static final String JOIN_REQUEST = "join_request";
  public static final String JOIN = "join";
  public static final String API = "api";

  /** One reported through the API, through no bot or channel named. */
  public InviteSession(UUID workspaceId, long telegramId, String sessionId, String inviteLink) {
    this(workspaceId, telegramId, sessionId, inviteLink, API, null, null);
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("workspace_id", workspaceId.toString())
        .put("telegram_id", telegramId)
        .put("session_id", sessionId)
        .put("invite_link", inviteLink)
        .put("via", via)
        .put("bot", bot)
        .put("channel", channel);
  }

  public static InviteSession fromJson(JsonObject json) {
    return new InviteSession(UUID.fromString(json.getString("workspace_id")), json.getLong("telegram_id"),
        json.getString("session_id"), json.getString("invite_link"), json.getString("via"), json.getString("bot"),
        json.getString("channel"));
  }
}
