package dev.eventrouter.event;

import dev.eventrouter.config.EventMapping;
import dev.eventrouter.config.WorkspaceConfig;

import java.util.Map;

/**
 * Our event names to each network's native event: the default table of the spec, which a workspace may override or
 * extend with its own {@code event_map} (the networks rename their standard events from time to time). Any other
 * name passes through as a custom event of the same name.
 *
 * <p>The TikTok names follow the spec table. Our reference (ad-networks.md 2.4) notes that TikTok's current list
 * names registration CompleteRegistration (not Registration) and may have replaced CompletePayment by Purchase; a
 * workspace that wants those names sets them in its event_map.
 */
public final class EventMap {

  public static final Map<String, EventMapping> DEFAULT = Map.of(
      "FTD", new EventMapping("Purchase", "CompletePayment", true),
      "DEP", new EventMapping("Purchase", "CompletePayment", true),
      "Purchase", new EventMapping("Purchase", "CompletePayment", true),
      "REG", new EventMapping("CompleteRegistration", "Registration", false),
      "Subscribe", new EventMapping("Lead", "SubmitForm", false),
      "JoinRequest", new EventMapping("Lead", "SubmitForm", false),
      "INSTALL", new EventMapping("AppInstall", "Download", false),
      "TRIAL", new EventMapping("StartTrial", "Subscribe", false));

  private EventMap() {}

  public static EventMapping mapping(WorkspaceConfig workspace, String eventName) {
    EventMapping override = workspace == null ? null : workspace.eventMap().get(eventName);
    if (override != null) {
      return override;
    }
    return DEFAULT.getOrDefault(eventName, new EventMapping(eventName, eventName, false));
  }

  /** Purchases need a value: Meta refuses a Purchase without one (error 100 / 2804009). */
  public static boolean requiresValue(WorkspaceConfig workspace, String eventName) {
    return mapping(workspace, eventName).monetary();
  }
}
