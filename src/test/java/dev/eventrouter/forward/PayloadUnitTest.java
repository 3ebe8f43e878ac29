package dev.eventrouter.forward;

import dev.eventrouter.forward.webhook.WebhookApi;
import dev.eventrouter.event.MatchKeys;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.DataProcessing;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.event.ClickData;
import dev.eventrouter.forward.meta.MetaApi;
import dev.eventrouter.forward.tiktok.TikTokApi;
import dev.eventrouter.store.ClaimedDelivery;
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
 * Whole request bodies, field by field, for a purchase that came from a click and a lead that did not: what each
 * network receives, and what it must not (an absent value, click id or test code is left out, never sent empty).
 */
class PayloadUnitTest {

  private static final Instant AT = Instant.parse("2026-11-20T10:00:00Z");
  private static final ClickData CLICK = new ClickData("fbclid-1", "fb.1.1700000000000.fbclid-1", "fb.1.1.99",
      "ttclid-1", "ttp-1", "203.0.113.9", "Mozilla/5.0", "https://promo.example/landing");
  private static final String TELEGRAM_HASH = Sha256.hex("42");

  private static ClaimedDelivery purchase() {
    return new ClaimedDelivery(1, 7, UUID.randomUUID(), "i", "FTD", "Purchase", 0, 42, "sess1",
        new BigDecimal("19.99"), "EUR", new JsonObject().put("email", " User@Example.com "), AT, CLICK, null);
  }

  private static ClaimedDelivery lead() {
    return new ClaimedDelivery(2, 8, UUID.randomUUID(), "i", "REG", "Lead", 0, 42, null, null, "USD", null, AT, null,
        null);
  }

  /** A click captured without its landing page (a bot link shared in a chat). */
  private static ClaimedDelivery pageless() {
    return new ClaimedDelivery(3, 9, UUID.randomUUID(), "i", "REG", "Lead", 0, 42, null, null, "USD", null, AT,
        new ClickData(null, null, null, null, null, null, null, null), null);
  }

  private static IntegrationConfig integration(Network network, String testEventCode, String pageUrl) {
    return new IntegrationConfig("i", network, "123", "token", "https://api.example", "v25.0",
        network == Network.META ? "chat" : "web", pageUrl, testEventCode, true, false, null, DataProcessing.NONE, null);
  }

  @Test
  @DisplayName("a conversion whose Telegram user is not known goes without external_id, matched on the click alone")
  void unknownUser() {
    ClaimedDelivery job = new ClaimedDelivery(4, 10, UUID.randomUUID(), "i", "FTD", "Purchase", 0, null, "sess1",
        new BigDecimal("5"), "USD", null, AT, CLICK, null, "approved", null, 0, null);
    assertThat(UserField.externalIds(job)).isEmpty();
    assertThat(MetaApi.USER_DATA.user(job).containsKey("external_id")).isFalse();
    assertThat(MetaApi.USER_DATA.user(job).getString("fbc")).isEqualTo(CLICK.fbc());
    assertThat(MetaApi.USER_DATA.user(purchase()).getJsonArray("external_id")).containsExactly(TELEGRAM_HASH);
  }

  @Test
  @DisplayName("Meta: value, event_source_url, fbc and fbp when known; test_event_code only when set")
  void meta() {
    MetaApi api = new MetaApi();
    assertThat(api.network()).isEqualTo(Network.META);
    assertThat(api.userData()).isSameAs(MetaApi.USER_DATA);
    JsonObject body = api.body(integration(Network.META, "TEST1", null), List.of(purchase(), lead()));

    assertThat(body).isEqualTo(new JsonObject()
        .put("data", new JsonArray()
            .add(new JsonObject().put("event_name", "Purchase").put("event_time", AT.getEpochSecond())
                .put("event_id", "evt_7").put("action_source", "chat")
                .put("user_data", new JsonObject().put("external_id", new JsonArray().add(TELEGRAM_HASH))
                    .put("em", new JsonArray().add(Sha256.hex("user@example.com")))
                    .put("client_ip_address", "203.0.113.9").put("client_user_agent", "Mozilla/5.0")
                    .put("fbc", "fb.1.1700000000000.fbclid-1").put("fbp", "fb.1.1.99"))
                .put("custom_data", new JsonObject().put("value", new BigDecimal("19.99")).put("currency", "EUR"))
                .put("event_source_url", "https://promo.example/landing"))
            .add(new JsonObject().put("event_name", "Lead").put("event_time", AT.getEpochSecond())
                .put("event_id", "evt_8").put("action_source", "chat")
                .put("user_data", new JsonObject().put("external_id", new JsonArray().add(TELEGRAM_HASH)))))
        .put("test_event_code", "TEST1"));
    assertThat(api.body(integration(Network.META, null, null), List.of(lead())).containsKey("test_event_code"))
        .isFalse();
    assertThat(new MetaApi().event(integration(Network.META, null, null), pageless()).containsKey("event_source_url"))
        .isFalse();
  }

