package dev.eventrouter.event;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * A buyer key's campaigns, carried beside a read's query over the event bus: a read shows only the events of
 * sessions whose click names one of them. Absent for a key that sees the whole workspace.
 */
public final class CampaignScope {

  static final String FIELD = "campaign_scope";

  private CampaignScope() {}

  /** The message with the scope added; unchanged when {@code campaigns} is null (no scope). */
  public static JsonObject put(JsonObject message, List<String> campaigns) {
    return campaigns == null ? message : message.put(FIELD, new JsonArray(List.copyOf(campaigns)));
  }

  /** The campaigns of a message's scope, as a SQL text[] parameter; null when it has none. */
  public static String[] of(JsonObject message) {
    JsonArray campaigns = message.getJsonArray(FIELD);
    return campaigns == null ? null : campaigns.stream().map(String.class::cast).toArray(String[]::new);
  }
}
