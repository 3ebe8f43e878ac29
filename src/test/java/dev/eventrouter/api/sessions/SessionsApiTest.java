package dev.eventrouter.api.sessions;

import dev.eventrouter.support.ServiceTest;
import dev.eventrouter.support.TestApp;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.KEY_B;
import static dev.eventrouter.support.TestApp.KEY_LIMITED;
import static dev.eventrouter.support.TestApp.WS_A;
import static dev.eventrouter.support.TestApp.WS_B;
import static dev.eventrouter.support.TestApp.WS_LIMITED;
import static org.assertj.core.api.Assertions.assertThat;

class SessionsApiTest extends ServiceTest {

  private static final String SESSIONS = "/api/v1/sessions";
  private static final String INVITES = "/api/v1/sessions/invites";

  private static JsonObject fullClick() {
    return new JsonObject()
        .put("workspace_id", WS_A)
        .put("session_id", "s_full")
        .put("fbclid", "IwAR2AbCdEf")
        .put("fbp", "fb.1.1596403881668.1116446470")
        .put("ttclid", "E.C.P.CqgBxyz")
        .put("ttp", "2Sx7yT9uVw")
        .put("client_ip", "2001:db8::7")
        .put("user_agent", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)")
        .put("landing_url", "https://promo.example.com/offer?fbclid=IwAR2AbCdEf")
        .put("clicked_at", "2026-11-20T10:15:30Z");
  }

  private Row clickRow(String sessionId) {
    return app.rows("SELECT * FROM click_sessions WHERE session_id = $1", sessionId).get(0);
  }

  // --- POST /api/v1/sessions ---

  @Test
  @DisplayName("a click session is stored with every field and answered with its start link")
  void captureStoresEverything() {
    HttpResponse<Buffer> response = app.postJson(SESSIONS, KEY_A, fullClick());

    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    assertThat(response.bodyAsJsonObject().getJsonObject("data")).isEqualTo(new JsonObject()
        .put("session_id", "s_full").put("start_link", "https://t.me/" + TestApp.BOT_A + "?start=s_full"));
    Row row = clickRow("s_full");
    assertThat(row.getUUID("workspace_id")).isEqualTo(UUID.fromString(WS_A));
    for (String field : new String[] {"fbclid", "fbp", "ttclid", "ttp", "client_ip", "user_agent", "landing_url"}) {
      assertThat(row.getString(field)).as(field).isEqualTo(fullClick().getString(field));
    }
    assertThat(row.getString("fbc")).isNull();
    assertThat(row.getOffsetDateTime("clicked_at").toInstant()).isEqualTo(Instant.parse("2026-11-20T10:15:30Z"));
    assertThat(row.getValue("utm")).as("no utm_* in its URL").isNull();
  }

  @Test
  @DisplayName("click ids and UTM parameters are read from the landing URL when not given; the status shows them")
  void enrichedFromLandingUrl() {
    HttpResponse<Buffer> response = app.postJson(SESSIONS, KEY_A, new JsonObject().put("workspace_id", WS_A)
        .put("session_id", "s_utm").put("landing_url", "https://promo.example.com/o?ttclid=E.C.P.fromUrl"
            + "&utm_source=tiktok&utm_campaign=winter%202026&utm_content=a%26b"));
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    Row row = clickRow("s_utm");
    assertThat(row.getString("ttclid")).isEqualTo("E.C.P.fromUrl");
    assertThat(row.getString("fbclid")).isNull();
    assertThat(row.getString("client_ip")).as("a server's request: not the server's address").isNull();
    JsonObject utm = new JsonObject().put("utm_source", "tiktok").put("utm_campaign", "winter 2026")
        .put("utm_content", "a&b");
    assertThat((Object) row.getJson("utm")).isEqualTo(utm);

    app.postJson(SESSIONS, KEY_A, new JsonObject().put("workspace_id", WS_A).put("session_id", "s_utm")
        .put("landing_url", "https://promo.example.com/o?utm_source=other"));
    assertThat((Object) clickRow("s_utm").getJson("utm")).as("the first click's campaign kept").isEqualTo(utm);
    String eventId = app.postEvent(KEY_A, new JsonObject().put("workspace_id", WS_A).put("event_name", "REG")
        .put("telegram_id", 77).put("session_id", "s_utm")).bodyAsJsonObject().getJsonObject("data")
        .getString("event_id");
    JsonObject click = app.get("/api/v1/events/" + eventId, KEY_A).bodyAsJsonObject().getJsonObject("data")
        .getJsonObject("click");
    assertThat(click.getJsonObject("utm")).isEqualTo(utm);
    assertThat(click.getString("ttclid")).isEqualTo("E.C.P.fromUrl");
  }

