package dev.eventrouter.event;

import dev.eventrouter.config.Network;

/**
 * The native event names one of our event names maps to.
 *
 * @param monetary the event is a purchase: value (and currency) are required
 */
public record EventMapping(String meta, String tiktok, boolean monetary) {

  public String nameFor(Network network) {
    return network == Network.META ? meta : tiktok;
  }
}
