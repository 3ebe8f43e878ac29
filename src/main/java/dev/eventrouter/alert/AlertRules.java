package dev.eventrouter.alert;

import dev.eventrouter.store.AlertState;

import java.time.Duration;
import java.time.Instant;

/**
 * When a condition's targets hear of it, as Qubix's failure alerts do it ("the first message arrives immediately, then
 * a single summary once per the chosen period", https://docs.qubix.pro/facebook/capi): the first time it fires, a
 * message at once; what happens after a message and within the summary period (more failures, firing again after
 * clearing) waits for one summary at the period's end; when it clears after its targets heard it fire, a "resolved"
 * message at once. So a condition that flaps sends at most about two messages a period. Pure: the store keeps the
 * states, the round applies this to each.
 */
final class AlertRules {

  enum Kind {
    FIRING("firing"), RESOLVED("resolved"), SUMMARY("summary");

    final String id;

    Kind(String id) {
      this.id = id;
    }
  }

  /**
   * What a round read of one condition and subject.
   *
   * @param holds    whether the condition holds now
   * @param since    since when it holds, where the source knows it (a pause, a breaker); null: since the round that
   *                 first saw it
   * @param inWindow for a count condition, how many happened in its window; 1 for a state
   * @param fresh    for a count condition, how many of them are new since the last round; 0 for a state
   * @param detail   the latest words about it (the network's, Telegram's, the partner's), or null
   */
  record Reading(boolean holds, Instant since, long inWindow, long fresh, String detail) {

    static Reading state(Instant since, String detail) {
      return new Reading(true, since, 1, 0, detail);
    }
  }

  /**
   * A message to queue: its kind, the occurrences it tells (for a firing message, those that made it fire; else
   * those since the last message), whether the condition fires as it is sent, and (a count condition's) how many
   * are in its window then.
   */
  record Message(Kind kind, long occurrences, boolean firing, long inWindow) {}

  /** @param next the state to keep, null when there is nothing left to remember; @param message null for none */
  record Step(AlertState next, Message message) {}

  private AlertRules() {}

  /**
   * @param prev    what was kept, or a blank state of the condition and subject (nothing active, told or pending)
   * @param reading what the round read, or null when the condition does not hold (nothing read)
   * @param hold    how long it must hold before it fires
   * @param period  the summary period
   */
  static Step step(AlertState prev, Reading reading, Duration hold, Duration period, Instant now) {
    boolean holds = reading != null && reading.holds();
    Instant activeSince = !holds ? null
        : reading.since() != null ? reading.since() : prev.activeSince() != null ? prev.activeSince() : now;
    boolean firing = holds && !now.isBefore(activeSince.plus(hold));
    boolean starts = firing && !prev.firing();
    long occurrences = starts ? reading.inWindow() : firing ? reading.fresh() : 0;
    String detail = reading != null && reading.detail() != null ? reading.detail() : prev.detail();
    long pending = prev.pending() + occurrences;
    boolean periodOver = prev.lastSentAt() == null || !now.isBefore(prev.lastSentAt().plus(period));

    long inWindow = holds ? reading.inWindow() : 0;
    Message message = null;
    if (starts && periodOver) {
      message = new Message(Kind.FIRING, occurrences, true, inWindow);
    } else if (!firing && AlertState.FIRING.equals(prev.told())) { // told "firing" only while it fired
      message = new Message(Kind.RESOLVED, prev.pending(), false, inWindow);
    } else if (pending > 0 && periodOver) { // pending only after a first message
      message = new Message(Kind.SUMMARY, pending, firing, inWindow);
    }
    if (message != null) {
      return new Step(new AlertState(prev.workspaceId(), prev.condition(), prev.subject(), activeSince, firing,
          firing ? AlertState.FIRING : AlertState.RESOLVED, now, 0, detail), message);
    }
    // Without a message here, a condition that does not hold was told "resolved" (or nothing), and has nothing pending
    // once its period is over: nothing is left to remember but when the last message went, which no longer matters.
    boolean forget = !holds && periodOver;
    return new Step(forget ? null : new AlertState(prev.workspaceId(), prev.condition(), prev.subject(), activeSince,
        firing, prev.told(), prev.lastSentAt(), pending, detail), null);
  }
}
