package dev.eventrouter.event;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A partner's postback, read through its source's parameter names and words. Sent to the store as JSON (it may
 * cross the cluster's bus like any JSON message).
 *
 * @param params        what it carried, secrets and user data masked, for the postback log
 * @param clickIdHolds  {@code session_id} or {@code telegram_id}: what {@code clickId} carries
 * @param telegramId    the Telegram user the partner named itself, or null
 * @param transactionId the partner's id of the conversion, or null
 * @param outcome       null for a postback to record as a conversion; otherwise why it was refused
 *                      ({@code macro_not_expanded}, {@code refused}), with {@code detail}
 * @param repairs       what was repaired in the URL the partner's system sent (a second '?', HTML escaping), in our
 *                      words; empty when nothing was
 */
public record Postback(UUID workspaceId, String sourceId, String method, JsonObject params, String clickId,
                       String clickIdHolds, Long telegramId, String eventName, String status, BigDecimal value,
                       String currency, String transactionId, Instant receivedAt, String outcome, String detail,
                       List<String> repairs) {

  public Postback {
    repairs = repairs == null ? List.of() : List.copyOf(repairs);
  }

  public static final String MATCHED = "matched";
  public static final String UNMATCHED = "unmatched";
  public static final String DUPLICATE = "duplicate";
  public static final String MACRO_NOT_EXPANDED = "macro_not_expanded";
  public static final String REFUSED = "refused";

  /** A postback that was not understood, recorded with why. */
  public static Postback refused(UUID workspaceId, String sourceId, String method, JsonObject params, String outcome,
                                 String detail, Instant receivedAt, List<String> repairs) {
    return new Postback(workspaceId, sourceId, method, params, null, null, null, null, null, null, null, null,
        receivedAt, outcome, detail, repairs);
  }

  public JsonObject toJson() {
    return new JsonObject().put("workspace_id", workspaceId.toString()).put("source_id", sourceId)
        .put("method", method).put("params", params).put("click_id", clickId).put("click_id_holds", clickIdHolds)
        .put("telegram_id", telegramId).put("event_name", eventName).put("status", status)
        .put("value", value == null ? null : value.toPlainString()).put("currency", currency)
        .put("transaction_id", transactionId).put("received_at", receivedAt.toString()).put("outcome", outcome)
        .put("detail", detail).put("repairs", new JsonArray(repairs));
  }

  public static Postback fromJson(JsonObject json) {
    String value = json.getString("value");
    return new Postback(UUID.fromString(json.getString("workspace_id")), json.getString("source_id"),
        json.getString("method"), json.getJsonObject("params"), json.getString("click_id"),
        json.getString("click_id_holds"), json.getLong("telegram_id"), json.getString("event_name"),
        json.getString("status"), value == null ? null : new BigDecimal(value), json.getString("currency"),
        json.getString("transaction_id"), Instant.parse(json.getString("received_at")), json.getString("outcome"),
        json.getString("detail"), repairs(json.getJsonArray("repairs")));
  }

  private static List<String> repairs(JsonArray json) {
    return json == null ? List.of() : json.stream().map(String::valueOf).toList();
  }
}