  @Test
  @DisplayName("Google's and Snapchat's ids are stored from the body and the landing URL, and the status shows them")
  void googleAndSnapchatIds() {
    HttpResponse<Buffer> response = app.postJson(SESSIONS, KEY_A, new JsonObject().put("workspace_id", WS_A)
        .put("session_id", "s_gs").put("scid", "scid-cookie").put("ScCid", "snap-body")
        .put("landing_url", "https://promo.example.com/o?gclid=Cj0-url&wbraid=1BBB&ScCid=snap-url"));
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    Row row = clickRow("s_gs");
    assertThat(row.getString("gclid")).isEqualTo("Cj0-url");
    assertThat(row.getString("gbraid")).isNull();
    assertThat(row.getString("wbraid")).isEqualTo("1BBB");
    assertThat(row.getString("sccid")).as("the body's wins").isEqualTo("snap-body");
    assertThat(row.getString("scid")).isEqualTo("scid-cookie");
    String eventId = app.postEvent(KEY_A, new JsonObject().put("workspace_id", WS_A).put("event_name", "REG")
        .put("telegram_id", 78).put("session_id", "s_gs")).bodyAsJsonObject().getJsonObject("data")
        .getString("event_id");
    JsonObject click = app.get("/api/v1/events/" + eventId, KEY_A).bodyAsJsonObject().getJsonObject("data")
        .getJsonObject("click");
    assertThat(click.getString("gclid")).isEqualTo("Cj0-url");
    assertThat(click.getString("sccid")).isEqualTo("snap-body");
    assertThat(click.getString("scid")).isEqualTo("scid-cookie");
    assertThat(click.containsKey("gbraid")).isTrue();
    assertThat(app.postJson(SESSIONS, KEY_A, new JsonObject().put("workspace_id", WS_A).put("gclid", "has space"))
        .statusCode()).isEqualTo(400);
  }

  @Test
  @DisplayName("without session_id one is generated: unguessable, URL-safe, fit for a Telegram start link")
  void generatedSessionId() {
    JsonObject click = new JsonObject().put("workspace_id", WS_A).put("fbclid", "abc");

    String first = app.postJson(SESSIONS, KEY_A, click).bodyAsJsonObject().getJsonObject("data")
        .getString("session_id");
    String second = app.postJson(SESSIONS, KEY_A, click).bodyAsJsonObject().getJsonObject("data")
        .getString("session_id");

    assertThat(first).matches("[A-Za-z0-9_-]{22}");
    assertThat(second).matches("[A-Za-z0-9_-]{22}").isNotEqualTo(first);
    assertThat(app.count("click_sessions")).isEqualTo(2);
    assertThat(clickRow(first).getOffsetDateTime("clicked_at"))
        .isBetween(OffsetDateTime.now().minusMinutes(1), OffsetDateTime.now().plusMinutes(1));
  }

