package dev.eventrouter.support;

import dev.eventrouter.config.SnapchatEvents;
import dev.eventrouter.support.FakeAdNetworks.Reply;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.regex.Pattern;

/**
 * How the fake Snapchat Conversions API v3 answers by default, as Snap documents its checks
 * (https://developers.snap.com/api/marketing-api/Conversions-API/VerifySetUp): 400 {@code INVALID} with the index of
 * the event and its errors for a missing required field, an unhashed email or phone, too little to match on, an
 * event older than 37 days, a PURCHASE without value or currency or a name Snapchat does not know; 200 {@code VALID}
 * otherwise. The shapes are those of Snap's OpenAPI file (EventResponse, ValidateResponse). A refused token's body is
 * not documented: {@code {"status": "INVALID", "reason": ...}} with 401 is assumed.
 */
final class FakeSnapchat {

  static final String TOKEN = "snap-token-3c8e7a10";
  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
  private static final long MAX_AGE_SECONDS = 37 * 86_400L;

  private FakeSnapchat() {}

  static Reply answer(String token, JsonObject body, boolean validate) {
    if (!TOKEN.equals(token)) {
      // The token is echoed on purpose: the worst an error message can do, so that redaction is really tested.
      return Reply.of(401, new JsonObject().put("status", "INVALID").put("reason", "Invalid access token " + token));
    }
    JsonArray data = body.getJsonArray("data");
    if (data == null || data.isEmpty()) {
      return invalid(0, "E001", "data is required");
    }
    for (int i = 0; i < data.size(); i++) {
      String error = check(data.getJsonObject(i));
      if (error != null) {
        return invalid(i, "E002", error);
      }
    }
    JsonObject valid = new JsonObject().put("status", "VALID").put("reason", "All events processed");
    return Reply.of(200, validate ? valid.put("test_event", true) : valid);
  }

  /** What is wrong with one event, or null. */
  private static String check(JsonObject event) {
    for (String field : new String[] {"event_name", "event_time", "action_source", "user_data"}) {
      if (event.getValue(field) == null) {
        return "Missing required parameter: " + field;
      }
    }
    if (!SnapchatEvents.STANDARD.contains(event.getString("event_name"))) {
      return "Invalid event_name: " + event.getString("event_name");
    }
    if ("WEB".equals(event.getString("action_source")) && event.getString("event_source_url") == null) {
      return "Missing required parameter: event_source_url";
    }
    long time = event.getLong("event_time");
    long seconds = time > 1_000_000_000_000L ? time / 1000 : time;
    if (seconds < Instant.now().getEpochSecond() - MAX_AGE_SECONDS) {
      return "Timestamp invalid or out of range";
    }
    JsonObject user = event.getJsonObject("user_data");
    for (String hashed : new String[] {"em", "ph", "external_id"}) {
      if (user.getValue(hashed) != null && !allHashed(user.getValue(hashed))) {
        return "Unhashed PII in user_data." + hashed;
      }
    }
    if (user.getValue("em") == null && user.getValue("ph") == null && user.getValue("sc_click_id") == null
        && (user.getValue("client_ip_address") == null || user.getValue("client_user_agent") == null)
        && user.getValue("external_id") == null) {
      return "Insufficient PII";
    }
    JsonObject custom = event.getJsonObject("custom_data");
    if ("PURCHASE".equals(event.getString("event_name"))
        && (custom == null || custom.getValue("value") == null || custom.getString("currency") == null)) {
      return "PURCHASE requires price and currency";
    }
    return null;
  }

  private static boolean allHashed(Object value) {
    return value instanceof JsonArray list && !list.isEmpty()
        && list.stream().allMatch(v -> v instanceof String text && SHA256.matcher(text).matches());
  }

  static Reply invalid(int event, String code, String message) {
    return Reply.of(400, new JsonObject().put("status", "INVALID").put("event", event)
        .put("errors", new JsonObject().put("codes", new JsonArray().add(code))
            .put("error_msgs", new JsonArray().add(message))));
  }
}
