package dev.eventrouter.event;

import io.vertx.core.json.JsonObject;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A reconciliation asked for (docs/reports.md#reconcile): what was delivered to a network's integrations for the
 * clicks of each ad, beside the network's own count, over the days from {@code from} to {@code to}.
 *
 * @param network    meta or tiktok
 * @param reportZone the workspace's report zone: the days' zone when the network's ad accounts do not name one
 * @param groupBy    one of {@link #GROUPS}
 * @param actions    the workspace's own table for the network: mapped event name to action type
 * @param threshold  the share of what was delivered under which the network's count is marked short
 */
public record ReconcileQuery(UUID workspaceId, String network, LocalDate from, LocalDate to, ZoneId reportZone,
                             String groupBy, Map<String, String> actions, double threshold) {

  public static final String AD = "ad";
  public static final String DAY = "day";
  /** By ad (the default), ad set, campaign, or day. */
  public static final List<String> GROUPS = List.of(AD, "adset", "campaign", DAY);

  public JsonObject toJson() {
    return new JsonObject().put("workspace_id", workspaceId.toString()).put("network", network)
        .put("from", from.toString()).put("to", to.toString()).put("report_zone", reportZone.getId())
        .put("group_by", groupBy).put("actions", new JsonObject(new HashMap<>(actions))).put("threshold", threshold);
  }

  public static ReconcileQuery fromJson(JsonObject json) {
    Map<String, String> actions = new HashMap<>();
    json.getJsonObject("actions").forEach(e -> actions.put(e.getKey(), (String) e.getValue()));
    return new ReconcileQuery(UUID.fromString(json.getString("workspace_id")), json.getString("network"),
        LocalDate.parse(json.getString("from")), LocalDate.parse(json.getString("to")),
        ZoneId.of(json.getString("report_zone")), json.getString("group_by"), Map.copyOf(actions),
        json.getDouble("threshold"));
  }
}