  @Test
  @DisplayName("a workspace without bot_name gets no start_link")
  void noBotNoStartLink() {
    HttpResponse<Buffer> response = app.postJson(SESSIONS, KEY_B, new JsonObject().put("workspace_id", WS_B));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.bodyAsJsonObject().getJsonObject("data").fieldNames()).containsExactly("session_id");
  }

  @Test
  @DisplayName("clicked_at may be epoch milliseconds")
  void clickedAtEpochMillis() {
    app.postJson(SESSIONS, KEY_A, new JsonObject().put("workspace_id", WS_A).put("session_id", "ms")
        .put("clicked_at", 1_763_600_000_000L));

    assertThat(clickRow("ms").getOffsetDateTime("clicked_at").toInstant())
        .isEqualTo(Instant.ofEpochMilli(1_763_600_000_000L));
  }

  @Test
  @DisplayName("posting a session again keeps the first clicked_at, fills empty fields, and changes nothing else")
  void repostIsSafe() {
    app.postJson(SESSIONS, KEY_A, new JsonObject().put("workspace_id", WS_A).put("session_id", "again")
        .put("fbclid", "first-fbclid").put("clicked_at", "2026-11-20T10:00:00Z"));

    HttpResponse<Buffer> second = app.postJson(SESSIONS, KEY_A, new JsonObject().put("workspace_id", WS_A)
        .put("session_id", "again").put("fbclid", "other-fbclid").put("ttclid", "E.C.P.new")
        .put("clicked_at", "2026-11-21T10:00:00Z"));

    assertThat(second.statusCode()).isEqualTo(200);
    Row row = clickRow("again");
    assertThat(row.getString("fbclid")).isEqualTo("first-fbclid");
    assertThat(row.getString("ttclid")).isEqualTo("E.C.P.new");
    assertThat(row.getOffsetDateTime("clicked_at").toInstant()).isEqualTo(Instant.parse("2026-11-20T10:00:00Z"));
    assertThat(app.count("click_sessions")).isEqualTo(1);
  }

  static Stream<Arguments> invalidClicks() {
    return Stream.of(
        bad("workspace_id", c -> c.remove("workspace_id")),
        bad("session_id", c -> c.put("session_id", "has space")),
        bad("session_id", c -> c.put("session_id", "x".repeat(65))),
        bad("fbclid", c -> c.put("fbclid", "with space")),
        bad("fbc", c -> c.put("fbc", "IwAR2AbCdEf")),
        bad("fbp", c -> c.put("fbp", "fb.1")),
        bad("ttclid", c -> c.put("ttclid", 12)),
        bad("client_ip", c -> c.put("client_ip", "999.1.1.1")),
        bad("client_ip", c -> c.put("client_ip", "localhost")),
        bad("user_agent", c -> c.put("user_agent", "line\nbreak")),
        bad("landing_url", c -> c.put("landing_url", "ftp://example.com/")),
        bad("landing_url", c -> c.put("landing_url", "/relative/path")),
        bad("clicked_at", c -> c.put("clicked_at", "yesterday")),
        bad("clicked_at", c -> c.put("clicked_at", Instant.now().plusSeconds(86_400).toString())),
        bad("referrer", c -> c.put("referrer", "https://example.com")));
  }

  private static Arguments bad(String field, Consumer<JsonObject> change) {
    JsonObject click = fullClick();
    change.accept(click);
    return Arguments.of(field, click);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidClicks")
  @DisplayName("every capture field is validated: a bad one gets validation_failed naming it, and nothing is stored")
  void captureValidation(String field, JsonObject click) {
    JsonObject error = assertError(app.postJson(SESSIONS, KEY_A, click), 400, "validation_failed");

    assertThat(error.getJsonArray("details").stream().map(d -> ((JsonObject) d).getString("field")))
        .containsExactly(field);
    assertThat(app.count("click_sessions")).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {SESSIONS, INVITES})
  @DisplayName("capture endpoints share the events endpoint's auth: 401 without a key, 403 for another workspace")
  void captureAuth(String path) {
    JsonObject body = new JsonObject().put("workspace_id", WS_A).put("telegram_id", 1).put("session_id", "s");

    assertError(app.postJson(path, null, body), 401, "unauthorized");
    assertError(app.postJson(path, KEY_B, body), 403, "forbidden");
    assertThat(app.count("click_sessions") + app.count("invite_sessions")).isZero();
  }

  @Test
  @DisplayName("capture endpoints share the workspace's rate limit and the /v1 alias")
  void captureRateLimitAndAlias() {
    JsonObject body = new JsonObject().put("workspace_id", WS_LIMITED);

    assertThat(app.postJson("/v1/sessions", KEY_LIMITED, body).statusCode()).isEqualTo(200);
    assertThat(app.postJson(SESSIONS, KEY_LIMITED, body).statusCode()).isEqualTo(200);
    HttpResponse<Buffer> limited = app.postJson(SESSIONS, KEY_LIMITED, body);

    assertError(limited, 429, "rate_limited");
    assertThat(limited.getHeader("Retry-After")).isNotBlank();
    assertThat(app.count("click_sessions")).isEqualTo(2);
  }

  // --- POST /api/v1/sessions/invites ---

  @Test
  @DisplayName("an invite session is stored and answered with its session and user; posting it again stores no more")
  void inviteStored() {
    JsonObject invite = new JsonObject().put("workspace_id", WS_A).put("telegram_id", 77).put("session_id", "inv")
        .put("invite_link", "https://t.me/+AbCdEf123");

    HttpResponse<Buffer> response = app.postJson(INVITES, KEY_A, invite);
    app.postJson("/v1/sessions/invites", KEY_A, invite);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.bodyAsJsonObject().getJsonObject("data"))
        .isEqualTo(new JsonObject().put("session_id", "inv").put("telegram_id", 77));
    Row row = app.rows("SELECT * FROM invite_sessions").get(0);
    assertThat(row.getLong("telegram_id")).isEqualTo(77);
    assertThat(row.getString("invite_link")).isEqualTo("https://t.me/+AbCdEf123");
    assertThat(app.count("invite_sessions")).isEqualTo(1);
  }

  static Stream<Arguments> invalidInvites() {
    JsonObject good = new JsonObject().put("workspace_id", WS_A).put("telegram_id", 77).put("session_id", "inv");
    return Stream.of(
        Arguments.of("session_id", good.copy().put("session_id", null)),
        Arguments.of("telegram_id", good.copy().put("telegram_id", "77")),
        Arguments.of("telegram_id", new JsonObject().put("workspace_id", WS_A).put("session_id", "inv")),
        Arguments.of("invite_link", good.copy().put("invite_link", "t.me/+abc")),
        Arguments.of("fbclid", good.copy().put("fbclid", "x")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidInvites")
  @DisplayName("invite fields are validated, and nothing is stored for a bad one")
  void inviteValidation(String field, JsonObject invite) {
    JsonObject error = assertError(app.postJson(INVITES, KEY_A, invite), 400, "validation_failed");

    assertThat(error.getJsonArray("details").getJsonObject(0).getString("field")).isEqualTo(field);
    assertThat(app.count("invite_sessions")).isZero();
  }
}
