package dev.eventrouter.forward;

import com.facebook.ads.sdk.serverside.ActionSource;
import com.facebook.ads.sdk.serverside.Event;
import com.facebook.ads.sdk.serverside.EventRequest;
import com.facebook.ads.sdk.serverside.GenderEnum;
import com.facebook.ads.sdk.serverside.UserData;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.DataProcessing;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.event.ClickData;
import dev.eventrouter.forward.meta.MetaApi;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.support.MetaSdk;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What MetaApi builds, against Meta's own Java Business SDK: every user_data key in the form the SDK writes it, and
 * whole request bodies read back through the SDK's model.
 */
class MetaSdkModelUnitTest {

  private static final Instant AT = Instant.parse("2026-11-20T10:00:00Z");
  private static final ClickData CLICK = new ClickData("fbclid-1", "fb.1.1700000000000.fbclid-1", "fb.1.1.99",
      null, null, "203.0.113.9", "Mozilla/5.0", "https://promo.example/landing");
  /** Every user_data key, each already as Meta's rules leave it, so the SDK's normalising keeps it too. */
  private static final JsonObject RICH = new JsonObject().put("email", "mary@example.com").put("phone", "16505551212")
      .put("first_name", "mary").put("last_name", "smith").put("gender", "f").put("date_of_birth", "19970216")
      .put("city", "menlopark").put("state", "ca").put("zip", "94025").put("country", "us").put("external_id", "crm-42");

  private static ClaimedDelivery job(long eventId, JsonObject userData, ClickData click, BigDecimal value,
                                     Boolean limitedDataUse) {
    return new ClaimedDelivery(eventId, eventId, UUID.randomUUID(), "i", "FTD", "Purchase", 0, 42, null, value, "EUR",
        userData, AT, click, limitedDataUse);
  }

  private static IntegrationConfig integration(String actionSource, String pageUrl) {
    return new IntegrationConfig("i", Network.META, "123", "token", "https://api.example", "v25.0", actionSource,
        pageUrl, "TEST42", true, false, null, new DataProcessing(true, 1, 1000), null);
  }

  @Test
  @DisplayName("each user_data key goes exactly as the SDK writes it for the same person: hashes in lists, "
      + "the click's keys as strings")
  void userDataAsTheSdkWritesIt() {
    JsonObject sent = MetaApi.USER_DATA.user(job(1, RICH, CLICK, null, null));

    UserData sdk = new UserData().email("mary@example.com").phone("16505551212").firstName("mary").lastName("smith")
        .gender(GenderEnum.FEMALE).dateOfBirth("19970216").city("menlopark").state("ca").zipcode("94025")
        .countryCode("us").externalIds(List.of(Sha256.hex("42"), Sha256.hex("crm-42")))
        .clientIpAddress("203.0.113.9").clientUserAgent("Mozilla/5.0").fbc("fb.1.1700000000000.fbclid-1")
        .fbp("fb.1.1.99");

    assertThat(sent).isEqualTo(MetaSdk.written(sdk));
    assertThat(sent.fieldNames()).hasSize(15);
  }

  @Test
  @DisplayName("a website body reads back through the SDK's model: every field where the model keeps it")
  void websiteBodyReadBack() {
    MetaApi api = new MetaApi();
    JsonObject body = api.body(integration("website", "https://t.me/demo_bot"), List.of(
        job(7, RICH, CLICK, new BigDecimal("19.99"), null), job(8, null, null, null, false)));

    EventRequest request = MetaSdk.read(body);

    assertThat(request.getTestEventCode()).isEqualTo("TEST42");
    assertThat(request.getData()).hasSize(2);
    Event rich = request.getData().get(0);
    assertThat(rich.getEventName()).isEqualTo("Purchase");
    assertThat(rich.getEventTime()).isEqualTo(AT.getEpochSecond());
    assertThat(rich.getEventId()).isEqualTo("evt_7");
    assertThat(rich.getActionSource()).isEqualTo(ActionSource.website);
    assertThat(rich.getEventSourceUrl()).isEqualTo("https://promo.example/landing");
    assertThat(rich.getDataProcessingOptions()).containsExactly("LDU");
    assertThat(rich.getDataProcessingOptionsCountry()).isEqualTo(1);
    assertThat(rich.getDataProcessingOptionsState()).isEqualTo(1000);
    assertThat(rich.getCustomData().getValue()).isEqualTo(19.99f);
    assertThat(rich.getCustomData().getCurrency()).isEqualTo("EUR");
    UserData user = rich.getUserData();
    MetaSdk.assertMary(user, "evt_7");
    assertThat(user.getExternalIds()).containsExactly(Sha256.hex("42"), Sha256.hex("crm-42"));
    assertThat(user.getClientIpAddress()).isEqualTo("203.0.113.9");
    assertThat(user.getClientUserAgent()).isEqualTo("Mozilla/5.0");
    assertThat(user.getFbc()).isEqualTo("fb.1.1700000000000.fbclid-1");
    assertThat(user.getFbp()).isEqualTo("fb.1.1.99");
    assertThat(MetaSdk.genders(body, 0)).isEqualTo(new JsonArray().add(Sha256.hex("f")));

    Event bare = request.getData().get(1);
    assertThat(bare.getEventSourceUrl()).as("no landing page: the integration's fallback")
        .isEqualTo("https://t.me/demo_bot");
    assertThat(bare.getDataProcessingOptions()).as("the event said no").isEmpty();
    assertThat(bare.getCustomData()).isNull();
    assertThat(bare.getUserData().getExternalIds()).containsExactly(Sha256.hex("42"));
    assertThat(bare.getUserData().getFirstNames()).isNull();
  }

  @Test
  @DisplayName("event_source_url: the landing page on any event; without one, the fallback on website events only")
  void eventSourceUrl() {
    MetaApi api = new MetaApi();
    ClaimedDelivery pageless = job(9, null, null, null, null);
    ClaimedDelivery landed = job(10, null, CLICK, null, null);
    assertThat(api.event(integration("website", "https://lp.example/"), pageless).getString("event_source_url"))
        .isEqualTo("https://lp.example/");
    assertThat(api.event(integration("website", null), pageless).containsKey("event_source_url")).isFalse();
    assertThat(api.event(integration("chat", "https://t.me/demo_bot"), pageless).containsKey("event_source_url"))
        .as("a chat event needs none, and happened on no page").isFalse();
    assertThat(api.event(integration("chat", "https://t.me/demo_bot"), landed).getString("event_source_url"))
        .isEqualTo("https://promo.example/landing");
    assertThat(api.event(integration("website", "https://t.me/demo_bot"), landed).getString("event_source_url"))
        .isEqualTo("https://promo.example/landing");
  }
}
