package dev.eventrouter.config;

import java.util.Set;

/**
 * One pixel of one network that a workspace's events go to.
 *
 * @param pixel         Meta pixel (dataset) id, or TikTok pixel code
 * @param apiVersion    Meta Graph API version; unused for TikTok
 * @param source        Meta action_source, or TikTok event_source
 * @param pageUrl       TikTok web events: the page URL sent when the event's session has no landing page (the
 *                      config's page_url, else the workspace bot's t.me link); null otherwise
 * @param testEventCode sent as test_event_code when set (Events Manager test tool)
 * @param dryRun        build and store the payload instead of sending it
 * @param events        the event names (as the bot sends them) this integration takes, or null for every name
 * @param dataProcessing Limited Data Use for events that do not choose it themselves
 * @param webhook       a webhook's request (its HMAC secret is {@code accessToken}); null for the ad networks
 * @param allowPrivateNetwork whether its requests may go to loopback, link-local and private addresses (a receiver
 *                      or a test double on the operator's own network); false: public addresses only
 */
public record IntegrationConfig(String id, Network network, String pixel, String accessToken, String apiBase,
                                String apiVersion, String source, String pageUrl, String testEventCode,
                                boolean enabled,
                                boolean dryRun,
                                Set<String> events,
                                DataProcessing dataProcessing,
                                WebhookConfig webhook,
                                boolean allowPrivateNetwork) {

  /** An integration whose requests go to public addresses only. */
  public IntegrationConfig(String id, Network network, String pixel, String accessToken, String apiBase,
                           String apiVersion, String source, String pageUrl, String testEventCode, boolean enabled,
                           boolean dryRun, Set<String> events, DataProcessing dataProcessing, WebhookConfig webhook) {
    this(id, network, pixel, accessToken, apiBase, apiVersion, source, pageUrl, testEventCode, enabled, dryRun, events,
        dataProcessing, webhook, false);
  }

  /** Whether an event of this name gets a delivery to this integration. */
  public boolean takes(String eventName) {
    return events == null || events.contains(eventName);
  }

  /** This integration sending with another test_event_code (a credential test's). */
  public IntegrationConfig withTestEventCode(String code) {
    return new IntegrationConfig(id, network, pixel, accessToken, apiBase, apiVersion, source, pageUrl, code, enabled,
        dryRun, events, dataProcessing, webhook, allowPrivateNetwork);
  }

  /** Never print the token. */
  @Override
  public String toString() {
    return "IntegrationConfig[" + id + " " + network.id + " " + pixel + "]";
  }
}
