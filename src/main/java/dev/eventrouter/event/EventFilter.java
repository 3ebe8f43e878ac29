package dev.eventrouter.event;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.UUID;

/**
 * Which events of one workspace a list shows, newest first, as the API asks over the event bus. Events are chosen by
 * the time they were received, as a range of event ids (an id starts with its time), so only those days'
 * partitions are read; a page continues below the last id of the one before. A poll for new events reads the range
 * oldest first instead, from just above the last id it has.
 *
 * @param eventName        the name as the bot sent it, or null for all
 * @param sessionSource    how its session was found (supplied, invite, analytics, last_known, none), or null
 * @param telegramId       one user, or null
 * @param integrationId    events with a delivery to this integration, or null
 * @param deliveryStatuses events with a delivery (to {@code integrationId}, when given) in one of these states, or
 *                         null for any
 * @param fromEventId      the first event id of the range
 * @param toEventId        the first event id after the range (or the last id of the page before)
 * @param limit            most events per page
 * @param oldestFirst      the order: oldest first for a poll for new events, newest first for a page
 */
public record EventFilter(UUID workspaceId, String eventName, String sessionSource, Long telegramId,
                          String integrationId, List<String> deliveryStatuses, long fromEventId, long toEventId,
                          int limit, boolean oldestFirst) {

  /** How an event's session was found, as the API names it: the resolution's sources, and a partner's postback. */
  public static final List<String> SESSION_SOURCES = List.of("supplied", "invite", "analytics", "last_known", "none",
      "postback");

  public JsonObject toJson() {
    return new JsonObject().put("workspace_id", workspaceId.toString()).put("event_name", eventName)
        .put("session_source", sessionSource).put("telegram_id", telegramId).put("integration_id", integrationId)
        .put("delivery_statuses", deliveryStatuses == null ? null : new JsonArray(List.copyOf(deliveryStatuses)))
        .put("from_event_id", fromEventId).put("to_event_id", toEventId).put("limit", limit)
        .put("oldest_first", oldestFirst);
  }

  public static EventFilter fromJson(JsonObject json) {
    JsonArray statuses = json.getJsonArray("delivery_statuses");
    return new EventFilter(UUID.fromString(json.getString("workspace_id")), json.getString("event_name"),
        json.getString("session_source"), json.getLong("telegram_id"), json.getString("integration_id"),
        statuses == null ? null : statuses.stream().map(String.class::cast).toList(),
        json.getLong("from_event_id"), json.getLong("to_event_id"), json.getInteger("limit"),
        json.getBoolean("oldest_first"));
  }
}
