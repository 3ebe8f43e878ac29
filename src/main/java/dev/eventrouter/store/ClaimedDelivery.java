package dev.eventrouter.store;

import dev.eventrouter.event.ClickData;
import dev.eventrouter.event.ClickIds;
import dev.eventrouter.event.ClickSession;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;

/**
 * One claimed delivery with what its payload is built from. A delivery taken past a cursor has no row yet
 * ({@code deliveryId} 0, {@link #rowless}): its outcome makes it.
 *
 * @param eventName   the event's name as the bot sent it
 * @param mappedEvent the name this delivery's integration takes it under
 * @param sessionId   the event's advertising session, or null
 * @param click the click data of the event's session; {@link ClickData#NONE} (never null) when none was captured
 * @param limitedDataUse the event's own Limited Data Use choice, or null for the integration's default
 * @param telegramId  the user, or null for a partner's conversion whose user is not known
 * @param value       the conversion's value at the change this delivery carries
 * @param conversionStatus the conversion's status at that change
 * @param previousStatus   its status before that change; null for the conversion as first received
 * @param change      the change it carries: 0 for the conversion as first received, then 1, 2, ...
 * @param network     the network's id, where its row is to be made
 */
public record ClaimedDelivery(long deliveryId, long eventId, UUID workspaceId, String integrationId, String eventName,
                              String mappedEvent, int attempts, Long telegramId, String sessionId, BigDecimal value,
                              String currency, JsonObject userData, Instant receivedAt, ClickData click,
                              Boolean limitedDataUse, String conversionStatus, String previousStatus, int change,
                              String network) {

  public ClaimedDelivery {
    click = click == null ? ClickData.NONE : click;
  }

  /** The delivery of an approved conversion as first received. */
  public ClaimedDelivery(long deliveryId, long eventId, UUID workspaceId, String integrationId, String eventName,
                         String mappedEvent, int attempts, long telegramId, String sessionId, BigDecimal value,
                         String currency, JsonObject userData, Instant receivedAt, ClickData click,
                         Boolean limitedDataUse) {
    this(deliveryId, eventId, workspaceId, integrationId, eventName, mappedEvent, attempts, telegramId, sessionId,
        value, currency, userData, receivedAt, click, limitedDataUse, "approved", null, 0, null);
  }

  /** Taken past a cursor: its row is made by its outcome, not updated. */
  public boolean rowless() {
    return deliveryId == 0;
  }

  /** A user_data value as text (numbers and booleans too), or null when absent or empty. */
  public String userValue(String key) {
    Object value = userData == null ? null : userData.getValue(key);
    String text = value == null ? null : String.valueOf(value).trim();
    return text == null || text.isEmpty() ? null : text;
  }

  /** The browser's IP: as the sender gave it in user_data, else as the click session captured it. */
  public String clientIp() {
    String given = userValue("client_ip");
    return given != null ? given : click.clientIp();
  }

  /** The browser's user agent: from user_data, else from the click session. */
  public String userAgent() {
    String given = userValue("user_agent");
    return given != null ? given : click.userAgent();
  }

  /** A claimed or taken delivery as the claiming statements return it (see {@link DeliveryStore#CLAIM}). */
  static ClaimedDelivery of(Row row) {
    ClickData click = null;
    if (row.getString("click_session") != null) {
      click = ClickData.of(new ClickSession(row.getUUID("workspace_id"), row.getString("click_session"),
          row.getString("fbclid"), row.getString("fbc"), row.getString("fbp"), row.getString("ttclid"),
          row.getString("ttp"), row.getString("client_ip"), row.getString("user_agent"),
          row.getString("landing_url"), row.getOffsetDateTime("clicked_at").toInstant(), null,
          ClickSession.Origin.NONE, new ClickIds(row.getString("gclid"), row.getString("gbraid"),
          row.getString("wbraid"), row.getString("sccid"), row.getString("scid"))));
    }
    Object userData = row.getJson("user_data");
    return new ClaimedDelivery(row.getLong("delivery_id"), row.getLong("event_id"), row.getUUID("workspace_id"),
        row.getString("integration_id"), row.getString("event_name"), row.getString("mapped_event"),
        row.getInteger("attempts"), row.getLong("telegram_id"), row.getString("session_id"),
        row.getBigDecimal("value"), row.getString("currency"),
        userData instanceof JsonObject json ? json : null, row.getOffsetDateTime("received_at").toInstant(), click,
        row.getBoolean("limited_data_use"), row.getString("conversion_status"), row.getString("previous_status"),
        row.getInteger("change_seq"), row.getString("network"));
  }
}
