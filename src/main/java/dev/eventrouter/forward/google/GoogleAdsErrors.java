package dev.eventrouter.forward.google;

import dev.eventrouter.forward.NetworkApi;
import dev.eventrouter.forward.Outcome;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Google Ads' answers, as data (https://developers.google.com/google-ads/api/docs/best-practices/understand-api-errors
 * and the v21 error enums, https://github.com/googleapis/googleapis/tree/master/google/ads/googleads/v21/errors).
 * A request with {@code partialFailure} is answered 200 even when rows fail: its {@code partialFailureError} names
 * each failed row by its index ({@code location.fieldPathElements[0].index}), and every other row was taken. A
 * refused refresh token is the OAuth endpoint's answer ({@code {"error": "invalid_grant", ...}}).
 */
public final class GoogleAdsErrors {

  /** Rows Google asks to send again later, and how much later: a click or an action too new, a conversion too new. */
  static final Map<String, Duration> RETRY_LATER = Map.of(
      "TOO_RECENT_EVENT", Duration.ofHours(6),
      "TOO_RECENT_CONVERSION_ACTION", Duration.ofHours(6),
      "TOO_RECENT_CONVERSION", Duration.ofHours(24));
  /**
   * Rows Google already has: an upload sent again (its order id, which is our event id, is taken), a retraction or
   * restatement already made. A retry cannot count twice; these are delivered.
   */
  static final Set<String> ALREADY_DONE = Set.of("CLICK_CONVERSION_ALREADY_EXISTS", "ORDER_ID_ALREADY_IN_USE",
      "CONVERSION_ALREADY_RETRACTED", "RESTATEMENT_ALREADY_EXISTS");
  /** A row's refusal of a click id it cannot know: what a credential test's made-up gclid gets. */
  static final Set<String> UNKNOWN_CLICK = Set.of("UNPARSEABLE_GCLID", "EVENT_NOT_FOUND");

  /** The fields of an answer a credential test shows. */
  static final List<String> OAUTH_FIELDS = List.of("error", "error_description");
  static final List<String> STATUS_FIELDS = List.of("code", "message", "status");

  private GoogleAdsErrors() {}

  /** The verdict on a request of {@code sent} rows: one for all, or one per row on a partial failure. */
  public static Outcome verdict(int status, Buffer body, long retryAfterMs, int sent) {
    JsonObject json = jsonOf(body);
    if (json != null && json.getValue("error") instanceof String oauth) {
      String message = "google OAuth HTTP " + status + " " + oauth + ": " + json.getString("error_description", "");
      return status == 429 || status >= 500 ? new Outcome.Retry(message, retryAfterMs)
          : new Outcome.Unauthorized(message);
    }
    if (status >= 200 && status < 300) {
      if (json == null) {
        return new Outcome.Retry("google HTTP " + status + " without an answer", retryAfterMs);
      }
      return json.getValue("partialFailureError") instanceof JsonObject failure ? perRow(failure, sent)
          : new Outcome.Delivered();
    }
    String message = "google HTTP " + status + (json != null && json.getValue("error") instanceof JsonObject error
        ? " " + error.getString("status", "") + describe(error) : "");
    if (status == 429 || status >= 500) {
      return new Outcome.Retry(message, retryAfterMs);
    }
    if (status == 401 || status == 403) {
      return new Outcome.Unauthorized(message);
    }
    return new Outcome.Failed(message);
  }

  /** A credential test's verdict: as any, but its made-up click refused means everything else was accepted. */
  public static Outcome testVerdict(int status, Buffer body) {
    JsonObject json = jsonOf(body);
    if (status == 200 && json != null && json.getValue("partialFailureError") instanceof JsonObject failure
        && !errors(failure).isEmpty() && errors(failure).stream().allMatch(e -> UNKNOWN_CLICK.contains(code(e)))) {
      return new Outcome.Delivered();
    }
    return verdict(status, body, 0, 1);
  }

