package dev.eventrouter.event;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.UUID;

/**
 * Which deliveries of one workspace a list or a bulk redelivery applies to, as the API asks over the event bus.
 * Events are chosen by the time they were received, as a range of event ids (an id starts with its time), so only
 * those days' partitions are read.
 *
 * @param integrationId one integration, or null for all
 * @param statuses      the delivery states to match (never empty)
 * @param eventName     the event name as the bot sent it, or null for all
 * @param fromEventId   the first event id of the range
 * @param toEventId     the first event id after the range
 * @param afterEventId  resume after this delivery (a list's cursor), or 0 from the start
 * @param afterDelivery with {@code afterEventId}
 * @param limit         most deliveries per call
 */
public record DeliveryFilter(UUID workspaceId, String integrationId, List<String> statuses, String eventName,
                             long fromEventId, long toEventId, long afterEventId, long afterDelivery, int limit) {

  /** Every state a delivery can be in, as the API names them. */
  public static final List<String> STATES = List.of("pending", "retrying", "paused", "delivered", "unconfirmed",
      "failed", "expired", "dry_run", "skipped");

  public JsonObject toJson() {
    return new JsonObject().put("workspace_id", workspaceId.toString()).put("integration_id", integrationId)
        .put("statuses", new JsonArray(List.copyOf(statuses))).put("event_name", eventName)
        .put("from_event_id", fromEventId).put("to_event_id", toEventId).put("after_event_id", afterEventId)
        .put("after_delivery", afterDelivery).put("limit", limit);
  }

  public static DeliveryFilter fromJson(JsonObject json) {
    return new DeliveryFilter(UUID.fromString(json.getString("workspace_id")), json.getString("integration_id"),
        json.getJsonArray("statuses").stream().map(String.class::cast).toList(), json.getString("event_name"),
        json.getLong("from_event_id"), json.getLong("to_event_id"), json.getLong("after_event_id"),
        json.getLong("after_delivery"), json.getInteger("limit"));
  }
}
