package dev.eventrouter.alert;

import dev.eventrouter.bus.BreakerOpened;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** An outage pieced together from the breakers' opening notices. */
class BreakerTrackUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");
  private static final BreakerTrack.Key KEY = new BreakerTrack.Key(WS, "meta/meta-main");

  private final BreakerTrack track = new BreakerTrack(5_000);

  private void notice(int atSecond, int openSeconds, String reason) {
    Instant at = T0.plusSeconds(atSecond);
    track.opened(new BreakerOpened("meta", WS, "meta-main", at.plusSeconds(openSeconds), reason), at);
  }

  @Test
  @DisplayName("re-openings within the open time and its grace continue one outage, from its first opening")
  void reopeningsContinue() {
    notice(0, 30, "HTTP 503");
    notice(34, 30, null);

    Map<BreakerTrack.Key, BreakerTrack.Open> open = track.openAt(T0.plusSeconds(60));
    assertThat(open).containsOnlyKeys(KEY);
    assertThat(open.get(KEY)).isEqualTo(new BreakerTrack.Open(T0, T0.plusSeconds(64), "HTTP 503"));
  }

  @Test
  @DisplayName("a later notice's words replace the earlier ones; an earlier end time never shortens the outage")
  void latestWordsLongestEnd() {
    notice(0, 60, "HTTP 503");
    notice(10, 5, "timed out");

    assertThat(track.openAt(T0.plusSeconds(20)).get(KEY)).isEqualTo(new BreakerTrack.Open(T0, T0.plusSeconds(60),
        "timed out"));
  }

  @Test
  @DisplayName("no notice within the open time and grace: closed, forgotten; a later opening starts a new outage")
  void gapEndsTheOutage() {
    notice(0, 30, "HTTP 503");

    assertThat(track.openAt(T0.plusSeconds(35))).as("at the grace's end, still open").containsOnlyKeys(KEY);
    assertThat(track.openAt(T0.plusSeconds(36))).as("past it").isEmpty();
    notice(40, 30, null);
    assertThat(track.openAt(T0.plusSeconds(41)).get(KEY)).isEqualTo(new BreakerTrack.Open(T0.plusSeconds(40),
        T0.plusSeconds(70), null));
  }

  @Test
  @DisplayName("a notice just past the grace starts a new outage even before the old one was forgotten")
  void lateNoticeStartsAnew() {
    notice(0, 30, "HTTP 503");
    notice(36, 30, null);

    assertThat(track.openAt(T0.plusSeconds(37)).get(KEY)).isEqualTo(new BreakerTrack.Open(T0.plusSeconds(36),
        T0.plusSeconds(66), null));
  }
}
