package dev.eventrouter.alert;

import dev.eventrouter.alert.AlertRules.Message;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * An alert as its targets get it: a short text (a Telegram message) naming the workspace, the subject and the
 * network's own words, and the same as JSON fields (a webhook's body). The words come from what the service already
 * stores and shows (a pause's reason and a delivery's last error with their tokens redacted, a postback's outcome
 * detail, Telegram's refusal); never a token, an event's user data, a session or a Telegram user.
 */
final class AlertText {

  /** Long enough for a network's error message; an alert is read on a phone. */
  static final int MAX_DETAIL = 300;

  private AlertText() {}

  /**
   * @param window the condition's window (count conditions) or how long it must hold (the others), as told
   */
  static JsonObject message(UUID workspaceId, String workspace, AlertCondition condition, String subject,
                            Message message, Duration window, String detail, Instant at) {
    String words = detail == null ? null : shorten(detail);
    String text = "[" + workspace + "] " + switch (message.kind()) {
      case FIRING -> "ALERT: " + fill(condition.firing, subject, message.inWindow(), window, words);
      case RESOLVED -> "RESOLVED: " + fill(condition.resolved, subject, message.inWindow(), window, words);
      case SUMMARY -> "SUMMARY: " + message.occurrences() + " more since the last message. Now: "
          + fill(message.firing() ? condition.firing : condition.resolved, subject, message.inWindow(), window,
              words);
    };
    return new JsonObject().put("workspace_id", workspaceId.toString()).put("workspace", workspace)
        .put("condition", condition.id).put("subject", subject).put("kind", message.kind().id)
        .put("firing", message.firing()).put("occurrences", message.occurrences()).put("detail", words)
        .put("at", at.toString()).put("text", text);
  }

  static String fill(String template, String subject, long count, Duration window, String detail) {
    return template.replace("{s}", subject).replace("{n}", String.valueOf(count))
        .replace("{window}", duration(window)).replace("{detail}", detail == null ? "no details" : detail);
  }

  /** "15 min", "3 h", "1 h 30 min", "45 s". */
  static String duration(Duration d) {
    long seconds = d.toSeconds();
    if (seconds < 60) {
      return seconds + " s";
    }
    long hours = seconds / 3600;
    long minutes = seconds % 3600 / 60;
    return hours == 0 ? minutes + " min" : minutes == 0 ? hours + " h" : hours + " h " + minutes + " min";
  }

  /**
   * One line: control and format characters (a newline, a right-to-left override) and every kind of space become
   * one space, so words from outside (a partner's parameter name) cannot start a line of their own.
   */
  private static String shorten(String detail) {
    String line = detail.replaceAll("[\\s\\p{Z}\\p{Cc}\\p{Cf}]+", " ").strip();
    return line.length() <= MAX_DETAIL ? line : line.substring(0, MAX_DETAIL - 3) + "...";
  }
}
