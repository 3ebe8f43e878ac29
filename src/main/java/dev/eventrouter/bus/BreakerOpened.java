package dev.eventrouter.bus;

import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.UUID;

/**
 * An integration's breaker opened on some node ({@link Addresses#BREAKER_OPENED}); it stays open until {@code until}
 * (its reset timeout), then lets one request try.
 *
 * @param reason the last failure before it opened, in the network's words (secrets redacted), or null
 */
public record BreakerOpened(String network, UUID workspaceId, String integrationId, Instant until, String reason) {

  public BreakerOpened(String network, UUID workspaceId, String integrationId, Instant until) {
    this(network, workspaceId, integrationId, until, null);
  }

  public JsonObject toJson() {
    return new JsonObject().put("network", network).put("workspace_id", workspaceId.toString())
        .put("integration_id", integrationId).put("until", until.toString()).put("reason", reason);
  }

  public static BreakerOpened fromJson(JsonObject json) {
    return new BreakerOpened(json.getString("network"), UUID.fromString(json.getString("workspace_id")),
        json.getString("integration_id"), Instant.parse(json.getString("until")), json.getString("reason"));
  }
}
