package dev.eventrouter.config;

import dev.eventrouter.common.ProxyConfig;

import java.util.Set;

/**
 * One pixel of one network that a workspace's events go to.
 *
 * @param pixel         Meta pixel (dataset) id, or TikTok pixel code
 * @param apiVersion    Meta Graph API version; unused for TikTok
 * @param source        Meta action_source, or TikTok event_source
 * @param pageUrl       the page named when an event's session has no landing page (the config's page_url, else the
 *                      workspace bot's t.me link): TikTok's page.url, Meta's event_source_url on website events; null
 *                      when there is neither
 * @param testEventCode sent as test_event_code when set (Events Manager test tool)
 * @param dryRun        build and store the payload instead of sending it
 * @param events        the event names (as the bot sends them) this integration takes, or null for every name
 * @param dataProcessing Limited Data Use for events that do not choose it themselves
 * @param webhook       a webhook's request (its HMAC secret is {@code accessToken}); null for the ad networks
 * @param allowPrivateNetwork whether its requests may go to loopback, link-local and private addresses (a receiver
 *                      or a test double on the operator's own network); false: public addresses only
 * @param sendOn        the conversion statuses that forward an event: Meta and TikTok get a conversion once, at the
 *                      first of them it reaches; a webhook gets every change to one of them
 * @param proxy         the proxy every request of the integration goes through (its credential test's too), or null
 * @param google        a Google Ads integration's account, credentials and conversion actions; null for the others
 */
public record IntegrationConfig(String id, Network network, String pixel, String accessToken, String apiBase,
                                String apiVersion, String source, String pageUrl, String testEventCode,
                                boolean enabled,
                                boolean dryRun,
                                Set<String> events,
                                DataProcessing dataProcessing,
                                WebhookConfig webhook,
                                boolean allowPrivateNetwork,
                                Set<String> sendOn,
                                ProxyConfig proxy,
                                GoogleAdsConfig google) {

  /**
   * What an integration forwards when its config names no {@code send_on}: the ad networks approved conversions only
   * (as trackers post back by default, BeMob's "only Approved", since neither network can take one back), a webhook
   * every status, so the advertiser's tracker learns of each change. Events without a status are approved, so both
   * forward them as before statuses existed.
   */
  public static Set<String> defaultSendOn(Network network) {
    return network == Network.WEBHOOK ? Set.copyOf(ConversionStatus.ALL) : Set.of(ConversionStatus.APPROVED);
  }

  /** An integration with the default {@code send_on} of its network. */
  public IntegrationConfig(String id, Network network, String pixel, String accessToken, String apiBase,
                           String apiVersion, String source, String pageUrl, String testEventCode, boolean enabled,
                           boolean dryRun, Set<String> events, DataProcessing dataProcessing, WebhookConfig webhook,
                           boolean allowPrivateNetwork) {
    this(id, network, pixel, accessToken, apiBase, apiVersion, source, pageUrl, testEventCode, enabled, dryRun, events,
        dataProcessing, webhook, allowPrivateNetwork, defaultSendOn(network), null, null);
  }

  /** An integration of any network but Google Ads. */
  public IntegrationConfig(String id, Network network, String pixel, String accessToken, String apiBase,
                           String apiVersion, String source, String pageUrl, String testEventCode, boolean enabled,
                           boolean dryRun, Set<String> events, DataProcessing dataProcessing, WebhookConfig webhook,
                           boolean allowPrivateNetwork, Set<String> sendOn, ProxyConfig proxy) {
    this(id, network, pixel, accessToken, apiBase, apiVersion, source, pageUrl, testEventCode, enabled, dryRun, events,
        dataProcessing, webhook, allowPrivateNetwork, sendOn, proxy, null);
  }

  /** An integration whose requests go to public addresses only. */
  public IntegrationConfig(String id, Network network, String pixel, String accessToken, String apiBase,
                           String apiVersion, String source, String pageUrl, String testEventCode, boolean enabled,
                           boolean dryRun, Set<String> events, DataProcessing dataProcessing, WebhookConfig webhook) {
    this(id, network, pixel, accessToken, apiBase, apiVersion, source, pageUrl, testEventCode, enabled, dryRun, events,
        dataProcessing, webhook, false, defaultSendOn(network), null, null);
  }

  /**
   * Whether an event of this name gets a delivery to this integration: one its {@code events} lists (all without a
   * list), and for Google Ads one with a conversion action.
   */
  public boolean takes(String eventName) {
    return (events == null || events.contains(eventName))
        && (google == null || google.actions().containsKey(eventName));
  }

  /** Whether a conversion of this status is forwarded. */
  public boolean sendsOn(String status) {
    return sendOn.contains(status);
  }

  /** Whether each conversion goes once (an ad network) rather than with every change of status (a webhook). */
  public boolean sendsOnce() {
    return network != Network.WEBHOOK;
  }

  /**
   * Whether a conversion sent once is corrected after: Google Ads takes a retraction when it turns rejected or
   * charged back, and a restatement when its value changes
   * (https://developers.google.com/google-ads/api/docs/conversions/upload-adjustments).
   */
  public boolean corrects() {
    return network == Network.GOOGLE_ADS;
  }

  /** This integration sending with another test_event_code (a credential test's). */
  public IntegrationConfig withTestEventCode(String code) {
    return new IntegrationConfig(id, network, pixel, accessToken, apiBase, apiVersion, source, pageUrl, code, enabled,
        dryRun, events, dataProcessing, webhook, allowPrivateNetwork, sendOn, proxy, google);
  }

  /** Never print the token. */
  @Override
  public String toString() {
    return "IntegrationConfig[" + id + " " + network.id + " " + pixel + "]";
  }
}
