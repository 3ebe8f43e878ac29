package dev.eventrouter.forward;

import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.DataProcessing;
import dev.eventrouter.config.GoogleAdsConfig;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.event.ClickData;
import dev.eventrouter.event.ClickIds;
import dev.eventrouter.forward.google.GoogleAdsApi;
import dev.eventrouter.forward.google.GoogleAdsErrors;
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
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Google Ads' request bodies, row by row, and what each of its answers means, row by row. */
class GoogleAdsApiUnitTest {

  private static final Instant AT = Instant.parse("2026-11-20T10:00:05Z");
  private static final GoogleAdsApi API = new GoogleAdsApi();
  private static final GoogleAdsConfig GOOGLE = new GoogleAdsConfig("1234567890", null, "dev", "client", "secret",
      "https://oauth.example/token", Map.of("FTD", "111", "REG", "222"));

  private static IntegrationConfig integration(String testEventCode) {
    return new IntegrationConfig("g", Network.GOOGLE_ADS, "1234567890", "refresh", "https://ads.example", "v22",
        null, null, testEventCode, true, false, null, DataProcessing.NONE, null, false, Set.of("approved"), null,
        GOOGLE);
  }

  private static ClaimedDelivery job(long id, String mapped, ClickIds ids, BigDecimal value, Boolean limited) {
    return new ClaimedDelivery(1, id, UUID.randomUUID(), "g", "FTD", mapped, 0, 42L, "s", value, "EUR",
        new JsonObject().put("email", "Jane.Doe@GoogleMail.com").put("phone", "+1 (650) 555-0100"), AT,
        new ClickData(null, null, null, null, null, "203.0.113.1", "UA", null, ids), limited, "approved", null, 0,
        "google_ads");
  }

  private static final ClickIds GCLID = new ClickIds("Cj0-g", "0AA-b", null, null, null);

  @Test
  @DisplayName("an upload row: one click id (gclid first), the action's resource, Google's time, value, order id, "
      + "hashed identifiers, consent from Limited Data Use")
  void upload() {
    JsonObject body = API.body(integration(null), List.of(job(7, "111", GCLID, new BigDecimal("9.50"), false)));
    assertThat(body).isEqualTo(new JsonObject().put("conversions", new JsonArray().add(new JsonObject()
            .put("gclid", "Cj0-g").put("conversionAction", "customers/1234567890/conversionActions/111")
            .put("conversionDateTime", "2026-11-20 10:00:05+00:00").put("orderId", "evt_7")
            .put("conversionValue", new BigDecimal("9.50")).put("currencyCode", "EUR")
            .put("userIdentifiers", new JsonArray()
                .add(new JsonObject().put("hashedEmail", Sha256.hex("janedoe@googlemail.com")))
                .add(new JsonObject().put("hashedPhoneNumber", Sha256.hex("+16505550100"))))
            .put("consent", new JsonObject().put("adUserData", "GRANTED"))))
        .put("partialFailure", true));
    JsonObject denied = API.event(integration(null), job(8, "222", new ClickIds(null, null, "wb", null, null),
        null, true));
    assertThat(denied).isEqualTo(new JsonObject().put("wbraid", "wb")
        .put("conversionAction", "customers/1234567890/conversionActions/222")
        .put("conversionDateTime", "2026-11-20 10:00:05+00:00").put("orderId", "evt_8")
        .put("consent", new JsonObject().put("adUserData", "DENIED")));
    assertThat(API.event(integration(null), job(9, "111", GCLID, null, null)).containsKey("consent")).isFalse();
    assertThat(API.body(integration("T"), List.of(job(7, "111", GCLID, null, null))).getBoolean("validateOnly"))
        .isTrue();
  }

