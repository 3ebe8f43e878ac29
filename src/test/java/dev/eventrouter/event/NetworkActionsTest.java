package dev.eventrouter.event;

import dev.eventrouter.config.Network;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The table of the networks' own counts each mapped event is held against, and the reconciliation's query. */
class NetworkActionsTest {

  @Test
  @DisplayName("Meta: a standard event under its fb_pixel count, any other under the custom one")
  void meta() {
    assertThat(NetworkActions.actionType(Network.META, "Purchase", Map.of()))
        .isEqualTo("offsite_conversion.fb_pixel_purchase");
    assertThat(NetworkActions.actionType(Network.META, "CompleteRegistration", Map.of()))
        .isEqualTo("offsite_conversion.fb_pixel_complete_registration");
    assertThat(NetworkActions.actionType(Network.META, "Lead", Map.of())).isEqualTo("offsite_conversion.fb_pixel_lead");
    assertThat(NetworkActions.actionType(Network.META, "AddToCart", Map.of()))
        .isEqualTo("offsite_conversion.fb_pixel_add_to_cart");
    assertThat(NetworkActions.actionType(Network.META, "StartTrial", Map.of())).isEqualTo(NetworkActions.META_CUSTOM);
    assertThat(NetworkActions.actionType(Network.META, "Chat", Map.of())).isEqualTo(NetworkActions.META_CUSTOM);
  }

  @Test
  @DisplayName("TikTok: its one count against purchases alone; other events not compared")
  void tiktok() {
    assertThat(NetworkActions.actionType(Network.TIKTOK, "CompletePayment", Map.of())).isEqualTo("conversion");
    assertThat(NetworkActions.actionType(Network.TIKTOK, "Registration", Map.of())).isNull();
  }

  @Test
  @DisplayName("a workspace's own table goes over the default, for its names only")
  void overrides() {
    Map<String, String> own = Map.of("StartTrial", "offsite_conversion.fb_pixel_start_trial", "SubmitForm",
        "conversion");
    assertThat(NetworkActions.actionType(Network.META, "StartTrial", own))
        .isEqualTo("offsite_conversion.fb_pixel_start_trial");
    assertThat(NetworkActions.actionType(Network.META, "Purchase", own))
        .isEqualTo("offsite_conversion.fb_pixel_purchase");
    assertThat(NetworkActions.actionType(Network.TIKTOK, "SubmitForm", own)).isEqualTo("conversion");
    assertThat(NetworkActions.actionTypes(Network.META, own)).contains("offsite_conversion.fb_pixel_purchase",
        NetworkActions.META_CUSTOM, "offsite_conversion.fb_pixel_start_trial", "conversion");
    assertThat(NetworkActions.actionTypes(Network.TIKTOK, Map.of())).containsExactly("conversion");
  }

  @Test
  @DisplayName("the query over the bus: the same query back")
  void queryJson() {
    ReconcileQuery query = new ReconcileQuery(UUID.randomUUID(), "tiktok", LocalDate.parse("2026-11-01"),
        LocalDate.parse("2026-11-07"), ZoneId.of("Europe/Berlin"), "campaign", Map.of("SubmitForm", "conversion"),
        0.75);
    JsonObject json = new JsonObject(query.toJson().encode());
    assertThat(ReconcileQuery.fromJson(json)).isEqualTo(query);
  }
}
