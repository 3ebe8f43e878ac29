package dev.eventrouter.bus;

import io.vertx.core.json.JsonObject;

import java.util.UUID;

/**
 * One stored event as the asking workspace names it: the message of {@link Addresses#EVENTS_GET} and
 * {@link Addresses#EVENTS_REDELIVER}. A workspace only ever sees its own events.
 */
public record EventRef(UUID workspaceId, long eventId) {

  public JsonObject toJson() {
    return new JsonObject().put("workspace_id", workspaceId.toString()).put("event_id", eventId);
  }

  public static EventRef fromJson(JsonObject json) {
    return new EventRef(UUID.fromString(json.getString("workspace_id")), json.getLong("event_id"));
  }
}
