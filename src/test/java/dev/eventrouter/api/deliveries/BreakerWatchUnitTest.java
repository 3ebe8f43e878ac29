package dev.eventrouter.api.deliveries;

import dev.eventrouter.bus.BreakerOpened;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class BreakerWatchUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");

  @Test
  @DisplayName("a breaker is open until the latest notice's end, for its own workspace and integration only")
  void openUntil() {
    BreakerWatch watch = new BreakerWatch();
    assertThat(watch.openUntil(WS, "meta-main", NOW)).as("never heard of").isNull();
    watch.opened(new BreakerOpened("meta", WS, "meta-main", NOW.plusSeconds(30)));
    watch.opened(new BreakerOpened("meta", WS, "meta-main", NOW.plusSeconds(10)));
    assertThat(watch.openUntil(WS, "meta-main", NOW)).as("an earlier notice arriving late does not shorten it")
        .isEqualTo(NOW.plusSeconds(30));
    assertThat(watch.openUntil(WS, "meta-main", NOW.plusSeconds(30))).as("its reset timeout over").isNull();
    watch.opened(new BreakerOpened("meta", WS, "meta-main", NOW.plusSeconds(90)));
    assertThat(watch.openUntil(WS, "meta-main", NOW)).as("opened again: the later end").isEqualTo(NOW.plusSeconds(90));
    assertThat(watch.openUntil(WS, "tiktok-main", NOW)).isNull();
    assertThat(watch.openUntil(UUID.randomUUID(), "meta-main", NOW)).isNull();
  }
}
