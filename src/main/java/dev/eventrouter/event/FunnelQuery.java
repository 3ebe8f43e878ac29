package dev.eventrouter.event;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A funnel report asked for: a workspace's hours from {@code from} (inclusive) to {@code to} (exclusive), grouped
 * by up to two dimensions, each filter a dimension and the values it may have ('' = not known); with the
 * workspace's report currency and funnel events, which the rows are read with, and its report zone
 * ({@code dayZone}), whose days the rollups keep whole.
 */
public record FunnelQuery(UUID workspaceId, Instant from, Instant to, ZoneId zone, List<String> groupBy,
                          Map<String, List<String>> filters, String currency, List<String> funnelEvents,
                          ZoneId dayZone) {

  /** The dimensions the rollups keep, each a column of theirs. */
  public static final List<String> DIMENSIONS = List.of("utm_source", "utm_medium", "utm_campaign", "utm_content",
      "utm_term", "campaign_id", "adset_id", "ad_id", "placement", "bot", "channel", "country");

  /** The dimensions that are the click's ad ids: the layers kept by them alone serve reports of nothing else. */
  public static final List<String> CLICK_IDS = List.of("campaign_id", "adset_id", "ad_id");

  /** The local day (in the report's zone) of an hour: a dimension of its own. */
  public static final String DAY = "day";

  public JsonObject toJson() {
    JsonObject filterJson = new JsonObject();
    filters.forEach((dimension, values) -> filterJson.put(dimension, new JsonArray(values)));
    return new JsonObject().put("workspace_id", workspaceId.toString()).put("from", from.toString())
        .put("to", to.toString()).put("tz", zone.getId()).put("group_by", new JsonArray(groupBy))
        .put("filters", filterJson).put("currency", currency).put("funnel_events", new JsonArray(funnelEvents))
        .put("day_zone", dayZone.getId());
  }

  public static FunnelQuery fromJson(JsonObject json) {
    Map<String, List<String>> filters = new LinkedHashMap<>();
    JsonObject filterJson = json.getJsonObject("filters");
    for (String dimension : filterJson.fieldNames()) {
      List<String> values = new ArrayList<>();
      filterJson.getJsonArray(dimension).forEach(v -> values.add((String) v));
      filters.put(dimension, List.copyOf(values));
    }
    List<String> groupBy = new ArrayList<>();
    json.getJsonArray("group_by").forEach(g -> groupBy.add((String) g));
    List<String> funnelEvents = new ArrayList<>();
    json.getJsonArray("funnel_events").forEach(e -> funnelEvents.add((String) e));
    return new FunnelQuery(UUID.fromString(json.getString("workspace_id")), Instant.parse(json.getString("from")),
        Instant.parse(json.getString("to")), ZoneId.of(json.getString("tz")), List.copyOf(groupBy),
        Map.copyOf(filters), json.getString("currency"), List.copyOf(funnelEvents),
        ZoneId.of(json.getString("day_zone")));
  }
}
