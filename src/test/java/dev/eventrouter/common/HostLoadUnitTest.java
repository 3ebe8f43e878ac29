package dev.eventrouter.common;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Two pacers reading the host's load through one {@link HostLoad}: each window sees the use over its own stretch of
 * time, however the other's looks cut the JDK's "since the previous call" windows.
 */
class HostLoadUnitTest {

  /** A JDK stand-in: the load it answers is the share given for the stretch since the previous call. */
  private static final class Host {
    long now;
    double load;
  }

  @Test
  @DisplayName("a window's load is its own stretch's, whatever another window's looks did in between")
  void windowsDoNotCutEachOther() {
    Host host = new Host();
    HostLoad load = new HostLoad(() -> host.load, () -> host.now);
    HostLoad.Window rollups = load.window();
    HostLoad.Window costs = load.window();

    host.now = 100;
    host.load = 1.0; // busy for the first 100 ns
    costs.mark();
    host.now = 400;
    host.load = 0.0; // idle for the next 300 ns
    assertThat(costs.look()).isEqualTo(0.0);
    assertThat(rollups.look()).isCloseTo(0.25, within(1e-9)); // 100 busy of 400
  }

  @Test
  @DisplayName("a mark leaves the work before it out; an unknown load counts as busy")
  void markAndUnknown() {
    Host host = new Host();
    HostLoad load = new HostLoad(() -> host.load, () -> host.now);
    HostLoad.Window window = load.window();
    host.now = 50;
    host.load = 1.0;
    window.mark();
    host.now = 150;
    host.load = -1.0; // the JDK's "not available"
    assertThat(window.look()).isEqualTo(1.0);
    host.now = 250;
    host.load = 0.5;
    assertThat(window.look()).isEqualTo(0.5);
    assertThat(window.look()).as("no time since the last look: the last sample's load").isEqualTo(0.5);
  }

  @Test
  @DisplayName("while the host is busy, a pacer keeps to its share of the time: the pause after its work is that "
      + "much longer than the work")
  void budgetedPause() {
    assertThat(HostLoad.budgetedPauseMs(10, 5)).as("5%: 10 ms, then 190 without").isEqualTo(190);
    assertThat(HostLoad.budgetedPauseMs(2_000, 5)).as("2 s in 40").isEqualTo(38_000);
    assertThat(HostLoad.budgetedPauseMs(2_000, 50)).isEqualTo(2_000);
    assertThat(HostLoad.budgetedPauseMs(2_000, 100)).as("no limit").isZero();
    assertThat(HostLoad.budgetedPauseMs(0, 1)).isZero();
  }

  @Test
  @DisplayName("the host's own answers a share between 0 and 1")
  void realHost() {
    double use = HostLoad.host().window().look();
    assertThat(use).isBetween(0.0, 1.0);
  }
}