  @Test
  @DisplayName("TikTok: properties, page.url from the landing page else the fallback, ttclid and ttp when known")
  void tiktok() {
    TikTokApi api = new TikTokApi();
    assertThat(api.network()).isEqualTo(Network.TIKTOK);
    assertThat(api.userData()).isSameAs(TikTokApi.USER_DATA);
    JsonObject body = api.body(integration(Network.TIKTOK, "TEST2", "https://t.me/demo_bot"),
        List.of(purchase(), lead()));

    assertThat(body).isEqualTo(new JsonObject().put("event_source", "web").put("event_source_id", "123")
        .put("test_event_code", "TEST2")
        .put("data", new JsonArray()
            .add(new JsonObject().put("event", "Purchase").put("event_time", AT.getEpochSecond())
                .put("event_id", "evt_7")
                .put("user", new JsonObject().put("external_id", TELEGRAM_HASH)
                    .put("email", Sha256.hex("user@example.com")).put("ip", "203.0.113.9")
                    .put("user_agent", "Mozilla/5.0").put("ttclid", "ttclid-1").put("ttp", "ttp-1"))
                .put("properties", new JsonObject().put("value", new BigDecimal("19.99")).put("currency", "EUR"))
                .put("page", new JsonObject().put("url", "https://promo.example/landing")))
            .add(new JsonObject().put("event", "Lead").put("event_time", AT.getEpochSecond())
                .put("event_id", "evt_8")
                .put("user", new JsonObject().put("external_id", TELEGRAM_HASH))
                .put("page", new JsonObject().put("url", "https://t.me/demo_bot")))));
    JsonObject app = api.body(integration(Network.TIKTOK, null, null), List.of(lead()));
    assertThat(app.containsKey("test_event_code")).isFalse();
    assertThat(app.getJsonArray("data").getJsonObject(0).containsKey("page")).as("no page to name").isFalse();
    assertThat(new TikTokApi().event(integration(Network.TIKTOK, null, "https://t.me/demo_bot"), pageless())
        .getJsonObject("page").getString("url")).isEqualTo("https://t.me/demo_bot");
  }

  private static ClaimedDelivery leadWithLdu(Boolean limitedDataUse) {
    return new ClaimedDelivery(6, 12, UUID.randomUUID(), "i", "REG", "Lead", 0, 42, null, null, "USD", null, AT, null,
        limitedDataUse);
  }

  private static IntegrationConfig withDefault(Network network, DataProcessing dataProcessing) {
    return new IntegrationConfig("i", network, "123", "token", "https://api.example", "v25.0",
        network == Network.META ? "chat" : "web", "https://t.me/demo_bot", null, true, false, null, dataProcessing, null);
  }

  @Test
  @DisplayName("Meta Limited Data Use: the event's choice wins, else the integration's default; off and unsaid, "
      + "nothing is sent")
  void metaLimitedDataUse() {
    MetaApi api = new MetaApi();
    DataProcessing california = new DataProcessing(true, 1, 1000);
    JsonObject byDefault = api.event(withDefault(Network.META, california), leadWithLdu(null));
    assertThat(byDefault.getJsonArray("data_processing_options")).containsExactly("LDU");
    assertThat(byDefault.getInteger("data_processing_options_country")).isEqualTo(1);
    assertThat(byDefault.getInteger("data_processing_options_state")).isEqualTo(1000);

    JsonObject eventSaysNo = api.event(withDefault(Network.META, california), leadWithLdu(false));
    assertThat(eventSaysNo.getJsonArray("data_processing_options")).isEmpty();
    assertThat(eventSaysNo.containsKey("data_processing_options_country")).isFalse();

    JsonObject eventSaysYes = api.event(withDefault(Network.META, DataProcessing.NONE), leadWithLdu(true));
    assertThat(eventSaysYes.getJsonArray("data_processing_options")).containsExactly("LDU");
    assertThat(eventSaysYes.getInteger("data_processing_options_country")).as("Meta geolocates").isZero();
    assertThat(eventSaysYes.getInteger("data_processing_options_state")).isZero();

    assertThat(api.event(withDefault(Network.META, DataProcessing.NONE), leadWithLdu(null))
        .containsKey("data_processing_options")).isFalse();
  }

