package dev.eventrouter.api.events;

import dev.eventrouter.support.ServiceTest;
import dev.eventrouter.support.TestApp;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.KEY_B;
import static dev.eventrouter.support.TestApp.KEY_LIMITED;
import static dev.eventrouter.support.TestApp.WS_A;
import static dev.eventrouter.support.TestApp.WS_B;
import static dev.eventrouter.support.TestApp.WS_LIMITED;
import static org.assertj.core.api.Assertions.assertThat;

class IngestApiTest extends ServiceTest {

  /** The example event of the spec. */
  private static JsonObject specExample() {
    return new JsonObject()
        .put("event_name", "FTD")
        .put("telegram_id", 123456789)
        .put("workspace_id", WS_A)
        .put("session_id", "abc123")
        .put("value", 50)
        .put("currency", "usd")
        .put("user_data", new JsonObject().put("email", "John_Smith@gmail.com").put("phone", "+1 650 555 1212"));
  }

  private static JsonObject minimal(String eventName) {
    return new JsonObject().put("event_name", eventName).put("telegram_id", 42).put("workspace_id", WS_A);
  }

  // --- success ---

  @Test
  @DisplayName("the spec example is stored with every accepted field and answered with its event id")
  void specExampleRoundTrips() {
    HttpResponse<Buffer> response = app.postEvent(KEY_A, specExample());

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.getHeader("Content-Type")).startsWith("application/json");
    JsonObject body = response.bodyAsJsonObject();
    assertThat(body.fieldNames()).containsExactlyInAnyOrder("ok", "data");
    assertThat(body.getBoolean("ok")).isTrue();
    JsonObject data = body.getJsonObject("data");
    assertThat(data.getString("event_id")).matches("evt_[0-9]+");
    assertThat(data.getString("session_id")).isEqualTo("abc123");
    assertThat(data.getString("status")).isEqualTo("processed");

