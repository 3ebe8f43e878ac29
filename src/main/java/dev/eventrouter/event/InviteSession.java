package dev.eventrouter.event;

import io.vertx.core.json.JsonObject;

import java.util.UUID;

/** A Telegram user joined through the invite link of a session. */
public record InviteSession(UUID workspaceId, long telegramId, String sessionId, String inviteLink) {

  public JsonObject toJson() {
    return new JsonObject()
        .put("workspace_id", workspaceId.toString())
        .put("telegram_id", telegramId)
        .put("session_id", sessionId)
        .put("invite_link", inviteLink);
  }

  public static InviteSession fromJson(JsonObject json) {
    return new InviteSession(UUID.fromString(json.getString("workspace_id")), json.getLong("telegram_id"),
        json.getString("session_id"), json.getString("invite_link"));
  }
}
