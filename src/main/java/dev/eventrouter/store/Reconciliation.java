package dev.eventrouter.store;

import dev.eventrouter.config.Network;
import dev.eventrouter.event.NetworkActions;
import dev.eventrouter.event.ReconcileQuery;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The reconciliation's answer (docs/reports.md#reconcile): per group and action type, what was delivered (the mapped
 * events held against that action type), the network's own count, the difference and the ratio, marked short under
 * the threshold. Deliveries of events without a click's ad ids cannot be set beside an ad's count: they are given
 * apart, as are the mapped events the network's counts do not cover.
 */
public final class Reconciliation {

  /** One group's figures for one action type. */
  private static final class Line {
    long delivered;
    long counted;
    final Set<String> events = new TreeSet<>();
  }

  private Reconciliation() {}

  public static JsonObject of(ReconcileQuery query, ReconcileReports.Sides sides) {
    Network network = Network.TIKTOK.id.equals(query.network()) ? Network.TIKTOK : Network.META;
    Map<String, Line> lines = new TreeMap<>();
    Map<String, Line> totals = new TreeMap<>();
    Map<String, Long> unattributed = new TreeMap<>();
    Map<String, Long> notCompared = new TreeMap<>();
    Set<String> compared = new HashSet<>();
    // An ad's campaign and ad set as the network names them: a click whose URL carried the ad's id alone still
    // counts under its campaign.
    Map<String, ReconcileReports.Counted> ads = new HashMap<>();
    sides.counted().forEach(counted -> ads.putIfAbsent(counted.adId(), counted));
    for (ReconcileReports.Delivered sent : sides.delivered()) {
      String type = NetworkActions.actionType(network, sent.mappedEvent(), query.actions());
      if (type == null) {
        notCompared.merge(sent.mappedEvent(), sent.n(), Long::sum);
      } else if (sent.adId().isEmpty()) {
        unattributed.merge(type, sent.n(), Long::sum);
      } else {
        compared.add(type);
        ReconcileReports.Counted ad = ads.get(sent.adId());
        String campaign = sent.campaignId().isEmpty() && ad != null ? ad.campaignId() : sent.campaignId();
        String adset = sent.adsetId().isEmpty() && ad != null ? ad.adsetId() : sent.adsetId();
        add(lines, key(query, sent.day(), campaign, adset, sent.adId()), type, sent.n(), 0)
            .events.add(sent.mappedEvent());
        add(totals, "", type, sent.n(), 0).events.add(sent.mappedEvent());
      }
    }
    // The network's counts of the action types held against something: those of the table, and of what was sent.
    Set<String> types = new HashSet<>(compared);
    types.addAll(NetworkActions.actionTypes(network, query.actions()));
    for (ReconcileReports.Counted counted : sides.counted()) {
      for (Map.Entry<String, Long> action : counted.actions().entrySet()) {
        if (types.contains(action.getKey())) {
          add(lines, key(query, counted.day(), counted.campaignId(), counted.adsetId(), counted.adId()),
              action.getKey(), 0, action.getValue());
          add(totals, "", action.getKey(), 0, action.getValue());
        }
      }
    }
    JsonArray rows = new JsonArray();
    lines.forEach((key, line) -> {
      String[] parts = key.split("\u0000", -1);
      rows.add(figures(line, parts[1], query.threshold())
          .put("group", new JsonObject().put(groupName(query), parts[0])));
    });
    JsonArray totalRows = new JsonArray();
    totals.forEach((key, line) -> totalRows.add(figures(line, key.split("\u0000", -1)[1], query.threshold())));
    return new JsonObject().put("network", query.network()).put("threshold", query.threshold())
        .put("rows", rows).put("totals", totalRows)
        .put("unattributed", new JsonObject(Map.copyOf(unattributed)))
        .put("not_compared", new JsonObject(Map.copyOf(notCompared)))
        .put("cut", sides.cut());
  }

  private static Line add(Map<String, Line> lines, String group, String type, long delivered, long counted) {
    Line line = lines.computeIfAbsent(group + "\u0000" + type, k -> new Line());
    line.delivered += delivered;
    line.counted += counted;
    return line;
  }

  /** The group a side's row falls in: its day, or its ad, ad set or campaign id. */
  private static String key(ReconcileQuery query, LocalDate day, String campaignId, String adsetId, String adId) {
    return switch (query.groupBy()) {
      case ReconcileQuery.DAY -> day.toString();
      case "campaign" -> campaignId;
      case "adset" -> adsetId;
      default -> adId;
    };
  }

  private static String groupName(ReconcileQuery query) {
    return ReconcileQuery.DAY.equals(query.groupBy()) ? "day" : query.groupBy() + "_id";
  }

  /** Delivered, counted, difference, ratio (counted over delivered, null with nothing delivered) and short. */
  private static JsonObject figures(Line line, String type, double threshold) {
    BigDecimal ratio = line.delivered == 0 ? null
        : BigDecimal.valueOf(line.counted).divide(BigDecimal.valueOf(line.delivered), 4, RoundingMode.HALF_UP);
    return new JsonObject().put("action_type", type).put("events", new JsonArray(line.events.stream().toList()))
        .put("delivered", line.delivered).put("network_count", line.counted)
        .put("difference", line.counted - line.delivered).put("ratio", ratio == null ? null : ratio.doubleValue())
        .put("short", ratio != null && ratio.doubleValue() < threshold);
  }
}
