package dev.eventrouter.report;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RollupPauseTest {

  @Test
  @DisplayName("a round's span: a quarter after a failure, cut to a short round while the host is busy, else doubled,"
      + " within a second and an hour")
  void span() {
    long hour = RollupVerticle.MAX_SPAN_MS;
    assertThat(RollupVerticle.nextSpanMs(hour, 30_000, true, false)).isEqualTo(hour / 4);
    assertThat(RollupVerticle.nextSpanMs(2_000, 30_000, true, true)).as("not under a second").isEqualTo(1_000);
    assertThat(RollupVerticle.nextSpanMs(60_000, 1_000, false, true)).as("busy: a 250 ms round next")
        .isEqualTo(15_000);
    assertThat(RollupVerticle.nextSpanMs(60_000, 100_000, false, true)).isEqualTo(1_000);
    assertThat(RollupVerticle.nextSpanMs(60_000, 250, false, true)).as("short enough").isEqualTo(120_000);
    assertThat(RollupVerticle.nextSpanMs(60_000, 1_000, false, false)).as("idle: catching up").isEqualTo(120_000);
    assertThat(RollupVerticle.nextSpanMs(hour, 10, false, false)).isEqualTo(hour);
  }
}
