package dev.eventrouter.event;

import dev.eventrouter.config.Network;

/**
 * The native event names one of our event names maps to, one per ad network.
 *
 * @param monetary the event is a purchase: value (and currency) are required
 */
public record EventMapping(String meta, String tiktok, String snapchat, boolean monetary) {

  public String nameFor(Network network) {
    return switch (network) {
      case META -> meta;
      case SNAPCHAT -> snapchat;
      default -> tiktok;
    };
  }
}
