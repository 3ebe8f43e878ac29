package dev.eventrouter.event;

import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.UUID;

/**
 * A click session as registered by the prelanding page. Fields other than the ids may be null; {@code utm} holds the
 * campaign's utm_* parameters as the landing URL carried them.
 */
public record ClickSession(UUID workspaceId, String sessionId, String fbclid, String fbc, String fbp, String ttclid,
                           String ttp, String clientIp, String userAgent, String landingUrl, Instant clickedAt,
                           JsonObject utm) {

  public JsonObject toJson() {
    return new JsonObject()
        .put("workspace_id", workspaceId.toString())
        .put("session_id", sessionId)
        .put("fbclid", fbclid)
        .put("fbc", fbc)
        .put("fbp", fbp)
        .put("ttclid", ttclid)
        .put("ttp", ttp)
        .put("client_ip", clientIp)
        .put("user_agent", userAgent)
        .put("landing_url", landingUrl)
        .put("clicked_at", clickedAt.toString())
        .put("utm", utm);
  }

  public static ClickSession fromJson(JsonObject json) {
    return new ClickSession(UUID.fromString(json.getString("workspace_id")), json.getString("session_id"),
        json.getString("fbclid"), json.getString("fbc"), json.getString("fbp"), json.getString("ttclid"),
        json.getString("ttp"), json.getString("client_ip"), json.getString("user_agent"),
        json.getString("landing_url"), Instant.parse(json.getString("clicked_at")), json.getJsonObject("utm"));
  }
}
