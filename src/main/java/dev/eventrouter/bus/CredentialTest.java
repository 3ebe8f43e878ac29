package dev.eventrouter.bus;

import io.vertx.core.json.JsonObject;

import java.util.UUID;

/**
 * The message of {@link Addresses#integrationTest}: send one test event, named {@code eventName} as the bot would
 * name it, through this integration of this workspace, and answer the network's verdict.
 *
 * @param testEventCode the network's test code to send it with (the request's, else the integration's)
 * @param timeoutMs     how long the network may take to answer: the asker waits that long and a little more
 */
public record CredentialTest(UUID workspaceId, String integrationId, String eventName, String testEventCode,
                             long timeoutMs) {

  public JsonObject toJson() {
    return new JsonObject().put("workspace_id", workspaceId.toString()).put("integration_id", integrationId)
        .put("event_name", eventName).put("test_event_code", testEventCode).put("timeout_ms", timeoutMs);
  }

  public static CredentialTest fromJson(JsonObject json) {
    return new CredentialTest(UUID.fromString(json.getString("workspace_id")), json.getString("integration_id"),
        json.getString("event_name"), json.getString("test_event_code"), json.getLong("timeout_ms"));
  }
}