  @Test
  @DisplayName("adjustments: RETRACTION without a value, RESTATEMENT with the new one, by order id; 24 h after the "
      + "conversion; uploads and adjustments in two requests")
  void adjustments() {
    ClaimedDelivery retraction = job(7, "111:RETRACTION", GCLID, new BigDecimal("9.50"), null);
    ClaimedDelivery restatement = job(8, "111:RESTATEMENT", GCLID, new BigDecimal("4"), null);
    ClaimedDelivery upload = job(9, "111", GCLID, null, null);
    JsonObject body = API.body(integration(null), List.of(retraction, restatement));
    JsonArray rows = body.getJsonArray("conversionAdjustments");
    assertThat(body.getBoolean("partialFailure")).isTrue();
    assertThat(rows.getJsonObject(0).copy().put("adjustmentDateTime", "x")).isEqualTo(new JsonObject()
        .put("conversionAction", "customers/1234567890/conversionActions/111").put("adjustmentType", "RETRACTION")
        .put("adjustmentDateTime", "x").put("orderId", "evt_7"));
    assertThat(rows.getJsonObject(0).getString("adjustmentDateTime"))
        .matches("[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\\+00:00");
    assertThat(rows.getJsonObject(1).getJsonObject("restatementValue")).isEqualTo(new JsonObject()
        .put("adjustedValue", new BigDecimal("4")).put("currencyCode", "EUR"));
    assertThat(API.notBefore(retraction)).isEqualTo(AT.plus(Duration.ofHours(24).plusMinutes(5)));
    assertThat(API.notBefore(upload)).isNull();
    assertThat(API.requests(List.of(upload, retraction, restatement)))
        .containsExactly(List.of(upload), List.of(retraction, restatement));
    assertThat(API.requests(List.of(upload))).containsExactly(List.of(upload));
    assertThat(API.requests(List.of(retraction))).containsExactly(List.of(retraction));
    assertThat(API.payloads(body, 2)).extracting(p -> p.getJsonArray("conversionAdjustments").size())
        .containsExactly(1, 1);
    assertThat(API.payloads(body, 2).get(1).getJsonArray("conversionAdjustments").getJsonObject(0)
        .getString("orderId")).isEqualTo("evt_8");
  }

  @Test
  @DisplayName("skipped: no Google click id, or an adjustment of a wbraid conversion; 54 days; match keys")
  void traits() {
    assertThat(API.skip(job(1, "111", ClickIds.NONE, null, null))).startsWith("no Google click id");
    assertThat(API.skip(job(1, "111", GCLID, null, null))).isNull();
    ClickIds wbraid = new ClickIds(null, null, "wb", null, null);
    assertThat(API.skip(job(1, "111", wbraid, null, null))).isNull();
    assertThat(API.skip(job(1, "111:RETRACTION", wbraid, null, null))).contains("wbraid");
    assertThat(API.skip(job(1, "111:RETRACTION", GCLID, null, null))).isNull();
    assertThat(API.maxEventAge()).isEqualTo(Duration.ofDays(54));
    assertThat(API.network()).isEqualTo(Network.GOOGLE_ADS);
    assertThat(API.shortfall(Buffer.buffer("{}"), 2)).isNull();
    assertThat(API.testClick().ids().gclid()).isNotNull();
    assertThat(API.userData()).as("no external id, IP or user agent").isSameAs(GoogleAdsApi.USER_DATA);
    JsonObject body = API.body(integration(null), List.of(job(7, "111", GCLID, null, false),
        job(8, "111", wbraid, null, true)));
    assertThat(API.matchKeys(body, 2)).containsExactly(0b11001, 0b00100);
    assertThat(API.matchKeys(API.body(integration(null), List.of(job(7, "111:RETRACTION", GCLID, null, null))), 1))
        .containsExactly(0);
  }

  private static JsonObject rowError(String kind, String code, Integer index) {
    JsonObject error = new JsonObject().put("errorCode", new JsonObject().put(kind, code)).put("message", "m " + code);
    if (index != null) {
      error.put("location", new JsonObject().put("fieldPathElements", new JsonArray()
          .add(new JsonObject().put("fieldName", "conversions").put("index", index))));
    }
    return error;
  }

