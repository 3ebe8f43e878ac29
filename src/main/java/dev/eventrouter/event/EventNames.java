package dev.eventrouter.event;

import java.util.Set;

/** Rules that depend on the event name. Any valid name is accepted; names not mapped are custom events. */
public final class EventNames {

  /** Purchases: Meta refuses a Purchase without value (error 100 / 2804009), so these require one. */
  public static final Set<String> MONETARY = Set.of("FTD", "DEP", "Purchase");

  private EventNames() {}

  public static boolean requiresValue(String eventName) {
    return MONETARY.contains(eventName);
  }
}
