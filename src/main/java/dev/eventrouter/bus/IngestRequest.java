package dev.eventrouter.bus;

import dev.eventrouter.event.ConversionEvent;
import io.vertx.core.json.JsonObject;

import java.time.Instant;

/**
 * A validated event on its way to be stored. Plain JSON on the wire, so any cluster node reads it without a codec.
 *
 * @param idempotencyKey the client's Idempotency-Key header, or null
 * @param requestHash    digest of the validated event, to tell a replay from a conflicting reuse of the key
 * @param deadline       when the HTTP side stops waiting and answers 503: the write is not started after it
 */
public record IngestRequest(ConversionEvent event, Instant receivedAt, String idempotencyKey, String requestHash,
                            Instant deadline) {

  public JsonObject toJson() {
    return new JsonObject()
        .put("event", event.toJson())
        .put("received_at", receivedAt.toString())
        .put("idempotency_key", idempotencyKey)
        .put("request_hash", requestHash)
        .put("deadline", deadline.toEpochMilli());
  }

  public static IngestRequest fromJson(JsonObject json) {
    return new IngestRequest(
        ConversionEvent.fromJson(json.getJsonObject("event")),
        Instant.parse(json.getString("received_at")),
        json.getString("idempotency_key"),
        json.getString("request_hash"),
        Instant.ofEpochMilli(json.getLong("deadline")));
  }
}