  private static Buffer partial(JsonObject... errors) {
    return new JsonObject().put("results", new JsonArray()).put("partialFailureError", new JsonObject()
        .put("code", 3).put("message", "invalid").put("details", new JsonArray().add(new JsonObject()
            .put("errors", new JsonArray(List.of((Object[]) errors)))))).toBuffer();
  }

  @Test
  @DisplayName("a partial failure: each named row its outcome (retry later, already done, failed), the others taken")
  void partialFailure() {
    Outcome outcome = GoogleAdsErrors.verdict(200, partial(
        rowError("conversionUploadError", "UNPARSEABLE_GCLID", 1),
        rowError("conversionUploadError", "TOO_RECENT_EVENT", 2),
        rowError("conversionUploadError", "ORDER_ID_ALREADY_IN_USE", 3),
        rowError("conversionAdjustmentUploadError", "TOO_RECENT_CONVERSION", 4),
        rowError("conversionUploadError", "NO_CONVERSION_ACTION_FOUND", 1)), 0, 5);
    assertThat(outcome).isEqualTo(new Outcome.PerEvent(List.of(new Outcome.Delivered(),
        new Outcome.Failed("google conversionUploadError UNPARSEABLE_GCLID: m UNPARSEABLE_GCLID"),
        new Outcome.Retry("google conversionUploadError TOO_RECENT_EVENT: m TOO_RECENT_EVENT", 6 * 3_600_000L),
        new Outcome.Delivered(),
        new Outcome.Retry("google conversionAdjustmentUploadError TOO_RECENT_CONVERSION: m TOO_RECENT_CONVERSION",
            24 * 3_600_000L))));
    assertThat(GoogleAdsErrors.verdict(200, partial(rowError("requestError", "UNKNOWN_THING", null)), 0, 2))
        .as("no row named: every row's").isEqualTo(new Outcome.PerEvent(List.of(
            new Outcome.Failed("google requestError UNKNOWN_THING: m UNKNOWN_THING"),
            new Outcome.Failed("google requestError UNKNOWN_THING: m UNKNOWN_THING"))));
    assertThat(GoogleAdsErrors.verdict(200, new JsonObject().put("partialFailureError", new JsonObject()
        .put("message", "odd")).toBuffer(), 0, 2)).isEqualTo(new Outcome.Failed("google partial failure: odd"));
    assertThat(GoogleAdsErrors.verdict(200, new JsonObject().put("results", new JsonArray()).toBuffer(), 0, 2))
        .isInstanceOf(Outcome.Delivered.class);
    assertThat(GoogleAdsErrors.verdict(200, new JsonObject().put("errorCode", 1).toBuffer(), 0, 1))
        .isInstanceOf(Outcome.Delivered.class);
    assertThat(GoogleAdsErrors.verdict(200, Buffer.buffer("<html>"), 7, 1))
        .isEqualTo(new Outcome.Retry("google HTTP 200 without an answer", 7));
    JsonObject odd = new JsonObject().put("errorCode", new JsonObject().put("a", "X").put("b", "Y"));
    assertThat(GoogleAdsErrors.verdict(200, partial(odd), 0, 1))
        .isEqualTo(new Outcome.PerEvent(List.of(new Outcome.Failed("google error UNKNOWN: "))));
  }

