package dev.eventrouter.bus;

import dev.eventrouter.event.ConversionEvent;
import io.vertx.core.json.JsonObject;

import java.time.Instant;

/**
 * A validated event on its way to be stored. Plain JSON on the wire, so any cluster node reads it without a codec.
 *
 * @param idempotencyKey the client's Idempotency-Key header, or null
 * @param requestHash    digest of the validated event, to tell a replay from a conflicting reuse of the key
 */
public record IngestRequest(ConversionEvent event, Instant receivedAt, String idempotencyKey, String requestHash) {

  public JsonObject toJson() {
    return new JsonObject()
        .put("event", event.toJson())
        .put("received_at", receivedAt.toString())
        .put("idempotency_key", idempotencyKey)
        .put("request_hash", requestHash);
  }

  public static IngestRequest fromJson(JsonObject json) {
    return new IngestRequest(
        ConversionEvent.fromJson(json.getJsonObject("event")),
        Instant.parse(json.getString("received_at")),
        json.getString("idempotency_key"),
        json.getString("request_hash"));
  }
}
