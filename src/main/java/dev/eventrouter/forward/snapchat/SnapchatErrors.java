package dev.eventrouter.forward.snapchat;

import dev.eventrouter.forward.NetworkApi;
import dev.eventrouter.forward.Outcome;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Snapchat's answers, as its API document writes them (the EventResponse and ValidateResponse schemas of Snap's
 * OpenAPI file, https://github.com/Snapchat/business-sdk-v3-java/blob/main/api/openapi.yaml): {@code status} VALID
 * or INVALID, a {@code reason}, and for an invalid request the index of the {@code event} and its {@code errors}
 * (codes and messages). The body of a refused token is not documented: 401 and 403 are read as refused credentials
 * whatever they carry (the safe reading: the integration pauses rather than retrying a dead token).
 */
public final class SnapchatErrors {

  static final String VALID = "VALID";
  static final String INVALID = "INVALID";
  /** The fields of every answer, success or not (test_event on the validate path's). */
  static final List<String> ANSWER_FIELDS = List.of("status", "reason", "event", "test_event");

  private SnapchatErrors() {}

  /** Snapchat's answer (its status, reason and the errors of an invalid event); null for a body without a status. */
  public static JsonObject answer(Buffer body) {
    JsonObject json = jsonOf(body);
    if (json == null || !(json.getValue("status") instanceof String)) {
      return null;
    }
    JsonObject answer = NetworkApi.fields(json, ANSWER_FIELDS);
    if (json.getValue("errors") instanceof JsonObject errors) {
      answer.put("errors", NetworkApi.fields(errors, List.of("codes", "error_msgs")));
    }
    return answer;
  }

  public static Outcome classify(int status, Buffer body, long retryAfterMs) {
    JsonObject json = jsonOf(body);
    String verdict = json == null ? null : json.getValue("status") instanceof String text ? text : null;
    String message = "snapchat HTTP " + status + (verdict == null ? "" : " " + verdict + ": " + words(json));
    if (status >= 200 && status < 300 && VALID.equals(verdict)) {
      return new Outcome.Delivered();
    }
    if (status == 429 || status >= 500) {
      return new Outcome.Retry(message, retryAfterMs);
    }
    if (status == 401 || status == 403) {
      return new Outcome.Unauthorized(message);
    }
    if (INVALID.equals(verdict)) {
      return new Outcome.InvalidData(message); // one bad event refuses the request: split to find it
    }
    // A 2xx without VALID (a proxy's page) is no receipt; anything else is refused for good.
    return status >= 200 && status < 300 ? new Outcome.Retry(message + " without a status", retryAfterMs)
        : new Outcome.Failed(message);
  }

  /** Snapchat's words for a verdict: its reason, and the error messages of an invalid event. */
  private static String words(JsonObject json) {
    StringBuilder words = new StringBuilder(json.getValue("reason") instanceof String reason ? reason : "");
    if (json.getValue("errors") instanceof JsonObject errors
        && errors.getValue("error_msgs") instanceof JsonArray messages) {
      for (Object message : messages) {
        words.append(words.isEmpty() ? "" : "; ").append(message);
      }
    }
    return words.toString();
  }

  /** The body as a JSON object, or null when there is none or it is not one. */
  private static JsonObject jsonOf(Buffer body) {
    try {
      return new JsonObject(body);
    } catch (RuntimeException notJson) {
      return null;
    }
  }
}