  @Test
  @DisplayName("request-level answers: 401/403 and a refused refresh token pause, 429 and 5xx retry, 400 fails")
  void requestLevel() {
    Buffer unauthenticated = new JsonObject().put("error", new JsonObject().put("code", 401).put("message", "bad")
        .put("status", "UNAUTHENTICATED").put("details", new JsonArray().add(new JsonObject().put("errors",
            new JsonArray().add(new JsonObject().put("errorCode", new JsonObject()
                .put("authenticationError", "OAUTH_TOKEN_REVOKED")).put("message", "revoked")))))).toBuffer();
    assertThat(GoogleAdsErrors.verdict(401, unauthenticated, 0, 3)).isEqualTo(new Outcome.Unauthorized(
        "google HTTP 401 UNAUTHENTICATED authenticationError OAUTH_TOKEN_REVOKED: revoked"));
    assertThat(GoogleAdsErrors.verdict(403, new JsonObject().put("error", new JsonObject().put("status",
        "PERMISSION_DENIED").put("message", "no")).toBuffer(), 0, 1))
        .isEqualTo(new Outcome.Unauthorized("google HTTP 403 PERMISSION_DENIED: no"));
    assertThat(GoogleAdsErrors.verdict(429, Buffer.buffer(), 5_000, 1))
        .isEqualTo(new Outcome.Retry("google HTTP 429", 5_000));
    assertThat(GoogleAdsErrors.verdict(503, unauthenticated, 0, 1)).isInstanceOf(Outcome.Retry.class);
    assertThat(GoogleAdsErrors.verdict(400, Buffer.buffer("x"), 0, 1)).isEqualTo(new Outcome.Failed("google HTTP 400"));
    assertThat(GoogleAdsErrors.verdict(302, null, 0, 1)).isInstanceOf(Outcome.Failed.class);
    Buffer grant = new JsonObject().put("error", "invalid_grant").put("error_description", "Token has been expired "
        + "or revoked.").toBuffer();
    assertThat(GoogleAdsErrors.verdict(400, grant, 0, 1)).isEqualTo(new Outcome.Unauthorized(
        "google OAuth HTTP 400 invalid_grant: Token has been expired or revoked."));
    assertThat(GoogleAdsErrors.verdict(503, grant, 9, 1)).isInstanceOf(Outcome.Retry.class);
    assertThat(GoogleAdsErrors.verdict(429, grant, 9, 1)).isInstanceOf(Outcome.Retry.class);
    assertThat(API.classify(429, Buffer.buffer(), 5_000)).as("one row's answer")
        .isEqualTo(new Outcome.Retry("google HTTP 429", 5_000));
  }

  @Test
  @DisplayName("the credential test: the made-up click refused means the rest was accepted; its answer's fields")
  void credentialTest() {
    assertThat(API.testVerdict(200, partial(rowError("conversionUploadError", "UNPARSEABLE_GCLID", 0))))
        .isInstanceOf(Outcome.Delivered.class);
    assertThat(API.testVerdict(200, partial(rowError("conversionUploadError", "EVENT_NOT_FOUND", 0))))
        .isInstanceOf(Outcome.Delivered.class);
    assertThat(API.testVerdict(200, partial(
        rowError("conversionUploadError", "NO_CONVERSION_ACTION_FOUND", 0))))
        .isEqualTo(new Outcome.PerEvent(List.of(new Outcome.Failed(
            "google conversionUploadError NO_CONVERSION_ACTION_FOUND: m NO_CONVERSION_ACTION_FOUND"))));
    assertThat(API.testVerdict(401, Buffer.buffer())).isInstanceOf(Outcome.Unauthorized.class);
    assertThat(API.testVerdict(200, new JsonObject().toBuffer())).isInstanceOf(Outcome.Delivered.class);

    assertThat(API.answer(new JsonObject().put("error", "invalid_grant").put("error_description", "d")
        .put("other", 1).toBuffer())).isEqualTo(new JsonObject().put("error", "invalid_grant")
        .put("error_description", "d"));
    assertThat(API.answer(new JsonObject().put("jobId", "9").put("results", new JsonArray())
        .put("partialFailureError", new JsonObject().put("code", 3).put("message", "m").put("details",
            new JsonArray())).toBuffer())).isEqualTo(new JsonObject().put("partialFailureError", new JsonObject()
        .put("code", 3).put("message", "m")).put("jobId", "9"));
    assertThat(API.answer(new JsonObject().put("error", new JsonObject().put("code", 401)
        .put("status", "UNAUTHENTICATED").put("details", new JsonArray())).toBuffer()))
        .isEqualTo(new JsonObject().put("error", new JsonObject().put("code", 401).put("status", "UNAUTHENTICATED")));
    assertThat(API.answer(new JsonObject().put("results", new JsonArray()).toBuffer()))
        .isEqualTo(new JsonObject());
    assertThat(API.answer(new JsonObject().put("x", 1).toBuffer())).isNull();
    assertThat(API.answer(Buffer.buffer("<html>"))).isNull();
  }

