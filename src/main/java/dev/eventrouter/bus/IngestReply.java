package dev.eventrouter.bus;

import io.vertx.core.json.JsonObject;

/**
 * The stored event, as the client is told.
 *
 * @param replayed true when an Idempotency-Key matched an earlier request and nothing new was stored
 */
public record IngestReply(String eventId, String sessionId, String status, boolean replayed) {

  public static final String PROCESSED = "processed";

  public JsonObject toJson() {
    return new JsonObject()
        .put("event_id", eventId)
        .put("session_id", sessionId)
        .put("status", status)
        .put("replayed", replayed);
  }

  public static IngestReply fromJson(JsonObject json) {
    return new IngestReply(json.getString("event_id"), json.getString("session_id"), json.getString("status"),
        json.getBoolean("replayed", false));
  }
}
