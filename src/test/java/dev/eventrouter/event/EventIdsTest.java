package dev.eventrouter.event;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventIdsTest {

  /** A clock the test moves by hand. */
  private static final class ManualClock extends Clock {
    final AtomicLong millis = new AtomicLong(Instant.parse("2026-11-22T00:00:00Z").toEpochMilli());

    @Override
    public long millis() {
      return millis.get();
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis());
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  @Test
  @DisplayName("ids rise strictly, even past 4096 in one millisecond and when the clock steps back")
  void strictlyIncreasing() {
    ManualClock clock = new ManualClock();
    EventIds ids = new EventIds(7, clock);
    long last = ids.next();
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < 10_000; i++) {
      if (i == 5000) {
        clock.millis.addAndGet(-60_000);
      }
      long id = ids.next();
      assertThat(id).isGreaterThan(last);
      assertThat(seen.add(id)).isTrue();
      last = id;
    }
  }

  @Test
  @DisplayName("the first id of an instant bounds the ids of every node: those of that millisecond on, none before")
  void firstIdAtBoundsTheIdsOfItsTime() {
    ManualClock clock = new ManualClock();
    Instant at = clock.instant();
    long bound = EventIds.firstIdAt(at);

    assertThat(bound).as("node 0, sequence 0 of that millisecond").isEqualTo(new EventIds(0, clock).next());
    assertThat(new EventIds(EventIds.MAX_NODES - 1, clock).next()).isGreaterThan(bound);
    clock.millis.addAndGet(-1);
    long before = new EventIds(EventIds.MAX_NODES - 1, clock).next();
    assertThat(before).isLessThan(bound);
    assertThat(EventIds.firstIdAt(at.plusMillis(1)) - bound).as("a millisecond of ids").isEqualTo(1L << 22);
  }

  @Test
  @DisplayName("two nodes never issue the same id in the same millisecond")
  void nodesDiffer() {
    ManualClock clock = new ManualClock();
    EventIds a = new EventIds(1, clock);
    EventIds b = new EventIds(2, clock);
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      assertThat(seen.add(a.next())).isTrue();
      assertThat(seen.add(b.next())).isTrue();
    }
  }

  @Test
  @DisplayName("later milliseconds give larger ids, printed as evt_ and decimal digits")
  void timeOrderedAndFormatted() {
    ManualClock clock = new ManualClock();
    EventIds ids = new EventIds(1023, clock);
    long early = ids.next();
    clock.millis.addAndGet(1);
    long late = new EventIds(0, clock).next();

    assertThat(late).isGreaterThan(early);
    assertThat(EventIds.format(late)).matches("evt_[0-9]+");
    assertThatThrownBy(() -> new EventIds(1024, clock)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new EventIds(-1, clock)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("one millisecond holds 4096 ids (sequence 0 to 4095); the next borrows the following millisecond")
  void sequenceFillsTheMillisecond() {
    EventIds ids = new EventIds(3, new ManualClock());
    long first = ids.next();
    long last = first;
    for (int i = 1; i < 4096; i++) {
      last = ids.next();
    }
    long timeBits = 22; // node (10 bits) and sequence (12 bits) below the milliseconds
    assertThat(last >> timeBits).isEqualTo(first >> timeBits);
    assertThat(last & 0xFFF).isEqualTo(4095);
    long borrowed = ids.next();
    assertThat(borrowed >> timeBits).isEqualTo((first >> timeBits) + 1);
    assertThat(borrowed & 0xFFF).isZero();
  }
}