  @Test
  @DisplayName("TikTok limited_data_use: the event's choice wins, else true when the integration asks; else absent")
  void tiktokLimitedDataUse() {
    TikTokApi api = new TikTokApi();
    DataProcessing on = new DataProcessing(true, 0, 0);
    assertThat(api.event(withDefault(Network.TIKTOK, on), leadWithLdu(null)).getBoolean("limited_data_use"))
        .isTrue();
    assertThat(api.event(withDefault(Network.TIKTOK, on), leadWithLdu(false)).getBoolean("limited_data_use"))
        .isFalse();
    assertThat(api.event(withDefault(Network.TIKTOK, DataProcessing.NONE), leadWithLdu(true))
        .getBoolean("limited_data_use")).isTrue();
    assertThat(api.event(withDefault(Network.TIKTOK, DataProcessing.NONE), leadWithLdu(false))
        .getBoolean("limited_data_use")).isFalse();
    assertThat(api.event(withDefault(Network.TIKTOK, DataProcessing.NONE), leadWithLdu(null))
        .containsKey("limited_data_use")).isFalse();
  }

  @Test
  @DisplayName("rejected lists exactly the given keys a rule refuses; a pre-hashed value is never refused")
  void rejectedFields() {
    // A pre-hashed phone would fail the phone rule (a 64-character hex string is no number) were it not pre-hashed.
    JsonObject userData = new JsonObject().put("email", "user@").put("phone", Sha256.hex("16505551212"))
        .put("first_name", "Ann").put("city", "!!!");
    ClaimedDelivery job = new ClaimedDelivery(4, 10, UUID.randomUUID(), "i", "REG", "Lead", 0, 42, null, null, "USD", userData, AT,
        null, null);

    assertThat(MetaApi.USER_DATA.rejected(job)).containsExactly("email", "city");
    assertThat(TikTokApi.USER_DATA.rejected(job)).containsExactly("email", "city");
    assertThat(MetaApi.USER_DATA.rejected(lead())).isEmpty();
    // TikTok takes the country plain: a hash there is no country. Meta takes it hashed, so a hash is accepted.
    ClaimedDelivery hashedCountry = new ClaimedDelivery(5, 11, UUID.randomUUID(), "i", "REG", "Lead", 0, 42, null, null, "USD",
        new JsonObject().put("country", Sha256.hex("us")), AT, null, null);
    assertThat(MetaApi.USER_DATA.rejected(hashedCountry)).isEmpty();
    assertThat(TikTokApi.USER_DATA.rejected(hashedCountry)).containsExactly("country");
  }

  @Test
  @DisplayName("the match keys of a body, event by event, as MatchKeys masks; a webhook's body has none")
  void matchKeys() {
    MetaApi meta = new MetaApi();
    IntegrationConfig metaConfig = integration(Network.META, null, null);
    JsonObject body = meta.body(metaConfig, List.of(purchase(), lead()));
    assertThat(meta.matchKeys(body, 2)).containsExactly(
        MatchKeys.mask(Network.META, body.getJsonArray("data").getJsonObject(0).getJsonObject("user_data")),
        MatchKeys.mask(Network.META, body.getJsonArray("data").getJsonObject(1).getJsonObject("user_data")));
    assertThat(meta.matchKeys(body, 2)[0]).as("em, external_id, fbc, fbp, IP, user agent").isEqualTo(0b1111101);
    assertThat(meta.matchKeys(body, 2)[1]).as("external_id only").isEqualTo(0b100);
    TikTokApi tiktok = new TikTokApi();
    JsonObject tiktokBody = tiktok.body(integration(Network.TIKTOK, null, "https://t.me/x"), List.of(purchase()));
    assertThat(tiktok.matchKeys(tiktokBody, 1)).containsExactly(MatchKeys.mask(Network.TIKTOK,
        tiktokBody.getJsonArray("data").getJsonObject(0).getJsonObject("user")));
    assertThat(tiktok.matchKeys(tiktokBody, 1)[0]).isNotZero();
    assertThat(new WebhookApi().matchKeys(new JsonObject().put("data", body.getJsonArray("data")), 2))
        .containsExactly(0, 0);
  }
}
