package dev.eventrouter.alert;

import dev.eventrouter.alert.AlertRules.Kind;
import dev.eventrouter.alert.AlertRules.Message;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** What an alert says, word for word, and its JSON form. */
class AlertTextUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final Instant AT = Instant.parse("2026-11-26T10:00:00Z");

  private static JsonObject message(AlertCondition condition, Message message, Duration window, String detail) {
    return AlertText.message(WS, "demo", condition, "meta/meta-main", message, window, detail, AT);
  }

  @Test
  @DisplayName("a firing message names the workspace and subject, counts what is in the window, quotes the words")
  void firing() {
    JsonObject alert = message(AlertCondition.DELIVERIES_FAILED, new Message(Kind.FIRING, 3, true, 4),
        Duration.ofMinutes(15), "meta HTTP 400 code 100: Invalid parameter");

    assertThat(alert.getString("text")).isEqualTo("[demo] ALERT: meta/meta-main: failed or expired deliveries in the "
        + "last 15 min: 4. Last error: meta HTTP 400 code 100: Invalid parameter");
    assertThat(alert).isEqualTo(new JsonObject().put("workspace_id", WS.toString()).put("workspace", "demo")
        .put("condition", "deliveries_failed").put("subject", "meta/meta-main").put("kind", "firing")
        .put("firing", true).put("occurrences", 3L).put("detail", "meta HTTP 400 code 100: Invalid parameter")
        .put("at", "2026-11-26T10:00:00Z").put("text", alert.getString("text")));
  }

  @Test
  @DisplayName("a summary counts what came since the last message, then says how things stand: firing or resolved")
  void summary() {
    assertThat(message(AlertCondition.INTEGRATION_PAUSED, new Message(Kind.SUMMARY, 2, true, 1), Duration.ZERO,
        "code 190").getString("text")).isEqualTo("[demo] SUMMARY: 2 more since the last message. Now: meta/meta-main "
        + "is paused: the network refused its token or permissions (code 190). Its deliveries are held until its "
        + "access_token is changed.");
    assertThat(message(AlertCondition.INTEGRATION_PAUSED, new Message(Kind.SUMMARY, 5, false, 0), Duration.ZERO,
        "code 190").getString("text")).isEqualTo("[demo] SUMMARY: 5 more since the last message. Now: meta/meta-main "
        + "resumed: its held deliveries go out now.");
  }

  @Test
  @DisplayName("a resolved message, and a firing one without words, say so")
  void resolvedAndNoWords() {
    assertThat(message(AlertCondition.BREAKER_OPEN, new Message(Kind.RESOLVED, 0, false, 0), Duration.ofMinutes(10),
        null).getString("text")).isEqualTo("[demo] RESOLVED: meta/meta-main: circuit breaker closed, deliveries go "
        + "out again.");
    JsonObject open = message(AlertCondition.BREAKER_OPEN, new Message(Kind.FIRING, 1, true, 1),
        Duration.ofMinutes(10), null);
    assertThat(open.getString("text")).endsWith("Last failure: no details");
    assertThat(open.getValue("detail")).isNull();
  }

  @Test
  @DisplayName("the words are one line, and long ones are cut to 300 characters")
  void wordsShortened() {
    String long400 = "x".repeat(400);
    JsonObject alert = message(AlertCondition.DELIVERIES_FAILED, new Message(Kind.FIRING, 1, true, 1),
        Duration.ofMinutes(15), "line one\n  line\ttwo " + long400);

    assertThat(alert.getString("detail")).hasSize(AlertText.MAX_DETAIL).startsWith("line one line two xx")
        .endsWith("x...");
    assertThat(message(AlertCondition.DELIVERIES_FAILED, new Message(Kind.FIRING, 1, true, 1),
        Duration.ofMinutes(15), "y".repeat(300)).getString("detail")).isEqualTo("y".repeat(300));
  }

  @Test
  @DisplayName("words from outside cannot start a line of their own: control and format characters and every kind "
      + "of space are one space")
  void oneLine() {
    String planted = "parameter x\r\n[demo] RESOLVED: log in at http://evil.example\u2028\u0085\u202Eabc\u0000"
        + "\u00a0end";
    assertThat(message(AlertCondition.POSTBACK_MACROS, new Message(Kind.FIRING, 1, true, 1), Duration.ofHours(1),
        planted).getString("detail")).isEqualTo("parameter x [demo] RESOLVED: log in at http://evil.example abc end");
  }

  @Test
  @DisplayName("durations read as a buyer says them")
  void durations() {
    assertThat(AlertText.duration(Duration.ofSeconds(59))).isEqualTo("59 s");
    assertThat(AlertText.duration(Duration.ofSeconds(60))).isEqualTo("1 min");
    assertThat(AlertText.duration(Duration.ofMinutes(59))).isEqualTo("59 min");
    assertThat(AlertText.duration(Duration.ofHours(3))).isEqualTo("3 h");
    assertThat(AlertText.duration(Duration.ofMinutes(90))).isEqualTo("1 h 30 min");
  }

  @Test
  @DisplayName("every condition has its own words for firing and for resolved, and is found by its id")
  void conditionTable() {
    for (AlertCondition condition : AlertCondition.values()) {
      assertThat(AlertCondition.of(condition.id)).isSameAs(condition);
      assertThat(condition.firing).isNotEqualTo(condition.resolved);
    }
    assertThat(AlertCondition.of("unknown")).isNull();
  }
}