    List<Row> rows = app.rows("SELECT * FROM events");
    assertThat(rows).hasSize(1);
    Row row = rows.get(0);
    assertThat("evt_" + row.getLong("event_id")).isEqualTo(data.getString("event_id"));
    assertThat(row.getUUID("workspace_id")).isEqualTo(UUID.fromString(WS_A));
    assertThat(row.getString("event_name")).isEqualTo("FTD");
    assertThat(row.getLong("telegram_id")).isEqualTo(123456789L);
    assertThat(row.getString("session_id")).isEqualTo("abc123");
    assertThat(row.getBigDecimal("value")).isEqualByComparingTo("50");
    assertThat(row.getString("currency")).isEqualTo("USD");
    assertThat((JsonObject) row.getJson("user_data")).isEqualTo(specExample().getJsonObject("user_data"));
    assertThat(row.getString("status")).isEqualTo("processed");
    assertThat(row.getOffsetDateTime("received_at"))
        .isBetween(OffsetDateTime.now().minusMinutes(1), OffsetDateTime.now().plusMinutes(1));
  }

  @Test
  @DisplayName("/v1/events/custom is the same endpoint")
  void aliasPathStores() {
    HttpResponse<Buffer> response =
        app.post("/v1/events/custom", TestApp.jsonHeaders(KEY_A), specExample().toBuffer());

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(app.count("events")).isEqualTo(1);
  }

  @Test
  @DisplayName("without session_id, value and currency the event is stored with null session, no value and USD")
  void optionalFieldsDefault() {
    HttpResponse<Buffer> response = app.postEvent(KEY_A, minimal("REG").put("session_id", null));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.bodyAsJsonObject().getJsonObject("data").containsKey("session_id")).isTrue();
    assertThat(response.bodyAsJsonObject().getJsonObject("data").getValue("session_id")).isNull();
    Row row = app.rows("SELECT session_id, value, currency, user_data FROM events").get(0);
    assertThat(row.getString("session_id")).isNull();
    assertThat(row.getValue("value")).isNull();
    assertThat(row.getString("currency")).isEqualTo("USD");
    assertThat(row.getValue("user_data")).isNull();
  }

  static Stream<Arguments> acceptedEdges() {
    JsonObject fiftyKeys = new JsonObject();
    IntStream.range(0, 50).forEach(i -> fiftyKeys.put("k" + i, i % 2 == 0 ? "v" : (Object) true));
    return Stream.of(
        Arguments.of("custom event name with spaces", minimal("Level Up 2")),
        Arguments.of("50-character event name", minimal("E".repeat(50))),
        Arguments.of("largest telegram_id", minimal("REG").put("telegram_id", Long.MAX_VALUE)),
        Arguments.of("64-character session_id", minimal("REG").put("session_id", "a-Z_9".repeat(12) + "abcd")),
        Arguments.of("value 0 on a purchase", minimal("Purchase").put("value", 0)),
        Arguments.of("fractional value", minimal("DEP").put("value", 19.99).put("currency", "EUR")),
        Arguments.of("user_data with 50 keys", minimal("REG").put("user_data", fiftyKeys)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("acceptedEdges")
  @DisplayName("values at the edges of the rules are accepted and stored")
  void edgesAreAccepted(String name, JsonObject event) {
    HttpResponse<Buffer> response = app.postEvent(KEY_A, event);

    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    Row row = app.rows("SELECT event_name, telegram_id, value FROM events").get(0);
    assertThat(row.getString("event_name")).isEqualTo(event.getString("event_name"));
    assertThat(row.getLong("telegram_id")).isEqualTo(event.getLong("telegram_id"));
    if (event.getValue("value") != null) {
      assertThat(row.getBigDecimal("value")).isEqualByComparingTo(new BigDecimal(event.getValue("value").toString()));
    }
  }

  // --- 400 invalid_json ---

  @ParameterizedTest
  @ValueSource(strings = {"", "not json", "{\"event_name\":", "[1, 2]", "\"FTD\"", "42", "null"})
  @DisplayName("a body that is not a JSON object is refused with invalid_json and nothing is stored")
  void invalidJson(String body) {
    HttpResponse<Buffer> response = app.post("/api/v1/events/custom", TestApp.jsonHeaders(KEY_A), Buffer.buffer(body));

    assertError(response, 400, "invalid_json");
    assertThat(app.count("events")).isZero();
  }

  // --- 400 validation_failed ---

  static Stream<Arguments> invalidFields() {
    return Stream.of(
        invalid("event_name", "missing", e -> e.remove("event_name")),
        invalid("event_name", "empty", e -> e.put("event_name", "")),
        invalid("event_name", "51 characters", e -> e.put("event_name", "E".repeat(51))),
        invalid("event_name", "punctuation", e -> e.put("event_name", "FTD!")),
        invalid("event_name", "leading space", e -> e.put("event_name", " FTD")),
        invalid("event_name", "not a string", e -> e.put("event_name", 7)),
        invalid("telegram_id", "missing", e -> e.remove("telegram_id")),
        invalid("telegram_id", "a string", e -> e.put("telegram_id", "123456789")),
        invalid("telegram_id", "a fraction", e -> e.put("telegram_id", 1.5)),
        invalid("telegram_id", "negative", e -> e.put("telegram_id", -5)),
        invalid("telegram_id", "zero", e -> e.put("telegram_id", 0)),
        invalid("telegram_id", "above 2^63-1", e -> e.put("telegram_id", new java.math.BigInteger("9223372036854775808"))),
        invalid("workspace_id", "missing", e -> e.remove("workspace_id")),
        invalid("workspace_id", "not a UUID", e -> e.put("workspace_id", "demo")),
        invalid("session_id", "65 characters", e -> e.put("session_id", "s".repeat(65))),
        invalid("session_id", "outside the start alphabet", e -> e.put("session_id", "abc.def")),
        invalid("session_id", "empty", e -> e.put("session_id", "")),
        invalid("value", "negative", e -> e.put("value", -1)),
        invalid("value", "a string", e -> e.put("value", "10")),
        invalid("value", "missing on FTD", e -> e.put("event_name", "FTD").remove("value")),
        invalid("value", "missing on DEP", e -> e.put("event_name", "DEP").remove("value")),
        invalid("value", "missing on Purchase", e -> e.put("event_name", "Purchase").remove("value")),
        invalid("currency", "two letters", e -> e.put("currency", "US")),
        invalid("currency", "not ISO 4217", e -> e.put("currency", "ABC")),
        invalid("currency", "a number", e -> e.put("currency", 840)),
        invalid("user_data", "an array", e -> e.put("user_data", new JsonArray().add("x"))),
        invalid("user_data.address", "nested object", e -> e.put("user_data", new JsonObject()
            .put("address", new JsonObject().put("city", "x")))),
        invalid("user_data.email", "null value", e -> e.put("user_data", new JsonObject().putNull("email"))),
        invalid("user_data", "51 keys", e -> {
          JsonObject many = new JsonObject();
          IntStream.range(0, 51).forEach(i -> many.put("k" + i, "v"));
          e.put("user_data", many);
        }),
        invalid("user_data", "over 4 KiB", e -> e.put("user_data", new JsonObject().put("note", "x".repeat(4100)))),
        invalid("emial", "an unknown top-level field", e -> e.put("emial", "a@b.c")));
  }

  private static Arguments invalid(String field, String why, Consumer<JsonObject> change) {
    JsonObject event = minimal("REG");
    change.accept(event);
    return Arguments.of(field, why, event);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("invalidFields")
  @DisplayName("each field rule refuses a bad value with validation_failed naming that field, and nothing is stored")
  void fieldRules(String field, String why, JsonObject event) {
    HttpResponse<Buffer> response = app.postEvent(KEY_A, event);

    JsonObject error = assertError(response, 400, "validation_failed");
    assertThat(error.getJsonArray("details").stream().map(d -> ((JsonObject) d).getString("field")))
        .containsExactly(field);
    assertThat(app.count("events")).isZero();
  }

  @Test
  @DisplayName("every bad field gets its own details entry")
  void allBadFieldsReported() {
    JsonObject event = new JsonObject().put("event_name", "FTD").put("telegram_id", "12").put("workspace_id", "x")
        .put("currency", "dollars").put("extra", 1);

    JsonObject error = assertError(app.postEvent(KEY_A, event), 400, "validation_failed");
    assertThat(error.getJsonArray("details").stream().map(d -> ((JsonObject) d).getString("field")))
        .containsExactlyInAnyOrder("extra", "telegram_id", "workspace_id", "value", "currency");
    assertThat(app.count("events")).isZero();
  }

  // --- 401 / 403 ---

  @ParameterizedTest
  @ValueSource(strings = {"", "wrong-key", KEY_A + "x"})
  @DisplayName("a missing or unknown x-api-key is refused with 401 and nothing is stored")
  void unknownKey(String key) {
    HttpResponse<Buffer> response = app.postEvent(key.isEmpty() ? null : key, specExample());

    assertError(response, 401, "unauthorized");
    assertThat(app.count("events")).isZero();
  }

  @Test
  @DisplayName("a key of another workspace than workspace_id is refused with 403 and nothing is stored")
  void keyOfAnotherWorkspace() {
    HttpResponse<Buffer> response = app.postEvent(KEY_B, specExample());

    assertError(response, 403, "forbidden");
    assertThat(app.count("events")).isZero();
  }

  // --- 404 / 405 / 413 / 415 ---

  @Test
  @DisplayName("an unknown path gets 404 with the error body")
  void unknownPath() {
    HttpResponse<Buffer> response = app.post("/api/v1/nothing-here", TestApp.jsonHeaders(KEY_A),
        specExample().toBuffer());

    assertError(response, 404, "not_found");
    assertThat(app.count("events")).isZero();
  }

  @Test
  @DisplayName("a wrong method on the endpoint gets 405 with the error body")
  void wrongMethod() {
    HttpResponse<Buffer> response = app.client().get(app.port(), "127.0.0.1", "/api/v1/events/custom")
        .putHeader("x-api-key", KEY_A).send().await();

    assertError(response, 405, "method_not_allowed");
  }

  @Test
  @DisplayName("a body over http.max_body_bytes gets 413 and nothing is stored")
  void bodyTooLarge() {
    JsonObject event = minimal("REG").put("padding", "x".repeat(TestApp.MAX_BODY_BYTES));

    assertError(app.postEvent(KEY_A, event), 413, "payload_too_large");
    assertThat(app.count("events")).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"text/plain", "application/x-www-form-urlencoded", "none"})
  @DisplayName("a content type other than JSON gets 415 and nothing is stored")
  void notJsonContentType(String type) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("x-api-key", KEY_A);
    if (!type.equals("none")) {
      headers.add("Content-Type", type);
    }

    assertError(app.post("/api/v1/events/custom", headers, specExample().toBuffer()), 415, "unsupported_media_type");
    assertThat(app.count("events")).isZero();
  }

  @Test
  @DisplayName("application/json with a charset parameter is JSON")
  void jsonWithCharset() {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("x-api-key", KEY_A)
        .add("Content-Type", "Application/JSON; charset=utf-8");

    assertThat(app.post("/api/v1/events/custom", headers, specExample().toBuffer()).statusCode()).isEqualTo(200);
  }

  // --- 429 ---

  @Test
  @DisplayName("over the workspace's rate limit the request gets 429 with Retry-After, and only the admitted are stored")
  void rateLimited() {
    JsonObject event = minimal("REG").put("workspace_id", WS_LIMITED);

    assertThat(app.postEvent(KEY_LIMITED, event).statusCode()).isEqualTo(200);
    assertThat(app.postEvent(KEY_LIMITED, event).statusCode()).isEqualTo(200);
    HttpResponse<Buffer> limited = app.postEvent(KEY_LIMITED, event);

    assertError(limited, 429, "rate_limited");
    assertThat(Long.parseLong(limited.getHeader("Retry-After"))).isBetween(1L, 100L);
    assertThat(app.count("events")).isEqualTo(2);
    // Another workspace has its own bucket.
    assertThat(app.postEvent(KEY_A, specExample()).statusCode()).isEqualTo(200);
  }

  // --- idempotency ---

  private HttpResponse<Buffer> postWithKey(String apiKey, String idempotencyKey, JsonObject event) {
    return app.post("/api/v1/events/custom", TestApp.jsonHeaders(apiKey).add("Idempotency-Key", idempotencyKey),
        event.toBuffer());
  }

  @Test
  @DisplayName("repeating a request with its Idempotency-Key returns the original answer, marked replayed, and stores nothing new")
  void idempotentReplay() {
    HttpResponse<Buffer> first = postWithKey(KEY_A, "order-1", specExample());
    HttpResponse<Buffer> second = postWithKey(KEY_A, "order-1", specExample());

    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.getHeader("Idempotent-Replayed")).isNull();
    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(second.getHeader("Idempotent-Replayed")).isEqualTo("true");
    assertThat(second.bodyAsJsonObject()).isEqualTo(first.bodyAsJsonObject());
    assertThat(app.count("events")).isEqualTo(1);
  }

  @Test
  @DisplayName("the same content spelled differently (key order, currency case, 50 vs 50.0) is a replay, not a conflict")
  void equivalentBodyIsReplay() {
    JsonObject respelled = new JsonObject()
        .put("user_data", specExample().getJsonObject("user_data"))
        .put("currency", "USD").put("value", 50.0).put("session_id", "abc123")
        .put("workspace_id", WS_A).put("telegram_id", 123456789).put("event_name", "FTD");

    String first = postWithKey(KEY_A, "order-2", specExample()).bodyAsJsonObject().getJsonObject("data")
        .getString("event_id");
    HttpResponse<Buffer> second = postWithKey(KEY_A, "order-2", respelled);

    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(second.bodyAsJsonObject().getJsonObject("data").getString("event_id")).isEqualTo(first);
    assertThat(app.count("events")).isEqualTo(1);
  }

  @Test
  @DisplayName("the same Idempotency-Key with a different body gets 409 and stores nothing new")
  void idempotencyConflict() {
    assertThat(postWithKey(KEY_A, "order-3", specExample()).statusCode()).isEqualTo(200);

    HttpResponse<Buffer> conflict = postWithKey(KEY_A, "order-3", specExample().put("value", 51));

    assertError(conflict, 409, "idempotency_conflict");
    assertThat(app.count("events")).isEqualTo(1);
  }

  @Test
  @DisplayName("Idempotency-Keys are per workspace: the same key in another workspace stores another event")
  void idempotencyKeyPerWorkspace() {
    String a = postWithKey(KEY_A, "shared-key", specExample()).bodyAsJsonObject().getJsonObject("data")
        .getString("event_id");
    HttpResponse<Buffer> b = postWithKey(KEY_B, "shared-key", specExample().put("workspace_id", WS_B));

    assertThat(b.statusCode()).isEqualTo(200);
    assertThat(b.getHeader("Idempotent-Replayed")).isNull();
    assertThat(b.bodyAsJsonObject().getJsonObject("data").getString("event_id")).isNotEqualTo(a);
    assertThat(app.count("events")).isEqualTo(2);
  }

  @Test
  @DisplayName("an Idempotency-Key older than 24 hours no longer counts: the request stores a new event")
  void idempotencyKeyExpires() {
    String first = postWithKey(KEY_A, "old-key", specExample()).bodyAsJsonObject().getJsonObject("data")
        .getString("event_id");
    app.rows("UPDATE idempotency_keys SET created_at = now() - interval '25 hours'");

    HttpResponse<Buffer> again = postWithKey(KEY_A, "old-key", specExample().put("value", 99));

    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(again.getHeader("Idempotent-Replayed")).isNull();
    assertThat(again.bodyAsJsonObject().getJsonObject("data").getString("event_id")).isNotEqualTo(first);
    assertThat(app.count("events")).isEqualTo(2);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "tab\tinside", "caf\u00e9-latin1"})
  @DisplayName("an Idempotency-Key that is empty, too long or not printable ASCII is refused with validation_failed")
  void badIdempotencyKey(String key) {
    MultiMap headers = TestApp.jsonHeaders(KEY_A).add("Idempotency-Key", key);

    JsonObject error = assertError(app.post("/api/v1/events/custom", headers, specExample().toBuffer()), 400,
        "validation_failed");
    assertThat(error.getJsonArray("details").getJsonObject(0).getString("field")).isEqualTo("Idempotency-Key");
    assertThat(app.count("events")).isZero();
  }

  @Test
  @DisplayName("a 256-character Idempotency-Key is refused, a 255-character one accepted")
  void idempotencyKeyLength() {
    assertError(postWithKey(KEY_A, "k".repeat(256), specExample()), 400, "validation_failed");
    assertThat(postWithKey(KEY_A, "k".repeat(255), specExample()).statusCode()).isEqualTo(200);
    assertThat(app.count("events")).isEqualTo(1);
  }

  @Test
  @DisplayName("concurrent requests racing with one Idempotency-Key all get the same 200 and one event is stored")
  void concurrentDuplicates() {
    List<Future<HttpResponse<Buffer>>> responses = app.postConcurrently(40,
        i -> TestApp.jsonHeaders(KEY_A).add("Idempotency-Key", "race-1"), i -> specExample());

    Set<String> eventIds = new HashSet<>();
    long fresh = 0;
    for (Future<HttpResponse<Buffer>> f : responses) {
      assertThat(f.result().statusCode()).isEqualTo(200);
      eventIds.add(f.result().bodyAsJsonObject().getJsonObject("data").getString("event_id"));
      fresh += f.result().getHeader("Idempotent-Replayed") == null ? 1 : 0;
    }
    assertThat(eventIds).hasSize(1);
    assertThat(fresh).isEqualTo(1);
    assertThat(app.count("events")).isEqualTo(1);
    assertThat(app.count("idempotency_keys")).isEqualTo(1);
  }

  @Test
  @DisplayName("many concurrent events are each stored once under their own id")
  void concurrentDistinctEvents() {
    int events = 300;
    List<Future<HttpResponse<Buffer>>> responses = app.postConcurrently(events,
        i -> TestApp.jsonHeaders(KEY_A), i -> minimal("REG").put("telegram_id", i + 1));

    Set<String> eventIds = new HashSet<>();
    responses.forEach(f -> {
      assertThat(f.result().statusCode()).isEqualTo(200);
      eventIds.add(f.result().bodyAsJsonObject().getJsonObject("data").getString("event_id"));
    });
    assertThat(eventIds).hasSize(events);
    assertThat(app.rows("SELECT count(DISTINCT telegram_id) FROM events").get(0).getLong(0)).isEqualTo(events);
  }

  @Test
  @DisplayName("liveness and readiness answer without a key; ready shows each check with its detail")
  void health() {
    assertThat(app.client().get(app.port(), "127.0.0.1", "/health/live").send().await().statusCode())
        .isEqualTo(200);
    HttpResponse<Buffer> response = app.management("/health/ready");

    assertThat(response.statusCode()).isEqualTo(200);
    JsonObject ready = response.bodyAsJsonObject();
    assertThat(ready.getString("status")).isEqualTo("UP");
    Map<String, JsonObject> checks = ready.getJsonArray("checks").stream().map(c -> (JsonObject) c)
        .collect(Collectors.toMap(c -> c.getString("id"), c -> c));
    assertThat(checks.keySet()).containsExactlyInAnyOrder("database", "migrations", "config", "integrations");
    assertThat(checks.values()).allSatisfy(c -> assertThat(c.getString("status")).isEqualTo("UP"));
    assertThat(checks.get("migrations").getJsonObject("data").getString("version"))
        .isEqualTo(app.router().database().schemaVersion()).isNotBlank();
    assertThat(checks.get("config").getJsonObject("data").getInteger("workspaces")).isEqualTo(3);
    assertThat(checks.get("integrations").getJsonObject("data").getJsonObject("breakers")).isNotNull();
  }
}
