package dev.eventrouter.event;

import dev.eventrouter.common.Sha256;
import io.vertx.core.json.JsonObject;

import java.math.BigDecimal;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A conversion event as accepted from a client, after validation.
 *
 * @param sessionId the advertising session, or null
 * @param value     a non-negative amount, or null
 * @param currency  ISO 4217, upper case
 * @param userData  the raw user data as sent (flat), or null
 */
public record ConversionEvent(UUID workspaceId, String eventName, long telegramId, String sessionId, BigDecimal value,
                              String currency, JsonObject userData) {

  /** JSON for the event bus and the store. The value travels as a string so no node rounds it through a double. */
  public JsonObject toJson() {
    return new JsonObject()
        .put("workspace_id", workspaceId.toString())
        .put("event_name", eventName)
        .put("telegram_id", telegramId)
        .put("session_id", sessionId)
        .put("value", value == null ? null : value.toPlainString())
        .put("currency", currency)
        .put("user_data", userData);
  }

  public static ConversionEvent fromJson(JsonObject json) {
    String value = json.getString("value");
    return new ConversionEvent(
        UUID.fromString(json.getString("workspace_id")),
        json.getString("event_name"),
        json.getLong("telegram_id"),
        json.getString("session_id"),
        value == null ? null : new BigDecimal(value),
        json.getString("currency"),
        json.getJsonObject("user_data"));
  }

  /**
   * A digest of what the event means, independent of key order and spelling the client chose (currency case,
   * {@code 10} vs {@code 10.0}), so a retried request matches its Idempotency-Key and a different one does not.
   */
  public String contentHash() {
    JsonObject canonical = toJson()
        .put("value", value == null ? null : value.stripTrailingZeros().toPlainString())
        .put("user_data", userData == null ? null : new JsonObject(new TreeMap<>(userData.getMap())));
    return Sha256.hex(new JsonObject(new TreeMap<>(canonical.getMap())).encode());
  }
}
