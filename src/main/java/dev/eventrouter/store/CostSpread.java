package dev.eventrouter.store;

import dev.eventrouter.event.SpendRow;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The funnel report's cost spread over its groups (docs/costs.md), worked out here rather than in SQL: the clicks and
 * the spend are a few thousand rows each, and joined in one statement the planner guessed a hundred times as many and
 * sorted for them. A day's spend of an object, in its account's zone, is shared by the clicks charged to it that fall
 * on that day in that zone (a click is charged by its ad's spend, else its ad set's, else its campaign's), each group
 * taking its clicks' share.
 */
final class CostSpread {

  /** The spend of one object on one day of its account's zone. */
  record Key(String level, String id, String zone, LocalDate day) {}

  /**
   * The clicks of one object's day in a spend zone ({@code sday}) and one report group: all of them, and those in
   * the report's range that pass its filters (null: none).
   */
  record Clicks(String zone, LocalDate sday, String campaignId, String adsetId, String adId, List<String> group,
                long n, Long charged) {}

  private CostSpread() {}

  /** The objects the clicks name, each once, as (level, id): the spend to read. */
  static List<String[]> named(List<Clicks> rows) {
    Set<String> ads = new LinkedHashSet<>();
    Set<String> adsets = new LinkedHashSet<>();
    Set<String> campaigns = new LinkedHashSet<>();
    for (Clicks row : rows) {
      ads.add(row.adId());
      adsets.add(row.adsetId());
      campaigns.add(row.campaignId());
    }
    List<String[]> named = new ArrayList<>();
    Map<String, Set<String>> levels = Map.of(SpendRow.AD, ads, SpendRow.ADSET, adsets, SpendRow.CAMPAIGN, campaigns);
    for (Map.Entry<String, Set<String>> level : levels.entrySet()) {
      level.getValue().stream().filter(id -> !id.isEmpty()).forEach(id -> named.add(new String[] {level.getKey(), id}));
    }
    return named;
  }

  /**
   * Each group's cost (a group with no charged spend, or spend with no rate alone, has none) and the spend of the
   * range's days [from, to) that no click was charged: {@code total} less what was. {@code spend} holds each object's
   * days with a null cost where its currency had no rate.
   */
  static SpendReports.Costs spread(List<Clicks> rows, Map<Key, BigDecimal> spend, BigDecimal total,
                                   List<String> noRate, LocalDate from, LocalDate to) {
    // Each object day by a number, so a row is looked up once: the spend it is charged by, and that spend's clicks.
    Map<Key, Integer> index = new HashMap<>();
    List<Key> keys = new ArrayList<>(spend.keySet());
    for (int i = 0; i < keys.size(); i++) {
      index.put(keys.get(i), i);
    }
    long[] clicks = new long[keys.size()];
    boolean[] charged = new boolean[keys.size()];
    int[] charging = new int[rows.size()];
    for (int i = 0; i < rows.size(); i++) {
      Clicks row = rows.get(i);
      Integer key = charging(index, row);
      charging[i] = key == null ? -1 : key;
      if (key != null) {
        clicks[key] += row.n();
        charged[key] = true;
      }
    }
    // Each object day's spend per click, worked out once; a row's share is that times its charged clicks.
    BigDecimal[] perClick = new BigDecimal[keys.size()];
    BigDecimal unmatched = total;
    for (int k = 0; k < keys.size(); k++) {
      BigDecimal cost = spend.get(keys.get(k));
      if (cost == null || !charged[k]) {
        continue;
      }
      if (clicks[k] != 0) {
        perClick[k] = cost.divide(BigDecimal.valueOf(clicks[k]), MathContext.DECIMAL128);
      }
      LocalDate day = keys.get(k).day();
      if (!day.isBefore(from) && day.isBefore(to)) {
        unmatched = unmatched.subtract(cost);
      }
    }
    Map<List<String>, BigDecimal> byGroup = new LinkedHashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      Clicks row = rows.get(i);
      BigDecimal rate = charging[i] < 0 ? null : perClick[charging[i]];
      if (rate != null && row.charged() != null) {
        byGroup.merge(row.group(), rate.multiply(BigDecimal.valueOf(row.charged())), BigDecimal::add);
      }
    }
    return new SpendReports.Costs(byGroup, unmatched.max(BigDecimal.ZERO), noRate, false);
  }

  /** The spend a row's clicks are charged by: its ad's day, else its ad set's, else its campaign's; or none. */
  private static Integer charging(Map<Key, Integer> index, Clicks row) {
    Integer key = row.adId().isEmpty() ? null
        : index.get(new Key(SpendRow.AD, row.adId(), row.zone(), row.sday()));
    if (key == null && !row.adsetId().isEmpty()) {
      key = index.get(new Key(SpendRow.ADSET, row.adsetId(), row.zone(), row.sday()));
    }
    if (key == null && !row.campaignId().isEmpty()) {
      key = index.get(new Key(SpendRow.CAMPAIGN, row.campaignId(), row.zone(), row.sday()));
    }
    return key;
  }
}
