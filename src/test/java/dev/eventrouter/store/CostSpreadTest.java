package dev.eventrouter.store;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cost spread, by hand. Day D in UTC. Ad a1 (ad set s1, campaign c1) spent 30.00 on D over 3 clicks: 2 in group
 * X, 1 in group Y. Ad a2 has no spend of its own; its ad set s2 spent 10.00 on D over a2's 4 clicks and a3's 1 (both
 * in s2), all in X, a3's outside the range. Campaign c3 spent 6.00 on D+1 (in range) with no click, 5.00 on D-1
 * (outside). Ad a4 spent in a currency with no rate (null) on D over its 2 clicks in Z. The range is [D, D+2).
 */
class CostSpreadTest {

  private static final LocalDate D = LocalDate.of(2026, 11, 20);

  private static CostSpread.Clicks clicks(String campaign, String adset, String ad, String group, long n,
                                          Long charged) {
    return new CostSpread.Clicks("UTC", D, campaign, adset, ad, List.of(group), n, charged);
  }

  private static CostSpread.Key key(String level, String id, LocalDate day) {
    return new CostSpread.Key(level, id, "UTC", day);
  }

  private final List<CostSpread.Clicks> rows = List.of(
      clicks("c1", "s1", "a1", "X", 2, 2L),
      clicks("c1", "s1", "a1", "Y", 1, 1L),
      clicks("c2", "s2", "a2", "X", 4, 4L),
      clicks("c2", "s2", "a3", "X", 1, null),
      clicks("c4", "s4", "a4", "Z", 2, 2L));

  private Map<CostSpread.Key, BigDecimal> spend() {
    Map<CostSpread.Key, BigDecimal> spend = new HashMap<>();
    spend.put(key("ad", "a1", D), new BigDecimal("30.00"));
    spend.put(key("adset", "s2", D), new BigDecimal("10.00"));
    spend.put(key("campaign", "c3", D.plusDays(1)), new BigDecimal("6.00"));
    spend.put(key("campaign", "c3", D.minusDays(1)), new BigDecimal("5.00"));
    spend.put(key("adset", "s1", D), new BigDecimal("99.00")); // a1's own spend comes first
    spend.put(key("ad", "a4", D), null);
    return spend;
  }

  private SpendReports.Costs spread(BigDecimal total) {
    return CostSpread.spread(rows, spend(), total, List.of("BRL"), D, D.plusDays(2));
  }

  @Test
  @DisplayName("each group gets its clicks' share of the spend charging them: the ad's, else the ad set's; a click "
      + "outside the range takes its share away; spend with no rate charges nothing")
  void shares() {
    SpendReports.Costs costs = spread(new BigDecimal("150.00"));
    assertThat(costs.byGroup().get(List.of("X"))).isEqualByComparingTo("28.00"); // 20 of a1's + 4/5 of s2's 10
    assertThat(costs.byGroup().get(List.of("Y"))).isEqualByComparingTo("10.00");
    assertThat(costs.byGroup()).doesNotContainKey(List.of("Z"));
    assertThat(costs.noRate()).containsExactly("BRL");
    assertThat(costs.cut()).isFalse();
  }

  @Test
  @DisplayName("the range's spend no click was charged: the total less the charged spend of the range's days, "
      + "never below 0")
  void unmatched() {
    // 150 - 30 (a1) - 10 (s2): s1's 99 charged no click, c3's 6 has none, and its 5 is outside the range.
    assertThat(spread(new BigDecimal("150.00")).unmatched()).isEqualByComparingTo("110.00");
    assertThat(spread(new BigDecimal("20.00")).unmatched()).isEqualByComparingTo("0");
  }

  @Test
  @DisplayName("the objects named: each id once per level, none empty")
  void named() {
    List<CostSpread.Clicks> withEmpty = List.of(clicks("c1", "", "a1", "X", 1, 1L), clicks("c1", "s1", "a1", "Y", 1,
        1L), clicks("", "", "", "X", 1, 1L));
    assertThat(CostSpread.named(withEmpty)).extracting(n -> n[0] + ":" + n[1])
        .containsExactlyInAnyOrder("ad:a1", "adset:s1", "campaign:c1");
  }
}
