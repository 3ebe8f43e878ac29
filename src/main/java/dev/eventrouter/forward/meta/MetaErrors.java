package dev.eventrouter.forward.meta;

import dev.eventrouter.forward.NetworkApi;
import dev.eventrouter.forward.Outcome;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Set;

/**
 * Meta Graph API error codes (https://developers.facebook.com/docs/graph-api/guides/error-handling), as data, and how
 * an answer is classified.
 */
public final class MetaErrors {

  /** Rate limits and temporary errors: 1, 2, 4, 17, 341, 368, 613, 21009, and the 80xxx range. */
  static final Set<Integer> TRANSIENT = Set.of(1, 2, 4, 17, 341, 368, 613, 21009);
  /** Token and permission errors: 190 (rotate the token), 10, and the 2xx range. */
  static final Set<Integer> UNAUTHORIZED = Set.of(190, 10);
  /** Invalid parameter: with one bad event Meta rejects the whole batch. */
  static final int INVALID_PARAMETER = 100;

  /** A success's fields (https://developers.facebook.com/docs/marketing-api/conversions-api/using-the-api). */
  static final List<String> RECEIPT_FIELDS = List.of("events_received", "messages", "fbtrace_id");
  /** An error's fields (https://developers.facebook.com/docs/graph-api/guides/error-handling). */
  static final List<String> ERROR_FIELDS = List.of("message", "type", "code", "error_subcode", "is_transient",
      "error_user_title", "error_user_msg", "fbtrace_id");

  private MetaErrors() {}

  /** Meta's receipt, or its {@code error} object, with their documented fields only; null for any other body. */
  public static JsonObject answer(Buffer body) {
    JsonObject json = jsonOf(body);
    if (json != null && json.getValue("error") instanceof JsonObject error) {
      return new JsonObject().put("error", NetworkApi.fields(error, ERROR_FIELDS));
    }
    return json != null && json.getValue("events_received") instanceof Number
        ? NetworkApi.fields(json, RECEIPT_FIELDS) : null;
  }

  static boolean isTransient(int code) {
    return TRANSIENT.contains(code) || (code >= 80_000 && code <= 80_999);
  }

  static boolean isUnauthorized(int code) {
    return UNAUTHORIZED.contains(code) || (code >= 200 && code <= 299);
  }

  public static Outcome classify(int status, Buffer body, long retryAfterMs) {
    if (status >= 200 && status < 300) {
      return new Outcome.Delivered();
    }
    if (status / 100 == 3) {
      // Never followed: the token would go to wherever it points.
      return new Outcome.Failed("meta HTTP " + status + " (redirects are not followed)");
    }
    JsonObject error = errorOf(body);
    if (error == null) {
      // An HTML page or nothing: a proxy or an outage, not Meta's verdict on the events.
      return new Outcome.Retry("meta HTTP " + status + " without an error body", retryAfterMs);
    }
    int code = error.getInteger("code", 0);
    String message = "meta HTTP " + status + " code " + code
        + (error.getValue("error_subcode") == null ? "" : "/" + error.getValue("error_subcode"))
        + ": " + error.getString("message", "");
    if (status >= 500 || status == 429 || error.getBoolean("is_transient", false) || isTransient(code)) {
      return new Outcome.Retry(message, retryAfterMs);
    }
    if (isUnauthorized(code)) {
      return new Outcome.Unauthorized(message);
    }
    if (code == INVALID_PARAMETER) {
      return new Outcome.InvalidData(message);
    }
    return new Outcome.Failed(message);
  }

  /**
   * Meta answers a success with {@code events_received}
   * (https://developers.facebook.com/docs/marketing-api/conversions-api/using-the-api, the response's fields). Fewer
   * than were sent means some were dropped, and Meta does not say which: the safe reading is that none of the
   * request's events is confirmed. An answer without the count confirms nothing more and is taken as it is.
   */
  public static Outcome.Unconfirmed shortfall(Buffer body, int sent) {
    JsonObject json = jsonOf(body);
    Object received = json == null ? null : json.getValue("events_received");
    if (received instanceof Number count && count.longValue() < sent) {
      return new Outcome.Unconfirmed("meta acknowledged " + count.longValue() + " of the " + sent
          + " events of this request (events_received) and does not say which");
    }
    return null;
  }

  private static JsonObject errorOf(Buffer body) {
    JsonObject json = jsonOf(body);
    return json != null && json.getValue("error") instanceof JsonObject error ? error : null;
  }

  /** The body as a JSON object, or null when there is none or it is not one (parsing null fails too). */
  private static JsonObject jsonOf(Buffer body) {
    try {
      return new JsonObject(body);
    } catch (RuntimeException notJson) {
      return null;
    }
  }
}
