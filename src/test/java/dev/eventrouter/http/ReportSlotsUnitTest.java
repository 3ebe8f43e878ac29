package dev.eventrouter.http;

import dev.eventrouter.config.ReportsConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The count of funnel reports running on a node: per workspace, per node, given back, reloaded. */
class ReportSlotsUnitTest {

  private static final UUID A = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final UUID B = UUID.fromString("8c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final UUID C = UUID.fromString("9c9e6679-7425-40de-944b-e07fc1f90ae7");

  private static ReportsConfig limits(int perNode, int perWorkspace) {
    ReportsConfig d = ReportsConfig.DEFAULT;
    return new ReportsConfig(d.ratesFile(), d.rollupEveryMs(), d.rollupLagMs(), d.retentionDays(),
        d.rollupBudgetPercent(), perNode, perWorkspace, d.cohorts());
  }

  private static void refused(ReportSlots slots, UUID workspace, String message) {
    assertThatThrownBy(() -> slots.take(workspace)).isInstanceOfSatisfying(ApiException.class, e -> {
      assertThat(e.code()).isEqualTo(ErrorCode.RATE_LIMITED);
      assertThat(e.retryAfterSeconds()).isEqualTo(1L);
      assertThat(e.getMessage()).isEqualTo(message);
    });
  }

  private static final String WORKSPACE_FULL = "This workspace runs as many reports at once as it may on this node "
      + "(reports.max_concurrent_per_workspace: 2); retry after the Retry-After delay.";
  private static final String NODE_FULL = "This node runs as many reports at once as it may "
      + "(reports.max_concurrent: 3); retry after the Retry-After delay.";

  @Test
  @DisplayName("a workspace runs up to its share, the node up to its bound; a slot given back is taken again")
  void caps() {
    ReportSlots slots = new ReportSlots(limits(3, 2));
    slots.take(A);
    slots.take(A);
    refused(slots, A, WORKSPACE_FULL);
    assertThat(slots.running()).isEqualTo(2);
    slots.take(B);
    assertThat(slots.running()).isEqualTo(3);
    refused(slots, C, NODE_FULL);
    refused(slots, B, NODE_FULL);
    refused(slots, A, WORKSPACE_FULL);
    slots.release(B);
    assertThat(slots.running()).isEqualTo(2);
    slots.take(C);
    refused(slots, B, NODE_FULL);
    slots.release(A);
    slots.take(A);
    refused(slots, A, WORKSPACE_FULL);
    slots.release(A);
    slots.release(A);
    slots.release(C);
    assertThat(slots.running()).isZero();
    slots.take(A);
    slots.take(A);
    slots.take(B);
    refused(slots, B, NODE_FULL);
  }

  @Test
  @DisplayName("a reload's limits apply to the next report; those running beyond lower ones finish")
  void reloaded() {
    ReportSlots slots = new ReportSlots(limits(3, 2));
    slots.take(A);
    slots.take(A);
    slots.limit(limits(1, 1));
    refused(slots, B, "This node runs as many reports at once as it may (reports.max_concurrent: 1); retry after "
        + "the Retry-After delay.");
    refused(slots, A, "This workspace runs as many reports at once as it may on this node "
        + "(reports.max_concurrent_per_workspace: 1); retry after the Retry-After delay.");
    slots.release(A);
    slots.release(A);
    slots.take(B);
    refused(slots, C, "This node runs as many reports at once as it may (reports.max_concurrent: 1); retry after "
        + "the Retry-After delay.");
    slots.limit(limits(4, 3));
    slots.take(B);
    slots.take(B);
    slots.take(A);
    assertThat(slots.running()).isEqualTo(4);
  }

  @Test
  @DisplayName("the running reports are a gauge")
  void gauge() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ReportSlots slots = new ReportSlots(limits(3, 2));
    assertThat(slots.bindTo(registry)).isSameAs(slots);
    slots.take(A);
    slots.take(B);
    assertThat(registry.get("event_router.reports.running").gauge().value()).isEqualTo(2.0);
  }
}