  /** Each row's outcome: its error's, else taken. An error without a row's index is every row's. */
  private static Outcome perRow(JsonObject failure, int sent) {
    List<Outcome> each = new ArrayList<>(Collections.nCopies(sent, new Outcome.Delivered()));
    boolean[] judged = new boolean[sent];
    for (JsonObject error : errors(failure)) {
      Outcome outcome = rowOutcome(error);
      Integer row = row(error);
      for (int i = 0; i < sent; i++) {
        if ((row == null || row == i) && !judged[i]) {
          each.set(i, outcome);
          judged[i] = !(outcome instanceof Outcome.Delivered);
        }
      }
    }
    if (errors(failure).isEmpty()) {
      return new Outcome.Failed("google partial failure: " + failure.getString("message", ""));
    }
    return new Outcome.PerEvent(List.copyOf(each));
  }

  private static Outcome rowOutcome(JsonObject error) {
    String code = code(error);
    String message = "google " + kind(error) + " " + code + ": " + error.getString("message", "");
    if (ALREADY_DONE.contains(code)) {
      return new Outcome.Delivered();
    }
    Duration later = RETRY_LATER.get(code);
    return later != null ? new Outcome.Retry(message, later.toMillis()) : new Outcome.Failed(message);
  }

  /** The errors of a GoogleAdsFailure among a status's details. */
  private static List<JsonObject> errors(JsonObject status) {
    List<JsonObject> errors = new ArrayList<>();
    if (status.getValue("details") instanceof JsonArray details) {
      for (Object detail : details) {
        if (detail instanceof JsonObject failure && failure.getValue("errors") instanceof JsonArray list) {
          list.stream().filter(JsonObject.class::isInstance).map(JsonObject.class::cast).forEach(errors::add);
        }
      }
    }
    return errors;
  }

  /** The row an error names: the index of its path's first element (conversions[i], conversionAdjustments[i]). */
  private static Integer row(JsonObject error) {
    if (error.getValue("location") instanceof JsonObject location
        && location.getValue("fieldPathElements") instanceof JsonArray path && !path.isEmpty()
        && path.getValue(0) instanceof JsonObject first && first.getValue("index") instanceof Number index) {
      return index.intValue();
    }
    return null;
  }

  /** The error code's value ({@code {"conversionUploadError": "TOO_RECENT_EVENT"}}: TOO_RECENT_EVENT). */
  private static String code(JsonObject error) {
    if (error.getValue("errorCode") instanceof JsonObject code && code.size() == 1
        && code.getValue(code.fieldNames().iterator().next()) instanceof String value) {
      return value;
    }
    return "UNKNOWN";
  }

  /** The error code's kind ({@code conversionUploadError}). */
  private static String kind(JsonObject error) {
    return error.getValue("errorCode") instanceof JsonObject code && code.size() == 1
        ? code.fieldNames().iterator().next() : "error";
  }

  /** A request-level error's codes and messages: the words to store. */
  private static String describe(JsonObject error) {
    StringBuilder words = new StringBuilder();
    for (JsonObject each : errors(error)) {
      words.append(" ").append(kind(each)).append(" ").append(code(each)).append(": ")
          .append(each.getString("message", ""));
    }
    return words.isEmpty() ? ": " + error.getString("message", "") : words.toString();
  }

  /** Google's answer as a credential test shows it: an OAuth error, a status, or a partial failure's status. */
  public static JsonObject answer(Buffer body) {
    JsonObject json = jsonOf(body);
    if (json == null) {
      return null;
    }
    if (json.getValue("error") instanceof String) {
      return NetworkApi.fields(json, OAUTH_FIELDS);
    }
    JsonObject answer = new JsonObject();
    if (json.getValue("error") instanceof JsonObject error) {
      answer.put("error", NetworkApi.fields(error, STATUS_FIELDS));
    }
    if (json.getValue("partialFailureError") instanceof JsonObject failure) {
      answer.put("partialFailureError", NetworkApi.fields(failure, STATUS_FIELDS));
    }
    if (json.getValue("jobId") instanceof String || json.getValue("jobId") instanceof Number) {
      answer.put("jobId", json.getValue("jobId"));
    }
    return answer.isEmpty() && !json.containsKey("results") ? null : answer;
  }

  private static JsonObject jsonOf(Buffer body) {
    try {
      return new JsonObject(body);
    } catch (RuntimeException notJson) {
      return null;
    }
  }
}
