package dev.eventrouter.forward;

import dev.eventrouter.common.Sha256;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.FakeAdNetworks;
import dev.eventrouter.support.FakeGoogleAds;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.TestApp;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Google Ads click conversions end to end: real service, real PostgreSQL, the fake Google Ads API and OAuth endpoint
 * over real HTTP. Uploads with the click's gclid and the event id as order id, a partial failure failing its rows
 * alone, an access token that expires (401, then a refresh), a refused refresh token pausing the integration, events
 * without a Google click id skipped, and status changes retracted and restated 24 hours on.
 */
class GoogleAdsForwardingTest extends FakeNetworksTest {

  private FakeGoogleAds google;

  private void start(JsonObject... googleOverrides) {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
    JsonObject integration = FakeGoogleAds.integration(fake.baseUrl());
    for (JsonObject override : googleOverrides) {
      integration.mergeIn(override);
    }
    config.getJsonArray("workspaces").getJsonObject(0).put("integrations", new JsonArray().add(integration));
    app = TestApp.start(vertx, config);
    google = fake.google();
  }

  private void click(String sessionId, JsonObject ids) {
    var response = app.postJson("/api/v1/sessions", KEY_A, ids.copy().put("workspace_id", WS_A)
        .put("session_id", sessionId));
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
  }

  private String post(JsonObject event) {
    var response = app.postEvent(KEY_A, event.put("workspace_id", WS_A));
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    return response.bodyAsJsonObject().getJsonObject("data").getString("event_id");
  }

  private static JsonObject ftd(long telegramId, String sessionId, Object value) {
    return new JsonObject().put("event_name", "FTD").put("telegram_id", telegramId).put("session_id", sessionId)
        .put("value", value).put("currency", "EUR");
  }

  private List<Row> deliveries(String eventId) {
    return app.rows("SELECT * FROM deliveries WHERE event_id = $1 ORDER BY change_seq",
        Long.parseLong(eventId.substring(4)));
  }

  private void awaitStatus(String eventId, String status, int count) {
    Await.until(count + " Google deliveries of " + eventId + " to be " + status, DEADLINE, () -> deliveries(eventId)
        .stream().filter(r -> r.getString("status").equals(status)).count() == count);
  }

  @Test
  @DisplayName("an upload: the click's gclid, the action, Google's time, the value, the event id as order id, the "
      + "email hashed as Google asks; one token refresh for many events; the headers")
  void upload() {
    start(new JsonObject().put("login_customer_id", "987-654-3210"));
    click("g1", new JsonObject().put("gclid", "Cj0KCQ-one"));
    click("g2", new JsonObject().put("landing_url", "https://lp.example/?gbraid=0AAAA-two"));
    String first = post(ftd(1, "g1", 50).put("user_data", new JsonObject().put("email", " John.Smith@Gmail.com")
        .put("phone", "+44 7700 900461")));
    String second = post(new JsonObject().put("event_name", "REG").put("telegram_id", 2).put("session_id", "g2"));
    awaitStatus(first, "delivered", 1);
    awaitStatus(second, "delivered", 1);

    JsonObject upload = google.uploads().get(first);
    long at = Instant.parse(app.get("/api/v1/events/" + first, KEY_A).bodyAsJsonObject().getJsonObject("data")
        .getString("received_at")).truncatedTo(ChronoUnit.SECONDS).getEpochSecond();
    assertThat(upload).isEqualTo(new JsonObject().put("gclid", "Cj0KCQ-one")
        .put("conversionAction", "customers/1234567890/conversionActions/111")
        .put("conversionDateTime", GoogleTime.of(at)).put("orderId", first)
        .put("conversionValue", 50).put("currencyCode", "EUR")
        .put("userIdentifiers", new JsonArray()
            .add(new JsonObject().put("hashedEmail", Sha256.hex("johnsmith@gmail.com")))
            .add(new JsonObject().put("hashedPhoneNumber", Sha256.hex("+447700900461")))));
    assertThat(google.uploads().get(second).getString("gbraid")).isEqualTo("0AAAA-two");
    assertThat(google.uploads().get(second).getString("conversionAction"))
        .isEqualTo("customers/1234567890/conversionActions/222");
    assertThat(google.refreshes()).as("one token for both").isOne();
    FakeAdNetworks.Received request = fake.received("google_ads").get(0);
    assertThat(request.body().getBoolean("partialFailure")).isTrue();
    assertThat(request.body().containsKey("validateOnly")).isFalse();
    assertThat(deliveries(first).get(0).getString("mapped_event")).isEqualTo("111");
  }

