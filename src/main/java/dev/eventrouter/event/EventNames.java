package dev.eventrouter.event;

import java.util.Set;

/** The event names the service knows by heart; any other valid name is a custom event. */
public final class EventNames {

  public static final Set<String> LISTED =
      Set.of("FTD", "DEP", "REG", "Subscribe", "JoinRequest", "Purchase", "INSTALL", "TRIAL");

  /** Purchases: Meta refuses a Purchase without value (error 100 / 2804009), so these require one. */
  public static final Set<String> MONETARY = Set.of("FTD", "DEP", "Purchase");

  private EventNames() {}

  public static boolean requiresValue(String eventName) {
    return MONETARY.contains(eventName);
  }
}
