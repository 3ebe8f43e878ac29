package dev.eventrouter.forward;

import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.DataProcessing;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.event.ClickData;
import dev.eventrouter.event.ClickIds;
import dev.eventrouter.event.MatchKeys;
import dev.eventrouter.forward.snapchat.SnapchatApi;
import dev.eventrouter.forward.snapchat.SnapchatErrors;
import dev.eventrouter.store.ClaimedDelivery;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Snapchat's request body, field by field, and what each of its answers means. */
class SnapchatApiUnitTest {

  private static final Instant AT = Instant.parse("2026-11-20T10:00:00Z");
  private static final ClickData CLICK = new ClickData(null, null, null, null, null, "203.0.113.9", "Mozilla/5.0",
      "https://promo.example/landing", new ClickIds(null, null, null, "sc-click", "scid-cookie"));
  private static final SnapchatApi API = new SnapchatApi();

  private static ClaimedDelivery purchase(Boolean limitedDataUse) {
    return new ClaimedDelivery(1, 7, UUID.randomUUID(), "i", "FTD", "PURCHASE", 0, 42, "sess1",
        new BigDecimal("19.99"), "EUR", new JsonObject().put("email", " Person@Example.com ")
        .put("phone", "+44 844 412 4653").put("first_name", "John"), AT, CLICK, limitedDataUse);
  }

  private static ClaimedDelivery lead() {
    return new ClaimedDelivery(2, 8, UUID.randomUUID(), "i", "REG", "SIGN_UP", 0, 42, null, null, "USD", null, AT,
        null, null);
  }

  private static IntegrationConfig integration(String testEventCode, boolean limitedDataUse) {
    return new IntegrationConfig("i", Network.SNAPCHAT, "pixel-1", "token", "https://tr.example", null, "WEB",
        "https://t.me/demo_bot", testEventCode, true, false, null,
        limitedDataUse ? new DataProcessing(true, 0, 0) : DataProcessing.NONE, null);
  }

  @Test
  @DisplayName("the body: data alone; each event with Snap's hashes (its own examples), the click's ScCid and _scid, "
      + "the value, the landing page else the fallback, LDU when asked")
  void body() {
    JsonObject body = API.body(integration("ANY", false), List.of(purchase(null), lead()));
    assertThat(body).isEqualTo(new JsonObject().put("data", new JsonArray()
        .add(new JsonObject().put("event_name", "PURCHASE").put("event_time", AT.getEpochSecond())
            .put("event_id", "evt_7").put("action_source", "WEB")
            .put("user_data", new JsonObject().put("external_id", new JsonArray().add(Sha256.hex("42")))
                .put("em", new JsonArray().add("542d240129883c019e106e3b1b2d3f3cb3537c43c425364de8e951d5a3083345"))
                .put("ph", new JsonArray().add("dc008fda46e2e64002cf2f82a4906236282d431c4f75e5b60bfe79fc48546383"))
                .put("fn", new JsonArray().add("96d9632f363564cc3032521409cf22a852f2032eec099ed5967c0d000cec607a"))
                .put("client_ip_address", "203.0.113.9").put("client_user_agent", "Mozilla/5.0")
                .put("sc_click_id", "sc-click").put("sc_cookie1", "scid-cookie"))
            .put("custom_data", new JsonObject().put("value", new BigDecimal("19.99")).put("currency", "EUR"))
            .put("event_source_url", "https://promo.example/landing"))
        .add(new JsonObject().put("event_name", "SIGN_UP").put("event_time", AT.getEpochSecond())
            .put("event_id", "evt_8").put("action_source", "WEB")
            .put("user_data", new JsonObject().put("external_id", new JsonArray().add(Sha256.hex("42"))))
            .put("event_source_url", "https://t.me/demo_bot"))));

    assertThat(API.event(integration(null, true), lead()).getJsonArray("data_processing_options"))
        .containsExactly("LDU");
    assertThat(API.event(integration(null, true), purchase(false)).containsKey("data_processing_options"))
        .as("the event's own choice wins").isFalse();
    assertThat(API.event(integration(null, false), purchase(true)).getJsonArray("data_processing_options"))
        .containsExactly("LDU");
    IntegrationConfig offline = new IntegrationConfig("i", Network.SNAPCHAT, "p", "t", "https://tr.example", null,
        "OFFLINE", null, null, true, false, null, DataProcessing.NONE, null);
    assertThat(API.event(offline, lead()).containsKey("event_source_url")).isFalse();
  }