  @Test
  @DisplayName("no Google click id: skipped, not failed, no request; a name without a conversion action: no "
      + "delivery at all")
  void skippedWithoutClickId() {
    start();
    click("fb", new JsonObject().put("fbclid", "IwAR-only"));
    String withoutGclid = post(ftd(3, "fb", 10));
    String noAction = post(new JsonObject().put("event_name", "Subscribe").put("telegram_id", 4));
    awaitStatus(withoutGclid, "skipped", 1);
    assertThat(deliveries(withoutGclid).get(0).getString("last_error")).startsWith("no Google click id");
    assertThat(deliveries(noAction)).isEmpty();
    assertThat(fake.received("google_ads")).isEmpty();
    assertThat(google.refreshes()).isZero();
  }

  @Test
  @DisplayName("a partial failure fails its rows alone, in Google's words; an upload whose answer was lost is "
      + "delivered on its retry, Google having its order id")
  void partialFailure() {
    start(new JsonObject().put("conversion_actions", new JsonObject().put("FTD", "111").put("DEP", "999")));
    click("ok", new JsonObject().put("gclid", "Cj0-ok"));
    click("bad", new JsonObject().put("gclid", FakeGoogleAds.BAD_GCLID));
    String good = post(ftd(5, "ok", 10));
    String unparseable = post(ftd(6, "bad", 10));
    String unknownAction = post(new JsonObject().put("event_name", "DEP").put("telegram_id", 7)
        .put("session_id", "ok").put("value", 5).put("currency", "EUR"));
    awaitStatus(good, "delivered", 1);
    awaitStatus(unparseable, "failed", 1);
    awaitStatus(unknownAction, "failed", 1);
    assertThat(deliveries(unparseable).get(0).getString("last_error"))
        .isEqualTo("google conversionUploadError UNPARSEABLE_GCLID: The click ID could not be decoded.");
    assertThat(deliveries(unknownAction).get(0).getString("last_error"))
        .startsWith("google conversionUploadError NO_CONVERSION_ACTION_FOUND: ");
    assertThat(google.uploads()).containsOnlyKeys(good);


    // Google took an upload but its answer was lost: the retry's order id is taken, and that is a delivery.
    fake.loseGoogleAnswers(1);
    String again = post(ftd(15, "ok", 20));
    awaitStatus(again, "delivered", 1);
    assertThat(deliveries(again).get(0).getInteger("attempts")).isEqualTo(2);
    assertThat(google.uploads()).containsKey(again);
  }

  @Test
  @DisplayName("an access token that expires: Google's 401, one refresh, the request again, delivered")
  void expiredAccessToken() {
    start();
    click("t", new JsonObject().put("gclid", "Cj0-t"));
    String before = post(ftd(8, "t", 10));
    awaitStatus(before, "delivered", 1);
    google.expireTokens();
    String after = post(ftd(9, "t", 10));
    awaitStatus(after, "delivered", 1);
    assertThat(google.refreshes()).isEqualTo(2);
    assertThat(fake.received("google_ads").stream().map(FakeAdNetworks.Received::status))
        .containsExactly(200, 401, 200);
    assertThat(deliveries(after).get(0).getInteger("attempts")).isOne();
  }

  @Test
  @DisplayName("a refused refresh token pauses the integration with Google's words; no secret in them or the log")
  void refusedRefreshToken() {
    LogCapture logs = LogCapture.start();
    start(new JsonObject().put("refresh_token", "revoked-refresh-token-42"));
    click("r", new JsonObject().put("gclid", "Cj0-r"));
    String eventId = post(ftd(10, "r", 10));
    Await.until("the integration paused", DEADLINE, () -> !app.rows(
        "SELECT 1 FROM integration_pauses WHERE network = 'google_ads'").isEmpty());
    awaitStatus(eventId, "paused", 1);
    // Logged once the pause is stored: after the row is seen here.
    Await.until("the pause logged", DEADLINE, () -> logs.text().contains("google_ads integration google-main paused"));
    logs.stop();
    String error = deliveries(eventId).get(0).getString("last_error");
    assertThat(error).isEqualTo("google OAuth HTTP 400 invalid_grant: Token has been expired or revoked.");
    assertThat(logs.text()).contains("google_ads integration google-main paused")
        .doesNotContain("revoked-refresh-token-42").doesNotContain(FakeGoogleAds.CLIENT_SECRET)
        .doesNotContain(FakeGoogleAds.DEVELOPER_TOKEN);
    assertThat(fake.received("google_ads")).isEmpty();
  }

