package dev.eventrouter.event;

import dev.eventrouter.config.Network;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The match-key lists and the bit masks a delivery stores. */
class MatchKeysTest {

  @Test
  @DisplayName("bit i is the i-th key of the network's list, set when the user object carries a value for it")
  void masks() {
    assertThat(MatchKeys.mask(Network.META, new JsonObject().put("em", new JsonArray().add("h"))
        .put("external_id", new JsonArray().add("x")).put("client_user_agent", "UA").put("fn", "h")))
        .isEqualTo(0b1000101);
    assertThat(MatchKeys.mask(Network.META, new JsonObject().put("ph", "h").put("fbc", "c").put("fbp", "p")
        .put("client_ip_address", "ip"))).isEqualTo(0b0111010);
    assertThat(MatchKeys.mask(Network.TIKTOK, new JsonObject().put("email", "h").put("phone", "h")
        .put("external_id", "x").put("ttclid", "t").put("ttp", "p").put("ip", "i").put("user_agent", "u")))
        .isEqualTo(0b1111111);
    assertThat(MatchKeys.mask(Network.TIKTOK, new JsonObject().put("em", "h").putNull("email"))).isZero();
    assertThat(MatchKeys.mask(Network.META, null)).isZero();
    assertThat(MatchKeys.mask(Network.WEBHOOK, new JsonObject().put("em", "h"))).isZero();
  }

  @Test
  @DisplayName("each network's keys as the networks name them; at most 31 so a mask fits an int")
  void lists() {
    assertThat(MatchKeys.BY_NETWORK.get(Network.META)).containsExactly("em", "ph", "external_id", "fbc", "fbp",
        "client_ip_address", "client_user_agent");
    assertThat(MatchKeys.BY_NETWORK.get(Network.TIKTOK)).containsExactly("email", "phone", "external_id", "ttclid",
        "ttp", "ip", "user_agent");
    assertThat(MatchKeys.BY_NETWORK.get(Network.WEBHOOK)).isEmpty();
    assertThat(MatchKeys.BY_NETWORK).containsOnlyKeys(Network.values());
  }
}
