package dev.eventrouter.alert;

import dev.eventrouter.alert.AlertRules.Kind;
import dev.eventrouter.alert.AlertRules.Reading;
import dev.eventrouter.alert.AlertRules.Step;
import dev.eventrouter.store.AlertState;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The grouping rules, round by round, on a clock of their own. */
class AlertRulesUnitTest {

  private static final UUID WS = UUID.fromString("11111111-1111-4111-8111-111111111111");
  /** The blank state a round starts a condition and subject from. */
  private static final AlertState KEY = new AlertState(WS, "deliveries_failed", "meta/m", null, false, null, null, 0,
      null);
  private static final Duration PERIOD = Duration.ofMinutes(60);
  private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

  private AlertState state;

  /** One round at {@code minutes} after T0 with this reading (null: the condition does not hold). */
  private Step round(int minutes, Reading reading, Duration hold) {
    Step step = AlertRules.step(state == null ? KEY : state, reading, hold, PERIOD,
        T0.plus(Duration.ofMinutes(minutes)));
    state = step.next();
    return step;
  }

  private Step round(int minutes, Reading reading) {
    return round(minutes, reading, Duration.ZERO);
  }

  private static Reading failures(long inWindow, long fresh) {
    return new Reading(true, null, inWindow, fresh, "meta HTTP 400 (#100) Invalid parameter");
  }

  @Test
  @DisplayName("the first occurrence alerts at once, with the count that made it fire and the network's words")
  void firstAtOnce() {
    Step step = round(0, failures(3, 3));

    assertThat(step.message()).isEqualTo(new AlertRules.Message(Kind.FIRING, 3, true, 3));
    assertThat(state.told()).isEqualTo(AlertState.FIRING);
    assertThat(state.detail()).isEqualTo("meta HTTP 400 (#100) Invalid parameter");
    assertThat(state.lastSentAt()).isEqualTo(T0);
  }

  @Test
  @DisplayName("repeats within the period wait for one summary at its end, which counts them all")
  void repeatsGrouped() {
    round(0, failures(1, 1));
    assertThat(round(10, failures(5, 4)).message()).isNull();
    assertThat(round(30, failures(9, 4)).message()).isNull();
    assertThat(round(59, failures(9, 0)).message()).isNull();
    assertThat(state.pending()).isEqualTo(8);

    Step summary = round(60, failures(10, 1));

    assertThat(summary.message()).isEqualTo(new AlertRules.Message(Kind.SUMMARY, 9, true, 10));
    assertThat(state.pending()).isZero();
    assertThat(round(90, failures(10, 0)).message()).as("nothing new, nothing said").isNull();
  }

  @Test
  @DisplayName("a condition that clears after its targets heard it fire is resolved at once, repeats included")
  void resolvedAtOnce() {
    round(0, failures(1, 1));
    round(5, failures(3, 2));

    Step resolved = round(6, null);

    assertThat(resolved.message()).isEqualTo(new AlertRules.Message(Kind.RESOLVED, 2, false, 0));
    assertThat(state.told()).isEqualTo(AlertState.RESOLVED);
  }

  @Test
  @DisplayName("a flapping condition sends a firing, a resolved, then one summary per period, never a message a flap")
  void flappingBounded() {
    int messages = 0;
    for (int minute = 0; minute < 120; minute++) {
      Step step = round(minute, minute % 2 == 0 ? Reading.state(null, "refused") : null);
      messages += step.message() == null ? 0 : 1;
    }
    // 0: firing, 1: resolved, 61: summary (it fired again 30 times, and is resolved now).
    assertThat(messages).isEqualTo(3);
  }

  @Test
  @DisplayName("firing again within the period after a resolved message is told in the summary, with the state then")
  void refiresInSummary() {
    round(0, Reading.state(T0, "token expired"));
    round(5, null);
    assertThat(round(20, Reading.state(T0.plusSeconds(20 * 60), "token expired again")).message()).isNull();

    assertThat(round(64, Reading.state(T0.plusSeconds(20 * 60), "token expired again")).message()).isNull();
    Step summary = round(65, Reading.state(T0.plusSeconds(20 * 60), "token expired again"));

    assertThat(summary.message()).isEqualTo(new AlertRules.Message(Kind.SUMMARY, 1, true, 1));
    assertThat(state.told()).isEqualTo(AlertState.FIRING);
    assertThat(state.detail()).isEqualTo("token expired again");
    assertThat(round(66, null).message()).as("its targets heard it fire: resolved at once")
        .isEqualTo(new AlertRules.Message(Kind.RESOLVED, 0, false, 0));
  }

  @Test
  @DisplayName("a condition with a hold fires only once it has held that long, from when it began")
  void holdBeforeFiring() {
    Duration hold = Duration.ofMinutes(10);
    assertThat(round(0, Reading.state(null, null), hold).message()).isNull();
    assertThat(state.activeSince()).isEqualTo(T0);
    assertThat(round(9, Reading.state(null, null), hold).message()).isNull();

    assertThat(round(10, Reading.state(null, null), hold).message().kind()).isEqualTo(Kind.FIRING);
  }

  @Test
  @DisplayName("a source that knows since when it holds (a breaker's first opening) sets the hold's start")
  void sinceFromSource() {
    Step step = round(3, Reading.state(T0.minus(Duration.ofMinutes(20)), "HTTP 503"), Duration.ofMinutes(10));

    assertThat(step.message().kind()).isEqualTo(Kind.FIRING);
  }

  @Test
  @DisplayName("a condition that clears before its hold is forgotten without a word")
  void clearsWithinHold() {
    round(0, Reading.state(null, null), Duration.ofMinutes(10));
    Step step = round(5, null, Duration.ofMinutes(10));

    assertThat(step.message()).isNull();
    assertThat(state).isNull();
  }

  @Test
  @DisplayName("a reading without words keeps the last words heard")
  void wordsKept() {
    round(0, failures(1, 1));
    round(1, new Reading(true, null, 2, 1, null));

    assertThat(state.detail()).isEqualTo("meta HTTP 400 (#100) Invalid parameter");
    assertThat(round(61, new Reading(true, null, 2, 0, null)).message()).isNotNull();
    assertThat(state.detail()).isEqualTo("meta HTTP 400 (#100) Invalid parameter");
  }

  @Test
  @DisplayName("a count below its threshold neither fires nor gathers repeats")
  void belowThreshold() {
    Step step = round(0, new Reading(false, null, 2, 2, "x"));

    assertThat(step.message()).isNull();
    assertThat(state).isNull();
  }

  @Test
  @DisplayName("after a resolved message, the state is kept for the period, so firing again waits for the summary")
  void keptForPeriod() {
    round(0, failures(1, 1));
    round(1, null);
    round(30, null);
    assertThat(state).as("still within the period of the last message").isNotNull();

    round(61, null);

    assertThat(state).as("the period is over and nothing is pending").isNull();
    assertThat(round(62, failures(1, 1)).message().kind()).as("a new first occurrence").isEqualTo(Kind.FIRING);
  }
}