  @Test
  @DisplayName("status boundaries, and answers of odd shapes: no row named means every row; no error list, a failure")
  void oddAnswers() {
    Buffer grant = new JsonObject().put("error", "invalid_client").toBuffer();
    assertThat(GoogleAdsErrors.verdict(499, grant, 0, 1)).isEqualTo(new Outcome.Unauthorized(
        "google OAuth HTTP 499 invalid_client: "));
    assertThat(GoogleAdsErrors.verdict(500, grant, 0, 1)).isInstanceOf(Outcome.Retry.class);
    Buffer empty = new JsonObject().toBuffer();
    assertThat(GoogleAdsErrors.verdict(199, empty, 0, 1)).isEqualTo(new Outcome.Failed("google HTTP 199"));
    assertThat(GoogleAdsErrors.verdict(299, empty, 0, 1)).isInstanceOf(Outcome.Delivered.class);
    assertThat(GoogleAdsErrors.verdict(300, empty, 0, 1)).isEqualTo(new Outcome.Failed("google HTTP 300"));
    assertThat(GoogleAdsErrors.verdict(499, empty, 0, 1)).isEqualTo(new Outcome.Failed("google HTTP 499"));
    assertThat(GoogleAdsErrors.verdict(500, empty, 3, 1)).isEqualTo(new Outcome.Retry("google HTTP 500", 3));
    assertThat(GoogleAdsErrors.verdict(402, new JsonObject().put("error", new JsonObject().put("message", "m")
        .put("details", new JsonArray().add("text").add(new JsonObject().put("errors", "none"))
            .add(new JsonObject().put("errors", new JsonArray().add(1))))).toBuffer(), 0, 1))
        .isEqualTo(new Outcome.Failed("google HTTP 402 : m"));

    JsonObject notARow = new JsonObject().put("errorCode", "TOO_RECENT_EVENT").put("message", "x")
        .put("location", "conversions[0]");
    Outcome.Failed unknown = new Outcome.Failed("google error UNKNOWN: x");
    assertThat(GoogleAdsErrors.verdict(200, partial(notARow), 0, 2))
        .isEqualTo(new Outcome.PerEvent(List.of(unknown, unknown)));
    JsonObject emptyPath = rowError("conversionUploadError", "EXPIRED_EVENT", null)
        .put("location", new JsonObject().put("fieldPathElements", new JsonArray()));
    JsonObject pathOfText = rowError("conversionUploadError", "EXPIRED_EVENT", null)
        .put("location", new JsonObject().put("fieldPathElements", new JsonArray().add("conversions")));
    JsonObject indexOfText = rowError("conversionUploadError", "EXPIRED_EVENT", null)
        .put("location", new JsonObject().put("fieldPathElements", new JsonArray()
            .add(new JsonObject().put("index", "0"))));
    JsonObject pathNotList = rowError("conversionUploadError", "EXPIRED_EVENT", null)
        .put("location", new JsonObject().put("fieldPathElements", "x"));
    Outcome.Failed expired = new Outcome.Failed("google conversionUploadError EXPIRED_EVENT: m EXPIRED_EVENT");
    for (JsonObject error : List.of(emptyPath, pathOfText, indexOfText, pathNotList)) {
      assertThat(GoogleAdsErrors.verdict(200, partial(error), 0, 2)).as(error.encode())
          .isEqualTo(new Outcome.PerEvent(List.of(expired, expired)));
    }
    JsonObject codeOfNumber = new JsonObject().put("errorCode", new JsonObject().put("a", 1)).put("message", "n");
    assertThat(GoogleAdsErrors.verdict(200, partial(codeOfNumber), 0, 1))
        .isEqualTo(new Outcome.PerEvent(List.of(new Outcome.Failed("google a UNKNOWN: n"))));
    assertThat(GoogleAdsErrors.verdict(200, new JsonObject().put("partialFailureError", new JsonObject()
        .put("message", "m").put("details", "x")).toBuffer(), 0, 1))
        .isEqualTo(new Outcome.Failed("google partial failure: m"));
    assertThat(GoogleAdsErrors.testVerdict(200, partial(rowError("conversionUploadError", "UNPARSEABLE_GCLID", 0),
        rowError("conversionUploadError", "EXPIRED_EVENT", 0)))).isInstanceOf(Outcome.PerEvent.class);
    assertThat(GoogleAdsErrors.testVerdict(200, new JsonObject().put("partialFailureError", new JsonObject())
        .toBuffer())).isEqualTo(new Outcome.Failed("google partial failure: "));
    assertThat(GoogleAdsErrors.testVerdict(200, Buffer.buffer("x"))).isInstanceOf(Outcome.Retry.class);
    assertThat(GoogleAdsErrors.testVerdict(400, partial(rowError("conversionUploadError", "UNPARSEABLE_GCLID", 0))))
        .isInstanceOf(Outcome.Failed.class);
  }

