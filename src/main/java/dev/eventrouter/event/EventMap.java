package dev.eventrouter.event;

import dev.eventrouter.config.EventMappingOverride;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.WorkspaceConfig;

import java.util.Map;

/**
 * Our event names to each network's native event: the default table of the spec, which a workspace may override or
 * extend with its own {@code event_map} (the networks rename their standard events from time to time). Any other
 * name passes through as a custom event of the same name.
 *
 * <p>The TikTok names follow the spec table. TikTok's current standard list, as its integrations send it (for
 * instance RudderStack's eventNameMapping,
 * https://github.com/rudderlabs/rudder-transformer/blob/develop/src/v0/destinations/tiktok_ads/config.js), names
 * registration CompleteRegistration (not Registration) and has Purchase beside CompletePayment; a workspace that
 * wants those names sets them in its event_map.
 *
 * <p>Snapchat takes only its standard names, custom ones as CUSTOM_EVENT_1 to CUSTOM_EVENT_5
 * (https://developers.snap.com/api/marketing-api/Conversions-API/Parameters): a name without a row goes to Snapchat as
 * {@link #SNAPCHAT_CUSTOM}, and a workspace's event_map chooses another of the five per name.
 */
public final class EventMap {

  public static final Map<String, EventMapping> DEFAULT = Map.of(
      "FTD", new EventMapping("Purchase", "CompletePayment", "PURCHASE", true),
      "DEP", new EventMapping("Purchase", "CompletePayment", "PURCHASE", true),
      "Purchase", new EventMapping("Purchase", "CompletePayment", "PURCHASE", true),
      "REG", new EventMapping("CompleteRegistration", "Registration", "SIGN_UP", false),
      "Subscribe", new EventMapping("Lead", "SubmitForm", "SUBSCRIBE", false),
      "JoinRequest", new EventMapping("Lead", "SubmitForm", "SUBSCRIBE", false),
      "INSTALL", new EventMapping("AppInstall", "Download", "APP_INSTALL", false),
      "TRIAL", new EventMapping("StartTrial", "Subscribe", "START_TRIAL", false));

  /** Snapchat's name for an event of ours it has no standard one for. */
  public static final String SNAPCHAT_CUSTOM = "CUSTOM_EVENT_1";

  private EventMap() {}

  /** The default row (a custom event of the same name when there is none), with the workspace's override on top. */
  public static EventMapping mapping(WorkspaceConfig workspace, String eventName) {
    EventMapping base = DEFAULT.getOrDefault(eventName,
        new EventMapping(eventName, eventName, SNAPCHAT_CUSTOM, false));
    EventMappingOverride override = workspace.eventMap().get(eventName);
    if (override == null) {
      return base;
    }
    return new EventMapping(override.meta() == null ? base.meta() : override.meta(),
        override.tiktok() == null ? base.tiktok() : override.tiktok(),
        override.snapchat() == null ? base.snapchat() : override.snapchat(),
        override.monetary() == null ? base.monetary() : override.monetary());
  }

  /**
   * The name an integration takes the event under: the network's native event, for a webhook the name its own
   * {@code event_map} gives (else the name as sent), for Google Ads the id of its conversion action.
   */
  public static String nameFor(WorkspaceConfig workspace, IntegrationConfig integration, String eventName) {
    if (integration.webhook() != null) {
      return integration.webhook().eventName(eventName);
    }
    return integration.google() != null ? integration.google().actions().get(eventName)
        : mapping(workspace, eventName).nameFor(integration.network());
  }

  /** Purchases need a value: Meta refuses a Purchase without one (error 100 / 2804009). */
  public static boolean requiresValue(WorkspaceConfig workspace, String eventName) {
    return mapping(workspace, eventName).monetary();
  }
}
