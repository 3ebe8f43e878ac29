package dev.eventrouter.api.events;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.io.ContentReference;
import dev.eventrouter.api.sessions.SessionValidator;
import dev.eventrouter.config.EventMappingOverride;
import dev.eventrouter.config.RateLimitConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.ClickIds;
import dev.eventrouter.event.ClickSession;
import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.event.InviteSession;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.ErrorCode;
import dev.eventrouter.http.Fields;
import dev.eventrouter.http.JsonBody;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The request rules, called directly: every rule and its edge, without a server or a database. */
class ValidationUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final WorkspaceConfig WORKSPACE = new WorkspaceConfig(WS, "w", List.of(), List.of(),
      RateLimitConfig.DEFAULT, null, 28, List.of(), Map.of("VIP", new EventMappingOverride(null, null, null, true)), null);
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

  private static JsonObject event() {
    return new JsonObject().put("event_name", "REG").put("telegram_id", 42).put("workspace_id", WS.toString());
  }

  private static Arguments bad(String field, String message, Consumer<JsonObject> change) {
    JsonObject body = event();
    change.accept(body);
    return Arguments.of(field, message, body);
  }

  static Stream<Arguments> invalidEvents() {
    return Stream.of(
        bad("event_name", "required", b -> b.remove("event_name")),
        bad("event_name", "1 to 50", b -> b.put("event_name", "")),
        bad("event_name", "1 to 50", b -> b.put("event_name", " REG")),
        bad("event_name", "1 to 50", b -> b.put("event_name", "REG ")),
        bad("event_name", "1 to 50", b -> b.put("event_name", "x".repeat(51))),
        bad("event_name", "1 to 50", b -> b.put("event_name", "Réservation")),
        bad("event_name", "1 to 50", b -> b.put("event_name", 5)),
        bad("telegram_id", "required", b -> b.remove("telegram_id")),
        bad("telegram_id", "JSON integer", b -> b.put("telegram_id", 0)),
        bad("telegram_id", "JSON integer", b -> b.put("telegram_id", -1L)),
        bad("telegram_id", "JSON integer", b -> b.put("telegram_id", "42")),
        bad("telegram_id", "JSON integer", b -> b.put("telegram_id", 4.2)),
        bad("telegram_id", "JSON integer", b -> b.put("telegram_id", new BigInteger("9223372036854775808"))),
        bad("workspace_id", "required", b -> b.remove("workspace_id")),
        bad("workspace_id", "UUID", b -> b.put("workspace_id", "7c9e6679-7425-40de-944b")),
        bad("session_id", "1 to 64", b -> b.put("session_id", "a b")),
        bad("session_id", "1 to 64", b -> b.put("session_id", "s".repeat(65))),
        bad("value", "required for FTD", b -> b.put("event_name", "FTD")),
        bad("value", "required for VIP", b -> b.put("event_name", "VIP")),
        bad("value", "finite number", b -> b.put("value", -0.01)),
        bad("value", "finite number", b -> b.put("value", Double.POSITIVE_INFINITY)),
        bad("value", "finite number", b -> b.put("value", "50")),
        bad("value", "at most 1000000000", b -> b.put("value", new BigDecimal("1000000000.01"))),
        bad("value", "at most 1000000000", b -> b.put("value", 1_000_000_001L)),
        bad("value", "at most 1000000000", b -> b.put("value", 1e300)),
        bad("value", "at most 1000000000", b -> b.put("value", new BigInteger("123456789012345678901234567890"))),
        bad("currency", "ISO 4217", b -> b.put("currency", "XYZ")),
        bad("currency", "ISO 4217", b -> b.put("currency", "EURO")),
        bad("currency", "ISO 4217", b -> b.put("currency", 978)),
        bad("user_data", "JSON object", b -> b.put("user_data", "x")),
        bad("user_data", "keys must not be empty", b -> b.put("user_data", new JsonObject().put("", "x"))),
        bad("user_data.email", "string, number or boolean",
            b -> b.put("user_data", new JsonObject().put("email", new JsonArray().add("a")))),
        bad("user_data", "at most 50 keys", b -> b.put("user_data", manyKeys(51))),
        bad("user_data", "at most 4096 bytes", b -> b.put("user_data", new JsonObject().put("k", "x".repeat(4100)))),
        bad("emial", "unknown field", b -> b.put("emial", "a@b.c")),
        bad("user_data.email", "string, number or boolean", b -> b.put("user_data", new JsonObject()
            .putNull("email"))),
        bad("user_data", "at most 4096 bytes", b -> b.put("user_data", sized(4097))),
        bad("value", "finite number", b -> b.put("value", Float.NaN)),
        bad("value", "finite number", b -> b.put("value", true)),
        bad("currency", "ISO 4217", b -> b.put("currency", "us$")),
        bad("limited_data_use", "true or false", b -> b.put("limited_data_use", "yes")),
        bad("limited_data_use", "true or false", b -> b.put("limited_data_use", 1)),
        bad("conversion_status", "pending, approved, rejected, chargeback", b -> b.put("conversion_status", "paid")),
        bad("conversion_status", "pending, approved, rejected, chargeback", b -> b.put("conversion_status", 1)),
        bad("transaction_id", "1 to 200 visible ASCII", b -> b.put("transaction_id", "has space")),
        bad("transaction_id", "1 to 200 visible ASCII", b -> b.put("transaction_id", "")),
        bad("transaction_id", "1 to 200 visible ASCII", b -> b.put("transaction_id", "x".repeat(201))),
        bad("transaction_id", "1 to 200 visible ASCII", b -> b.put("transaction_id", 7)));
  }

  /** user_data that encodes to exactly this many bytes of JSON. */
  private static JsonObject sized(int bytes) {
    JsonObject data = new JsonObject().put("k", "");
    return data.put("k", "x".repeat(bytes - data.encode().length()));
  }

  @Test
  @DisplayName("each number type a JSON object can hold is a value; user_data at its limits is accepted")
  void valueTypesAndLimits() {
    assertThat(EventValidator.validate(event().put("value", new BigDecimal("12.345")), WORKSPACE).value())
        .isEqualTo(new BigDecimal("12.345"));
    assertThat(EventValidator.validate(event().put("value", 1.5f), WORKSPACE).value()).isEqualTo(new BigDecimal("1.5"));
    assertThat(EventValidator.validate(event().put("value", 7), WORKSPACE).value()).isEqualTo(BigDecimal.valueOf(7));
    assertThat(EventValidator.validate(event().put("telegram_id", 5_000_000_000L), WORKSPACE).telegramId())
        .isEqualTo(5_000_000_000L);
    JsonObject mixed = new JsonObject().put("s", "a").put("n", 1.5).put("b", true);
    assertThat(EventValidator.validate(event().put("user_data", mixed), WORKSPACE).userData()).isEqualTo(mixed);
    assertThat(EventValidator.validate(event().put("user_data", sized(4096)), WORKSPACE).userData().encode())
        .hasSize(4096);
    assertThat(EventValidator.validate(event().put("limited_data_use", true), WORKSPACE).limitedDataUse()).isTrue();
    assertThat(EventValidator.validate(event().put("limited_data_use", false), WORKSPACE).limitedDataUse())
        .isFalse();
    assertThat(EventValidator.validate(event().putNull("limited_data_use"), WORKSPACE).limitedDataUse()).isNull();
    ConversionEvent pending = EventValidator.validate(event().put("conversion_status", "pending")
        .put("transaction_id", "T-" + "x".repeat(198)), WORKSPACE);
    assertThat(pending.conversionStatus()).isEqualTo("pending");
    assertThat(pending.status()).isEqualTo("pending");
    assertThat(pending.transactionId()).hasSize(200);
    ConversionEvent plain = EventValidator.validate(event().putNull("conversion_status").putNull("transaction_id"),
        WORKSPACE);
    assertThat(plain.conversionStatus()).isNull();
    assertThat(plain.status()).as("no status is approved").isEqualTo("approved");
    assertThat(plain.transactionId()).isNull();
    assertThat(EventValidator.validate(event(), WORKSPACE).limitedDataUse()).isNull();
  }

  @Test
  @DisplayName("user_data with an empty key is reported once, for the key, not also for its size")
  void oneUserDataProblemAtATime() {
    JsonObject body = event().put("user_data", new JsonObject().put("", "x".repeat(5000)));
    assertThatThrownBy(() -> EventValidator.validate(body, WORKSPACE)).isInstanceOfSatisfying(ApiException.class,
        e -> assertThat(e.toJson().getJsonObject("error").getJsonArray("details")).containsExactly(
            new JsonObject().put("field", "user_data").put("message", "keys must not be empty")));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("invalidEvents")
  @DisplayName("each event rule refuses its bad values, naming the field")
  void invalidEvent(String field, String message, JsonObject body) {
    assertThatThrownBy(() -> EventValidator.validate(body, WORKSPACE))
        .isInstanceOfSatisfying(ApiException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_FAILED);
          JsonArray details = e.toJson().getJsonObject("error").getJsonArray("details");
          assertThat(details.stream().map(d -> (JsonObject) d)
              .filter(d -> d.getString("field").equals(field) && d.getString("message").contains(message)))
              .as(details.encode()).isNotEmpty();
        });
  }

  @Test
  @DisplayName("a valid event keeps its values: whole numbers exact, currency upper-cased, USD by default")
  void validEvent() {
    ConversionEvent plain = EventValidator.validate(event(), WORKSPACE);
    assertThat(plain.currency()).isEqualTo("USD");
    assertThat(plain.value()).isNull();
    assertThat(plain.userData()).isNull();
    ConversionEvent big = EventValidator.validate(event().put("event_name", "FTD").put("value", 1_000_000_000L)
        .put("currency", "eur").put("session_id", "abc_1-2").put("user_data", manyKeys(50)), WORKSPACE);
    assertThat(big.value()).isEqualTo(new BigDecimal("1000000000"));
    assertThat(big.currency()).isEqualTo("EUR");
    assertThat(big.sessionId()).isEqualTo("abc_1-2");
    assertThat(big.telegramId()).isEqualTo(42);
    assertThat(EventValidator.validate(event().put("value", new BigInteger("1000000000")), WORKSPACE)
        .value()).isEqualTo(new BigDecimal("1000000000"));
    assertThat(EventValidator.validate(event().put("value", new BigDecimal("999999999.999")), WORKSPACE)
        .value()).isEqualTo(new BigDecimal("999999999.999"));
    assertThat(EventValidator.validate(event().put("value", 1e9), WORKSPACE).value().compareTo(
        EventValidator.MAX_VALUE)).isZero();
    assertThat(EventValidator.validate(event().put("value", 0).put("event_name", "Level Up"), WORKSPACE).value())
        .isEqualTo(BigDecimal.ZERO);
    assertThat(EventValidator.validate(event().put("event_name", "x".repeat(50)), WORKSPACE).eventName()).hasSize(50);
  }

  @Test
  @DisplayName("the content hash covers every field that makes the event, user_data included, and not key order")
  void contentHash() {
    ConversionEvent base = EventValidator.validate(event().put("user_data", new JsonObject().put("a", 1).put("b", 2)),
        WORKSPACE);
    ConversionEvent reordered = EventValidator.validate(new JsonObject().put("workspace_id", WS.toString())
        .put("user_data", new JsonObject().put("b", 2).put("a", 1)).put("telegram_id", 42).put("event_name", "REG"),
        WORKSPACE);
    assertThat(reordered.contentHash()).isEqualTo(base.contentHash());
    assertThat(EventValidator.validate(event().put("user_data", new JsonObject().put("a", 1).put("b", 3)), WORKSPACE)
        .contentHash()).isNotEqualTo(base.contentHash());
    assertThat(EventValidator.validate(event(), WORKSPACE).contentHash()).isNotEqualTo(base.contentHash());
    assertThat(EventValidator.validate(event().put("value", 10).put("currency", "usd"), WORKSPACE).contentHash())
        .isEqualTo(EventValidator.validate(event().put("value", 10.0).put("currency", "USD"), WORKSPACE).contentHash());
  }

  static Stream<Arguments> invalidClicks() {
    JsonObject ok = new JsonObject().put("workspace_id", WS.toString());
    return Stream.of(
        Arguments.of("landing_url", ok.copy().put("landing_url", "https://x.example/" + "p".repeat(2048))),
        Arguments.of("landing_url", ok.copy().put("landing_url", "http://x.example/"
            + "p".repeat(1025 - "http://x.example/".length()))),
        Arguments.of("user_agent", ok.copy().put("user_agent", "u".repeat(513))),
        Arguments.of("landing_url", ok.copy().put("landing_url", "ftp://x.example/")),
        Arguments.of("landing_url", ok.copy().put("landing_url", "https:///nohost")),
        Arguments.of("landing_url", ok.copy().put("landing_url", "not a url")),
        Arguments.of("landing_url", ok.copy().put("landing_url", "https://x.example/?a=\u0000")),
        Arguments.of("clicked_at", ok.copy().put("clicked_at", "1999-12-31T23:59:59Z")),
        Arguments.of("clicked_at", ok.copy().put("clicked_at", NOW.plusSeconds(11 * 60).toString())),
        Arguments.of("clicked_at", ok.copy().put("clicked_at", "yesterday")),
        Arguments.of("clicked_at", ok.copy().put("clicked_at", true)),
        Arguments.of("client_ip", ok.copy().put("client_ip", "example.com")),
        Arguments.of("client_ip", ok.copy().put("client_ip", "256.1.1.1")),
        Arguments.of("fbc", ok.copy().put("fbc", "fb.1.abc.IwAR")),
        Arguments.of("fbp", ok.copy().put("fbp", "fb.1.123")),
        Arguments.of("fbclid", ok.copy().put("fbclid", "has space")),
        Arguments.of("ttp", ok.copy().put("ttp", "t".repeat(201))),
        Arguments.of("gclid", ok.copy().put("gclid", "g".repeat(501))),
        Arguments.of("gbraid", ok.copy().put("gbraid", "has space")),
        Arguments.of("wbraid", ok.copy().put("wbraid", 7)),
        Arguments.of("sccid", ok.copy().put("sccid", "")),
        Arguments.of("ScCid", ok.copy().put("ScCid", "s\u0000c")),
        Arguments.of("scid", ok.copy().put("scid", "s".repeat(201))),
        Arguments.of("user_agent", ok.copy().put("user_agent", "ua\n")),
        Arguments.of("workspace_id", new JsonObject()),
        Arguments.of("bot", ok.copy().put("bot", "abcd")),
        Arguments.of("bot", ok.copy().put("bot", "a".repeat(33))),
        Arguments.of("bot", ok.copy().put("bot", "bad-bot")),
        Arguments.of("channel", ok.copy().put("channel", "chan")),
        Arguments.of("channel", ok.copy().put("channel", "@abcd")),
        Arguments.of("channel", ok.copy().put("channel", "1".repeat(21))),
        Arguments.of("country", ok.copy().put("country", "XX")),
        Arguments.of("country", ok.copy().put("country", "DEU")),
        Arguments.of("country", ok.copy().put("country", 49)));
  }

  @Test
  @DisplayName("a non-ISO unit the workspace maps (any case) is stored as its ISO code; without the alias refused")
  void currencyAliases() {
    WorkspaceConfig aliased = new WorkspaceConfig(WS, "w", List.of(), List.of(), RateLimitConfig.DEFAULT, null, 28,
        List.of(), Map.of(), null, List.of(), 7, new dev.eventrouter.config.ReportConfig("USD",
            Map.of("USDT", "USD", "EURC", "EUR"), List.of()));
    assertThat(EventValidator.validate(event().put("currency", "usdt"), aliased).currency()).isEqualTo("USD");
    assertThat(EventValidator.validate(event().put("currency", "EURC"), aliased).currency()).isEqualTo("EUR");
    assertThat(EventValidator.validate(event().put("currency", "gbp"), aliased).currency()).isEqualTo("GBP");
    assertThatThrownBy(() -> EventValidator.validate(event().put("currency", "USDT"), WORKSPACE))
        .isInstanceOf(ApiException.class);
  }

  @Test
  @DisplayName("a click's bot (its @ dropped), channel and country (upper case) are its origin")
  void clickOrigin() {
    ClickSession click = SessionValidator.click(new JsonObject().put("workspace_id", WS.toString())
        .put("bot", "@" + "b".repeat(32)).put("channel", "-1001234567890").put("country", "de"), NOW);
    assertThat(click.origin()).isEqualTo(new ClickSession.Origin(null, "b".repeat(32), "-1001234567890", "DE"));
    assertThat(SessionValidator.click(new JsonObject().put("workspace_id", WS.toString()).put("bot", "bot_5")
        .put("channel", "@" + "c".repeat(32)), NOW).origin())
        .isEqualTo(new ClickSession.Origin(null, "bot_5", "@" + "c".repeat(32), null));
    assertThat(SessionValidator.click(new JsonObject().put("workspace_id", WS.toString()), NOW).origin())
        .isEqualTo(ClickSession.Origin.NONE);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("invalidClicks")
  @DisplayName("each click-session rule refuses its bad values, naming the field")
  void invalidClick(String field, JsonObject body) {
    assertThatThrownBy(() -> SessionValidator.click(body, NOW)).isInstanceOfSatisfying(ApiException.class,
        e -> assertThat(e.toJson().getJsonObject("error").getJsonArray("details").getJsonObject(0).getString("field"))
            .isEqualTo(field));
  }

  @Test
  @DisplayName("a click session: plain http is a URL too, the edges of the time window are inside, an id is made")
  void validClick() {
    ClickSession click = SessionValidator.click(new JsonObject().put("workspace_id", WS.toString())
        .put("landing_url", "http://x.example/" + "p".repeat(1024 - "http://x.example/".length()))
        .put("user_agent", "u".repeat(512))
        .put("clicked_at", "2000-01-01T00:00:00Z").put("client_ip", "2001:db8::1"), NOW);
    assertThat(click.landingUrl()).hasSize(1024).startsWith("http://");
    String macros = "https://x.example/?campaignid={campaignid}&c=SMs|{{ad.id}}&p=100%";
    assertThat(SessionValidator.click(new JsonObject().put("workspace_id", WS.toString()).put("landing_url", macros),
        NOW).landingUrl()).as("as a browser writes it, kept as given").isEqualTo(macros);
    assertThat(click.userAgent()).hasSize(512);
    assertThat(click.clickedAt()).isEqualTo(Instant.parse("2000-01-01T00:00:00Z"));
    assertThat(click.sessionId()).matches("[A-Za-z0-9_-]{22}");
    assertThat(SessionValidator.click(new JsonObject().put("workspace_id", WS.toString())
        .put("clicked_at", NOW.plusSeconds(600).toEpochMilli()), NOW).clickedAt()).isEqualTo(NOW.plusSeconds(600));
    assertThat(SessionValidator.click(new JsonObject().put("workspace_id", WS.toString()), NOW).clickedAt())
        .isEqualTo(NOW);
    assertThat(SessionValidator.newSessionId()).isNotEqualTo(SessionValidator.newSessionId());
    // Meta documents _fbc as four dot-separated parts, but newer cookies can carry more: kept as given, not refused
    // (https://developers.facebook.com/documentation/ads-commerce/conversions-api/parameters/fbp-and-fbc).
    String newer = "fb.1.1554763741205.IwAR2AbCdEf.AQ";
    assertThat(SessionValidator.click(new JsonObject().put("workspace_id", WS.toString()).put("fbc", newer), NOW)
        .fbc()).isEqualTo(newer);
  }

  @Test
  @DisplayName("Google's and Snapchat's ids at their longest; Snapchat's as sccid or ScCid, sccid first")
  void clickIds() {
    JsonObject body = new JsonObject().put("workspace_id", WS.toString()).put("gclid", "g".repeat(500))
        .put("gbraid", "b").put("wbraid", "w").put("ScCid", "c".repeat(500)).put("scid", "s".repeat(200));
    assertThat(SessionValidator.click(body, NOW).ids())
        .isEqualTo(new ClickIds("g".repeat(500), "b", "w", "c".repeat(500), "s".repeat(200)));
    assertThat(SessionValidator.click(body.put("sccid", "lower"), NOW).ids().sccid()).isEqualTo("lower");
    assertThat(SessionValidator.click(new JsonObject().put("workspace_id", WS.toString()), NOW).ids())
        .isEqualTo(ClickIds.NONE);
  }

  @Test
  @DisplayName("an invite needs its telegram_id and session_id; its link is optional")
  void invite() {
    InviteSession invite = SessionValidator.invite(new JsonObject().put("workspace_id", WS.toString())
        .put("telegram_id", 5).put("session_id", "s1"));
    assertThat(invite.inviteLink()).isNull();
    assertThatThrownBy(() -> SessionValidator.invite(new JsonObject().put("workspace_id", WS.toString())
        .put("telegram_id", 5))).isInstanceOf(ApiException.class).hasMessageContaining("invalid fields");
  }

  @Test
  @DisplayName("the body reader: an object only, UTF-8 only, keys once, no NUL or lone surrogate")
  void jsonBody() {
    assertThat(JsonBody.parse(Buffer.buffer("{\"a\":1}"))).isEqualTo(new JsonObject().put("a", 1));
    assertThat(JsonBody.parse(Buffer.buffer("{\"a\":\"\uD83D\uDE00\"}")).getString("a")).isEqualTo("\uD83D\uDE00");
    for (String notAnObject : new String[] {"", "[]", "1", "\"x\"", "null", "{", "{\"a\":1} x"}) {
      assertThatThrownBy(() -> JsonBody.parse(Buffer.buffer(notAnObject))).as(notAnObject)
          .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_JSON));
    }
    assertThatThrownBy(() -> JsonBody.parse(null))
        .hasMessage("The request body is empty; it must be a JSON object.");
    assertThatThrownBy(() -> JsonBody.parse(Buffer.buffer("{\"a\":1,\n\"b\" 2}")))
        .hasMessageContaining("line 2, column");
    assertThat(JsonBody.storable("ok \uD83D\uDE00")).isTrue();
    assertThat(JsonBody.storable("a\u0000")).isFalse();
    assertThat(JsonBody.storable("\uD800")).isFalse();
    assertThat(JsonBody.storable("\uDC00x")).isFalse();
    assertThat(JsonBody.storable("x\uD800y")).isFalse();
  }

  @Test
  @DisplayName("the body reader names what is wrong: bad UTF-8, the repeated key, the path of a NUL or lone surrogate")
  void jsonBodyMessages() {
    byte[] overlong = {'{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0x80, '"', '}'};
    assertThatThrownBy(() -> JsonBody.parse(Buffer.buffer(overlong))).isInstanceOfSatisfying(ApiException.class,
        e -> assertThat(e.getMessage()).isEqualTo("The request body is not valid UTF-8."));
    assertThatThrownBy(() -> JsonBody.parse(Buffer.buffer("{\"a\":{\"b\":1,\"b\":2}}")))
        .hasMessage("The request body has the key \"b\" more than once.");
    assertThatThrownBy(() -> JsonBody.parse(Buffer.buffer("{\"a\":[1,{\"k\":\"x\\u0000\"}],\"b\\u0000c\":\"\\ud800\"}")))
        .isInstanceOfSatisfying(ApiException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_FAILED);
          JsonArray details = e.toJson().getJsonObject("error").getJsonArray("details");
          assertThat(details.stream().map(d -> ((JsonObject) d).getString("field")))
              .containsExactlyInAnyOrder("a[1].k", "b\\u0000c", "b\\u0000c");
          assertThat(details.stream().map(d -> ((JsonObject) d).getString("message")))
              .contains("key must not contain U+0000 or an unpaired surrogate",
                  "must not contain U+0000 or an unpaired surrogate");
        });
    assertThat(JsonBody.parse(Buffer.buffer("{\"list\":[\"ok\",1,true,null,{\"n\":[]}]}")).getJsonArray("list"))
        .hasSize(5);
    assertThatThrownBy(() -> JsonBody.parse(Buffer.buffer("{\"k\\ud800\":1}"))).isInstanceOfSatisfying(
        ApiException.class, e -> assertThat(e.toJson().getJsonObject("error").getJsonArray("details").getJsonObject(0)
            .getString("field")).isEqualTo("k\\ud800"));
    assertThatThrownBy(() -> JsonBody.parse(Buffer.buffer("")))
        .hasMessage("The request body is empty; it must be a JSON object.");
  }

  @Test
  @DisplayName("a parse failure is described by its place when the parser knows it, else plainly")
  void parseFailureDescriptions() {
    assertThat(JsonBody.describe(new DecodeException("Failed to decode")))
        .isEqualTo("The request body is not valid JSON.");
    assertThat(JsonBody.describe(new DecodeException("Failed to decode",
        new JsonParseException(null, "Unexpected character")))).isEqualTo("The request body is not valid JSON.");
    assertThat(JsonBody.describe(new DecodeException("Failed to decode", new JsonParseException(null,
        "Unexpected character", new JsonLocation(ContentReference.unknown(), 10, 2, 7))))).isEqualTo(
        "The request body is not valid JSON (line 2, column 7).");
  }

  @Test
  @DisplayName("each optional field reader returns the value it accepted, and null when absent")
  void fieldReaders() {
    JsonObject body = new JsonObject().put("ip", "203.0.113.7").put("ip6", "::1").put("url", "https://a.example/x")
        .put("tok", "abc").put("session_id", "s_1").put("at", "2026-01-31T12:00:00Z").put("ms", 1_000_000_000_000L);
    Fields fields = new Fields(body, body.fieldNames());
    assertThat(fields.ipAddress("ip")).isEqualTo("203.0.113.7");
    assertThat(fields.ipAddress("ip6")).isEqualTo("::1");
    assertThat(fields.ipAddress("none")).isNull();
    assertThat(fields.url("url", 100)).isEqualTo("https://a.example/x");
    assertThat(fields.url("none", 100)).isNull();
    assertThat(fields.optional("tok", java.util.regex.Pattern.compile("[a-z]+"), "letters")).isEqualTo("abc");
    assertThat(fields.optional("none", java.util.regex.Pattern.compile("[a-z]+"), "letters")).isNull();
    assertThat(fields.sessionId(true)).isEqualTo("s_1");
    assertThat(fields.instant("at", Instant.EPOCH, NOW)).isEqualTo(Instant.parse("2026-01-31T12:00:00Z"));
    assertThat(fields.instant("ms", Instant.EPOCH, NOW)).isEqualTo(Instant.ofEpochMilli(1_000_000_000_000L));
    assertThat(fields.instant("none", Instant.EPOCH, NOW)).isNull();
    fields.throwIfInvalid();
    Fields missing = new Fields(new JsonObject(), java.util.Set.of());
    assertThat(missing.sessionId(true)).isNull();
    assertThatThrownBy(missing::throwIfInvalid).isInstanceOfSatisfying(ApiException.class, e -> assertThat(
        e.toJson().getJsonObject("error").getJsonArray("details").getJsonObject(0))
        .isEqualTo(new JsonObject().put("field", "session_id").put("message", "required")));
    Fields wrong = new Fields(new JsonObject().put("url", "https://a.example/" + "x".repeat(100)), java.util.Set.of("url"));
    assertThat(wrong.url("url", 50)).isNull();
    assertThatThrownBy(wrong::throwIfInvalid).hasMessageContaining("invalid fields");
  }

  @Test
  @DisplayName("each field reader refuses a value of the wrong JSON type, naming the field, and returns null")
  void fieldReadersRefuseWrongTypes() {
    JsonObject body = new JsonObject().put("ip", 5).put("ip_host", "example.com").put("url", 5).put("tok", 5)
        .put("tok_bad", "ABC").put("at", true).put("small_ms", 1_000);
    Fields fields = new Fields(body, body.fieldNames());
    assertThat(fields.ipAddress("ip")).isNull();
    assertThat(fields.ipAddress("ip_host")).isNull();
    assertThat(fields.url("url", 100)).isNull();
    java.util.regex.Pattern letters = java.util.regex.Pattern.compile("[a-z]+");
    assertThat(fields.optional("tok", letters, "letters")).isNull();
    assertThat(fields.optional("tok_bad", letters, "letters")).isNull();
    assertThat(fields.instant("at", Instant.EPOCH, NOW)).isNull();
    assertThat(fields.instant("small_ms", Instant.EPOCH, NOW)).as("an int of milliseconds")
        .isEqualTo(Instant.ofEpochMilli(1_000));
    assertThatThrownBy(fields::throwIfInvalid).isInstanceOfSatisfying(ApiException.class, e -> assertThat(
        e.toJson().getJsonObject("error").getJsonArray("details").stream().map(d -> ((JsonObject) d).getString("field")))
        .containsExactly("ip", "ip_host", "url", "tok", "tok_bad", "at"));
  }

  @Test
  @DisplayName("every error code maps from its status; unknown 4xx are bad_request, 5xx internal_error")
  void errorCodes() {
    assertThat(ErrorCode.forStatus(404)).isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(ErrorCode.forStatus(414)).isEqualTo(ErrorCode.URI_TOO_LONG);
    assertThat(ErrorCode.forStatus(431)).isEqualTo(ErrorCode.HEADERS_TOO_LARGE);
    assertThat(ErrorCode.forStatus(400)).isEqualTo(ErrorCode.BAD_REQUEST);
    assertThat(ErrorCode.forStatus(418)).isEqualTo(ErrorCode.BAD_REQUEST);
    assertThat(ErrorCode.forStatus(502)).isEqualTo(ErrorCode.INTERNAL_ERROR);
    assertThat(ErrorCode.forStatus(499)).isEqualTo(ErrorCode.BAD_REQUEST);
    assertThat(ErrorCode.forStatus(399)).isEqualTo(ErrorCode.INTERNAL_ERROR);
    assertThat(ErrorCode.forStatus(-1)).as("a thrown exception has no status").isEqualTo(ErrorCode.INTERNAL_ERROR);
    ApiException retry = ApiException.retryLater(ErrorCode.RATE_LIMITED, 3);
    assertThat(retry.retryAfterSeconds()).isEqualTo(3);
    assertThat(retry.toJson()).isEqualTo(new JsonObject().put("ok", false).put("error", new JsonObject()
        .put("code", "rate_limited").put("message", ErrorCode.RATE_LIMITED.defaultMessage)));
    assertThat(new ApiException(ErrorCode.NOT_FOUND).retryAfterSeconds()).isNull();
  }

  private static JsonObject manyKeys(int n) {
    JsonObject data = new JsonObject();
    for (int i = 0; i < n; i++) {
      data.put("k" + i, i);
    }
    return data;
  }
}