  @Test
  @DisplayName("a chargeback retracts the upload and a new value restates it, 24 hours after the conversion; "
      + "sooner they wait without a request")
  void retractionAndRestatement() {
    start();
    click("c", new JsonObject().put("gclid", "Cj0-c"));
    String charged = post(ftd(11, "c", 50).put("transaction_id", "T-1"));
    String restated = post(ftd(12, "c", 50).put("transaction_id", "T-2"));
    String fresh = post(ftd(13, "c", 50).put("transaction_id", "T-3"));
    awaitStatus(charged, "delivered", 1);
    awaitStatus(restated, "delivered", 1);
    awaitStatus(fresh, "delivered", 1);
    app.rows("UPDATE events SET received_at = received_at - interval '2 days' WHERE event_id = ANY($1)",
        (Object) new Long[] {Long.parseLong(charged.substring(4)), Long.parseLong(restated.substring(4))});

    assertThat(post(ftd(11, "c", 50).put("transaction_id", "T-1").put("conversion_status", "chargeback")))
        .isEqualTo(charged);
    assertThat(post(ftd(12, "c", 30).put("transaction_id", "T-2"))).isEqualTo(restated);
    assertThat(post(ftd(13, "c", 50).put("transaction_id", "T-3").put("conversion_status", "rejected")))
        .isEqualTo(fresh);
    awaitStatus(charged, "delivered", 2);
    awaitStatus(restated, "delivered", 2);

    assertThat(google.adjustments()).hasSize(2);
    JsonObject retraction = google.adjustments().stream().filter(a -> a.getString("orderId").equals(charged))
        .findFirst().orElseThrow();
    assertThat(retraction.getString("adjustmentType")).isEqualTo("RETRACTION");
    assertThat(retraction.getString("conversionAction")).isEqualTo("customers/1234567890/conversionActions/111");
    assertThat(retraction.containsKey("restatementValue")).isFalse();
    JsonObject restatement = google.adjustments().stream().filter(a -> a.getString("orderId").equals(restated))
        .findFirst().orElseThrow();
    assertThat(restatement.getString("adjustmentType")).isEqualTo("RESTATEMENT");
    assertThat(restatement.getJsonObject("restatementValue")).isEqualTo(new JsonObject()
        .put("adjustedValue", 30).put("currencyCode", "EUR"));
    assertThat(deliveries(charged).get(1).getString("mapped_event")).isEqualTo("111:RETRACTION");

    Await.until("the early retraction deferred", DEADLINE, () -> deliveries(fresh).size() == 2
        && deliveries(fresh).get(1).getValue("next_attempt_at") != null
        && deliveries(fresh).get(1).getOffsetDateTime("next_attempt_at").toInstant()
            .isAfter(Instant.now().plusSeconds(23 * 3600)));
    assertThat(deliveries(fresh).get(1).getInteger("attempts")).as("no attempt spent").isZero();
    assertThat(fake.received("google_ads/adjust").stream().flatMap(r -> r.eventIds().stream())).doesNotContain(fresh);
  }

  @Test
  @DisplayName("a test_event_code uploads with validateOnly, recorded nowhere; the credential test accepts a good "
      + "setup, and refuses a name without an action with a 400")
  void validateOnly() {
    start(new JsonObject().put("test_event_code", "ANY"));
    click("v", new JsonObject().put("gclid", "Cj0-v"));
    String eventId = post(ftd(14, "v", 10));
    awaitStatus(eventId, "delivered", 1);
    assertThat(fake.received("google_ads").get(0).body().getBoolean("validateOnly")).isTrue();
    assertThat(google.uploads()).isEmpty();

    MultiMap key = MultiMap.caseInsensitiveMultiMap().add("x-api-key", KEY_A);
    var test = app.post("/api/v1/integrations/google-main/test?event_name=FTD", key, Buffer.buffer());
    assertThat(test.statusCode()).as(test.bodyAsString()).isEqualTo(200);
    JsonObject verdict = test.bodyAsJsonObject().getJsonObject("data");
    assertThat(verdict.getString("verdict")).isEqualTo("accepted");
    assertThat(verdict.getString("event_name")).isEqualTo("111");
    assertThat(app.post("/api/v1/integrations/google-main/test?event_name=Subscribe", key, Buffer.buffer())
        .statusCode()).isEqualTo(400);
  }

  /** Google's time of an instant given in epoch seconds. */
  private static final class GoogleTime {
    static String of(long epochSecond) {
      return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'+00:00'")
          .withZone(java.time.ZoneOffset.UTC).format(Instant.ofEpochSecond(epochSecond));
    }
  }

}
