package dev.eventrouter.read;

import dev.eventrouter.store.FunnelReports.Sums;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A report's totals added up from its groups' sums, as the rollups would sum them without groups. */
class FunnelTotalsUnitTest {

  @Test
  @DisplayName("each step's sums over every group, in step order; a step whose sums are all 0 is left out")
  void totalsOfGroups() {
    List<Sums> groups = List.of(
        sums("a", "FTD", 2, 1, "10.50", 1, 0, 2, 0, 0),
        sums("a", "$click", 5, 0, "0", 0, 0, 0, 0, 0),
        sums("b", "FTD", 3, 2, "4.25", 0, 1, 1, 1, 0),
        sums("b", "DEP", 1, 0, "-7", 0, 0, -1, 0, 1),
        sums("c", "DEP", -1, 0, "7", 0, 0, 1, 0, -1));

    assertThat(FunnelReport.totals(groups)).containsExactly(
        sums(null, "$click", 5, 0, "0", 0, 0, 0, 0, 0),
        sums(null, "FTD", 5, 3, "14.75", 1, 1, 3, 1, 0));
  }

  private static Sums sums(String group, String step, long n, long users, String revenue, long unconverted,
                           long pending, long approved, long rejected, long chargeback) {
    return new Sums(group == null ? List.of() : List.of(group), step, n, users, new BigDecimal(revenue),
        unconverted, pending, approved, rejected, chargeback);
  }
}
