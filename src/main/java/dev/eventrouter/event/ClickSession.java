package dev.eventrouter.event;

import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.UUID;

/**
 * A click session as registered by the prelanding page. Fields other than the ids may be null; {@code utm} holds the
 * campaign's utm_* parameters as the landing URL carried them; {@code ids} the click ids of Google and Snapchat.
 */
public record ClickSession(UUID workspaceId, String sessionId, String fbclid, String fbc, String fbp, String ttclid,
                           String ttp, String clientIp, String userAgent, String landingUrl, Instant clickedAt,
                           JsonObject utm, Origin origin, ClickIds ids) {

  /**
   * Where the click was headed and what its ad was, for the funnel report; each part null when not known.
   *
   * @param ad      the ad ids the landing URL's macros filled in: {@code campaign_id}, {@code adset_id}, {@code ad_id},
   *                {@code placement}
   * @param bot     the bot the visitor was sent to (its username)
   * @param channel the channel the visitor was sent to (its @username or id)
   * @param country the visitor's country, ISO 3166-1 alpha-2
   */
  public record Origin(JsonObject ad, String bot, String channel, String country) {
    public static final Origin NONE = new Origin(null, null, null, null);
  }

  /** A click without Google's or Snapchat's ids. */
  public ClickSession(UUID workspaceId, String sessionId, String fbclid, String fbc, String fbp, String ttclid,
                      String ttp, String clientIp, String userAgent, String landingUrl, Instant clickedAt,
                      JsonObject utm, Origin origin) {
    this(workspaceId, sessionId, fbclid, fbc, fbp, ttclid, ttp, clientIp, userAgent, landingUrl, clickedAt, utm,
        origin, ClickIds.NONE);
  }

  /** A click with nothing known of its origin. */
  public ClickSession(UUID workspaceId, String sessionId, String fbclid, String fbc, String fbp, String ttclid,
                      String ttp, String clientIp, String userAgent, String landingUrl, Instant clickedAt,
                      JsonObject utm) {
    this(workspaceId, sessionId, fbclid, fbc, fbp, ttclid, ttp, clientIp, userAgent, landingUrl, clickedAt, utm,
        Origin.NONE);
  }

  /** This click with another origin. */
  public ClickSession withOrigin(Origin other) {
    return new ClickSession(workspaceId, sessionId, fbclid, fbc, fbp, ttclid, ttp, clientIp, userAgent, landingUrl,
        clickedAt, utm, other, ids);
  }

  /** This click with other Google and Snapchat ids. */
  public ClickSession withIds(ClickIds other) {
    return new ClickSession(workspaceId, sessionId, fbclid, fbc, fbp, ttclid, ttp, clientIp, userAgent, landingUrl,
        clickedAt, utm, origin, other);
  }

  public JsonObject toJson() {
    return ids.putInto(new JsonObject())
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
        .put("utm", utm)
        .put("ad", origin.ad())
        .put("bot", origin.bot())
        .put("channel", origin.channel())
        .put("country", origin.country());
  }

  public static ClickSession fromJson(JsonObject json) {
    return new ClickSession(UUID.fromString(json.getString("workspace_id")), json.getString("session_id"),
        json.getString("fbclid"), json.getString("fbc"), json.getString("fbp"), json.getString("ttclid"),
        json.getString("ttp"), json.getString("client_ip"), json.getString("user_agent"),
        json.getString("landing_url"), Instant.parse(json.getString("clicked_at")), json.getJsonObject("utm"),
        new Origin(json.getJsonObject("ad"), json.getString("bot"), json.getString("channel"),
            json.getString("country")), ClickIds.fromJson(json));
  }
}
