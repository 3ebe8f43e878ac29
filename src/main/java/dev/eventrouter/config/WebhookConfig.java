package dev.eventrouter.config;

import java.util.List;
import java.util.Map;

/**
 * The request a webhook integration makes for each event (its HMAC secret is the integration's access token, so it
 * is redacted like one).
 *
 * @param url      absolute http(s) URL with {@code {placeholders}} among {@link #PLACEHOLDERS}
 * @param method   POST or PUT (the event as a JSON body), or GET (no body: the URL carries what the receiver needs)
 * @param headers  extra request headers, their {@code ${ENV}} references already replaced
 * @param eventMap the names the receiver wants, by the event name the bot sends; other names go as sent
 */
public record WebhookConfig(String url, String method, Map<String, String> headers, Map<String, String> eventMap) {

  /**
   * What a URL may name: the event's fields, the mapped name, the click ids of its session, and its conversion's
   * status, status before this change and value at it ({status}, {previous_status}, {value}).
   */
  public static final List<String> PLACEHOLDERS = List.of("event_id", "event_name", "mapped_event", "workspace_id",
      "telegram_id", "session_id", "value", "currency", "received_at", "fbclid", "fbc", "fbp", "ttclid", "ttp",
      "gclid", "gbraid", "wbraid", "sccid", "scid", "status", "previous_status");

  /** The name an event goes to the receiver under. */
  public String eventName(String sent) {
    return eventMap.getOrDefault(sent, sent);
  }

  /** Never print the headers: they carry credentials. */
  @Override
  public String toString() {
    return "WebhookConfig[" + method + "]";
  }
}
