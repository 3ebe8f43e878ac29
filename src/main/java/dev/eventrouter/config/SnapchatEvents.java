package dev.eventrouter.config;

import java.util.List;

/**
 * The event names Snapchat's Conversions API takes, as data: its standard events, and CUSTOM_EVENT_1 to 5 for the
 * rest (https://developers.snap.com/api/marketing-api/Conversions-API/Parameters). A name outside the list would be
 * refused for every event, so a workspace's event_map may name only these.
 */
public final class SnapchatEvents {

  public static final List<String> STANDARD = List.of("PURCHASE", "SAVE", "START_CHECKOUT", "ADD_CART",
      "VIEW_CONTENT", "ADD_BILLING", "SIGN_UP", "SEARCH", "PAGE_VIEW", "SUBSCRIBE", "AD_CLICK", "AD_VIEW",
      "COMPLETE_TUTORIAL", "LEVEL_COMPLETE", "INVITE", "LOGIN", "SHARE", "RESERVE", "ACHIEVEMENT_UNLOCKED",
      "ADD_TO_WISHLIST", "SPENT_CREDITS", "RATE", "START_TRIAL", "LIST_VIEW", "APP_INSTALL", "APP_OPEN",
      "CUSTOM_EVENT_1", "CUSTOM_EVENT_2", "CUSTOM_EVENT_3", "CUSTOM_EVENT_4", "CUSTOM_EVENT_5");

  private SnapchatEvents() {}
}