  @Test
  @DisplayName("Snapchat's traits: its network, 37 days, user_data keys counted as its match keys, no shortfall")
  void traits() {
    assertThat(API.network()).isEqualTo(Network.SNAPCHAT);
    assertThat(API.maxEventAge()).isEqualTo(Duration.ofDays(37));
    assertThat(new dev.eventrouter.forward.meta.MetaApi().maxEventAge()).isEqualTo(Duration.ofDays(7));
    assertThat(API.userData()).isSameAs(SnapchatApi.USER_DATA);
    assertThat(API.userField()).isEqualTo("user_data");
    assertThat(API.batches()).isTrue();
    assertThat(API.shortfall(Buffer.buffer("{\"status\":\"VALID\"}"), 3)).isNull();
    JsonObject body = API.body(integration(null, false), List.of(purchase(null)));
    assertThat(API.matchKeys(body, 1)).containsExactly(MatchKeys.mask(Network.SNAPCHAT,
        new JsonObject().put("em", 1).put("ph", 1).put("external_id", 1).put("sc_click_id", 1)
            .put("sc_cookie1", 1).put("client_ip_address", 1).put("client_user_agent", 1)));
    assertThat(API.matchKeys(body, 1)[0]).isEqualTo(0b1111111);
  }

  @Test
  @DisplayName("answers: VALID delivered; INVALID split in Snap's words; 401/403 refused credentials; 429 and 5xx "
      + "retried; a 2xx without VALID retried; any other status failed")
  void classify() {
    Buffer valid = new JsonObject().put("status", "VALID").put("reason", "ok").toBuffer();
    Buffer invalid = new JsonObject().put("status", "INVALID").put("event", 1).put("errors", new JsonObject()
        .put("codes", new JsonArray().add("E2")).put("error_msgs", new JsonArray().add("Insufficient PII")
            .add("Timestamp invalid"))).toBuffer();
    assertThat(SnapchatErrors.classify(200, valid, 0)).isInstanceOf(Outcome.Delivered.class);
    assertThat(SnapchatErrors.classify(400, invalid, 0))
        .isEqualTo(new Outcome.InvalidData("snapchat HTTP 400 INVALID: Insufficient PII; Timestamp invalid"));
    assertThat(SnapchatErrors.classify(401, new JsonObject().put("status", "INVALID").put("reason", "bad token")
        .toBuffer(), 0)).isEqualTo(new Outcome.Unauthorized("snapchat HTTP 401 INVALID: bad token"));
    assertThat(SnapchatErrors.classify(403, Buffer.buffer("<html>"), 0))
        .isEqualTo(new Outcome.Unauthorized("snapchat HTTP 403"));
    assertThat(SnapchatErrors.classify(429, Buffer.buffer(), 2_000)).isEqualTo(new Outcome.Retry("snapchat HTTP 429",
        2_000));
    assertThat(SnapchatErrors.classify(500, valid, 0)).isInstanceOf(Outcome.Retry.class);
    assertThat(SnapchatErrors.classify(503, null, 0)).isInstanceOf(Outcome.Retry.class);
    assertThat(SnapchatErrors.classify(200, Buffer.buffer("OK"), 0))
        .isEqualTo(new Outcome.Retry("snapchat HTTP 200 without a status", 0));
    assertThat(SnapchatErrors.classify(202, new JsonObject().put("status", 1).toBuffer(), 0))
        .isInstanceOf(Outcome.Retry.class);
    assertThat(SnapchatErrors.classify(299, valid, 0)).isInstanceOf(Outcome.Delivered.class);
    assertThat(SnapchatErrors.classify(300, valid, 0)).isEqualTo(new Outcome.Failed("snapchat HTTP 300 VALID: ok"));
    assertThat(SnapchatErrors.classify(404, Buffer.buffer("not found"), 0))
        .isEqualTo(new Outcome.Failed("snapchat HTTP 404"));
    assertThat(SnapchatErrors.classify(400, new JsonObject().put("status", "INVALID")
        .put("errors", new JsonObject().put("error_msgs", "text")).toBuffer(), 0))
        .isEqualTo(new Outcome.InvalidData("snapchat HTTP 400 INVALID: "));
    assertThat(SnapchatErrors.classify(199, valid, 0)).isInstanceOf(Outcome.Failed.class);
  }

  @Test
  @DisplayName("the answer shown by a credential test: Snap's documented fields only")
  void answer() {
    JsonObject answer = API.answer(new JsonObject().put("status", "INVALID").put("reason", "r")
        .put("event", 0).put("test_event", true).put("secret", "x").put("errors", new JsonObject()
            .put("codes", new JsonArray().add("E1")).put("error_msgs", new JsonArray().add("m")).put("other", 1))
        .toBuffer());
    assertThat(answer).isEqualTo(new JsonObject().put("status", "INVALID").put("reason", "r").put("event", 0)
        .put("test_event", true).put("errors", new JsonObject().put("codes", new JsonArray().add("E1"))
            .put("error_msgs", new JsonArray().add("m"))));
    assertThat(SnapchatErrors.answer(Buffer.buffer("<html>"))).isNull();
    assertThat(SnapchatErrors.answer(new JsonObject().put("status", 3).toBuffer())).isNull();
    assertThat(SnapchatErrors.answer(new JsonObject().put("status", "VALID").toBuffer()))
        .isEqualTo(new JsonObject().put("status", "VALID"));
  }
}