  @Test
  @DisplayName("rows at their edges: a correction named at the mapped name's start, a restatement without a value, "
      + "an upload without identifiers")
  void rowEdges() {
    ClaimedDelivery bare = new ClaimedDelivery(1, 3, UUID.randomUUID(), "g", "FTD", ":RETRACTION", 0, 42L, "s",
        null, "EUR", null, AT, new ClickData(null, null, null, null, null, null, null, null, GCLID), null,
        "rejected", "approved", 1, "google_ads");
    JsonObject retraction = API.event(integration(null), bare);
    assertThat(retraction.getString("adjustmentType")).isEqualTo("RETRACTION");
    assertThat(retraction.getString("conversionAction")).isEqualTo("customers/1234567890/conversionActions/");
    ClaimedDelivery restated = new ClaimedDelivery(1, 4, UUID.randomUUID(), "g", "FTD", "111:RESTATEMENT", 0, 42L,
        "s", null, "EUR", null, AT, new ClickData(null, null, null, null, null, null, null, null, GCLID), null,
        "approved", "approved", 1, "google_ads");
    assertThat(API.event(integration(null), restated).containsKey("restatementValue")).isFalse();
    ClaimedDelivery upload = new ClaimedDelivery(1, 5, UUID.randomUUID(), "g", "FTD", "111", 0, 42L, "s", null,
        "EUR", null, AT, new ClickData(null, null, null, null, null, null, null, null, GCLID), false, "approved",
        null, 0, "google_ads");
    JsonObject row = API.event(integration(null), upload);
    assertThat(row.containsKey("userIdentifiers")).isFalse();
    assertThat(row.containsKey("conversionValue")).isFalse();
    assertThat(row.getJsonObject("consent").getString("adUserData")).isEqualTo("GRANTED");
    assertThat(API.event(integration(null), job(6, "111", GCLID, null, false)).getJsonArray("userIdentifiers"))
        .hasSize(2);
  }

  @Test
  @DisplayName("Google's email rule: gmail and googlemail lose the dots before the @, others keep them")
  void googleEmail() {
    assertThat(Normalize.googleEmail(" Jane.Doe@Gmail.com ")).isEqualTo("janedoe@gmail.com");
    assertThat(Normalize.googleEmail("j.d@googlemail.com")).isEqualTo("jd@googlemail.com");
    assertThat(Normalize.googleEmail("j.d@example.com")).isEqualTo("j.d@example.com");
    assertThat(Normalize.googleEmail("j.d@mail.gmail.com")).isEqualTo("j.d@mail.gmail.com");
    assertThat(Normalize.googleEmail("not an email")).isNull();
  }
}
