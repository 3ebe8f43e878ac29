package dev.eventrouter.event;

import dev.eventrouter.config.Network;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/**
 * The keys each network matches a conversion to a person with, as data: what the match-key coverage counts (the
 * share of delivered events that carried each), so an advertiser sees why a network's match quality is low. Meta's
 * customer-information and click parameters
 * (https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/customer-information-parameters);
 * TikTok's user keys as its Events API integrations send them. A delivery stores the keys it carried as a bit mask,
 * bit i for the i-th key of its network's list; the lists only ever grow at their end.
 */
public final class MatchKeys {

  public static final Map<Network, List<String>> BY_NETWORK = Map.of(
      Network.META, List.of("em", "ph", "external_id", "fbc", "fbp", "client_ip_address", "client_user_agent"),
      Network.TIKTOK, List.of("email", "phone", "external_id", "ttclid", "ttp", "ip", "user_agent"),
      Network.GOOGLE_ADS, List.of("gclid", "gbraid", "wbraid", "hashedEmail", "hashedPhoneNumber"),
      Network.SNAPCHAT, List.of("em", "ph", "external_id", "sc_click_id", "sc_cookie1", "client_ip_address",
          "client_user_agent"),
      Network.WEBHOOK, List.of());

  private MatchKeys() {}

  /** The keys of the network's list that this user object carries, as a bit mask. */
  public static int mask(Network network, JsonObject user) {
    List<String> keys = BY_NETWORK.get(network);
    int mask = 0;
    for (int i = 0; i < keys.size(); i++) {
      if (user != null && user.getValue(keys.get(i)) != null) {
        mask |= 1 << i;
      }
    }
    return mask;
  }
}
