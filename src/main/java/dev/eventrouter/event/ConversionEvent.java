package dev.eventrouter.event;

import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.ConversionStatus;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A conversion event as accepted from a client, after validation.
 *
 * @param telegramId the Telegram user; null only for a partner's conversion whose user is not known (a postback whose
 *                  session has no /start or join)
 * @param sessionId the advertising session, or null
 * @param value     a non-negative amount, or null
 * @param currency  ISO 4217, upper case
 * @param userData  the raw user data as sent (flat), or null
 * @param limitedDataUse the user's consent state for this event: true asks the networks for Limited Data Use, false
 *                  says it does not apply; null leaves it to each integration's default
 * @param conversionStatus one of {@link ConversionStatus#ALL}; null reads as approved
 * @param transactionId the sender's own id of the conversion, which a later report of another status or value
 *                  updates; null when the sender gives none
 */
public record ConversionEvent(UUID workspaceId, String eventName, Long telegramId, String sessionId, BigDecimal value,
                              String currency, JsonObject userData, Boolean limitedDataUse, String conversionStatus,
                              String transactionId) {

  /** An event without status or transaction id (approved, and never updated). */
  public ConversionEvent(UUID workspaceId, String eventName, long telegramId, String sessionId, BigDecimal value,
                         String currency, JsonObject userData, Boolean limitedDataUse) {
    this(workspaceId, eventName, telegramId, sessionId, value, currency, userData, limitedDataUse, null, null);
  }

  /** Its status: approved when the sender named none. */
  public String status() {
    return ConversionStatus.orApproved(conversionStatus);
  }

  /** The event as JSON, from which its digest is made; the value as text, never rounded through a double. */
  public JsonObject toJson() {
    JsonObject json = new JsonObject()
        .put("workspace_id", workspaceId.toString())
        .put("event_name", eventName)
        .put("telegram_id", telegramId)
        .put("session_id", sessionId)
        .put("value", value == null ? null : value.toPlainString())
        .put("currency", currency)
        .put("user_data", userData)
        .put("limited_data_use", limitedDataUse);
    // Only when given: the digest of an event without them stays what it was before these fields existed.
    if (conversionStatus != null) {
      json.put("conversion_status", conversionStatus);
    }
    if (transactionId != null) {
      json.put("transaction_id", transactionId);
    }
    return json;
  }

  /**
   * A digest of what the event means, independent of key order and spelling the client chose (currency case,
   * {@code 10} vs {@code 10.0}), so a retried request matches its Idempotency-Key and a different one does not.
   */
  public String contentHash() {
    JsonObject canonical = toJson()
        .put("value", value == null ? null : value.stripTrailingZeros().toPlainString())
        .put("user_data", userData == null ? null : new JsonObject(new TreeMap<>(userData.getMap())));
    if (limitedDataUse == null) {
      canonical.remove("limited_data_use"); // the digest of an event without it stays what it was before the field
    }
    return Sha256.hex(new JsonObject(new TreeMap<>(canonical.getMap())).encode());
  }
}
