package dev.eventrouter.forward;

import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.RawHttp;
import dev.eventrouter.support.TestApp;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Partner postbacks as real partners' systems send them, sent byte for byte as they arrive (a NUL, a second '?', an
 * HTML-escaped template, repeated keys, CAKE's and Rewarded Media's macros, long form values, a stray '%'), end to
 * end on PostgreSQL: each is recorded or refused with a 4xx naming the parameter, never a 5xx.
 */
class PartnerUrlsTest extends FakeNetworksTest {

  private static final String TOKEN = "pb_Partner_Urls_0123456789abcd";
  private static final String PATH = "/api/v1/postbacks/" + TOKEN;
  private static final int MAX_BODY = 65_536;

  @BeforeEach
  void start() {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, fake.baseUrl());
    config.getJsonObject("http").put("max_body_bytes", MAX_BODY);
    config.getJsonArray("workspaces").getJsonObject(0).put("postback_sources", new JsonArray()
        .add(new JsonObject().put("id", "partner").put("token", ApiKeys.configValue(TOKEN))
            .put("default_currency", "USD")));
    app = TestApp.start(vertx, config);
    for (String session : new String[] {"ses_u1", "ses_u2", "ses_u3"}) {
      assertThat(app.postJson("/api/v1/sessions", KEY_A, new JsonObject().put("workspace_id", WS_A)
          .put("session_id", session).put("fbclid", "IwAR_" + session)).statusCode()).isEqualTo(200);
    }
  }

  private RawHttp.Response get(String query) {
    return send("GET", PATH + "?" + query, Map.of(), "");
  }

  private RawHttp.Response form(String body) {
    return send("POST", PATH, Map.of("Content-Type", "application/x-www-form-urlencoded"), body);
  }

  /**
   * The request as its bytes (each character of {@code target} and {@code body} one byte, ISO-8859-1), on a
   * connection kept open until the answer, which the service closes after it.
   */
  private RawHttp.Response send(String method, String target, Map<String, String> headers, String body) {
    StringBuilder request = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: x\r\n");
    headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
    request.append("Content-Length: ").append(body.length()).append("\r\nConnection: close\r\n\r\n").append(body);
    try (RawHttp.Connection connection = RawHttp.Connection.open(app.port(), request.toString())) {
      return connection.answer();
    }
  }

  private static JsonObject data(RawHttp.Response response) {
    assertThat(response.status()).as(response.text()).isEqualTo(200);
    return response.json().getJsonObject("data");
  }

  private static JsonObject error(RawHttp.Response response, int status, String code) {
    assertThat(response.status()).as(response.text()).isEqualTo(status);
    JsonObject error = response.json().getJsonObject("error");
    assertThat(error.getString("code")).isEqualTo(code);
    return error;
  }

  private static String field(JsonObject error) {
    return error.getJsonArray("details").getJsonObject(0).getString("field");
  }

  private JsonObject event(String eventId) {
    return app.get("/api/v1/events/" + eventId, KEY_A).bodyAsJsonObject().getJsonObject("data");
  }

  /** The newest entry of the postback log. */
  private JsonObject logged() {
    JsonArray postbacks = app.get("/api/v1/postbacks", KEY_A).bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("postbacks");
    return postbacks.getJsonObject(0);
  }

  @Test
  @DisplayName("a NUL in a parameter the source does not read: recorded, the NUL dropped from the log; in one it "
      + "reads: 400 naming it, and logged as refused")
  void nul() {
    JsonObject answer = data(get("subid=ses_u1&goal=ftd&payout=10&comment=a%00b&c%00d=x&tid=N-1"));
    assertThat(answer.getString("outcome")).isEqualTo("matched");
    assertThat(event(answer.getString("event_id")).getString("value")).isEqualTo("10");
    assertThat(logged().getJsonObject("params").getString("comment")).isEqualTo("ab");
    assertThat(logged().getJsonObject("params").getString("cd")).isEqualTo("x");

    assertThat(field(error(get("subid=ses_u1&goal=ftd&payout=1%000&tid=N-2"), 400, "validation_failed")))
        .isEqualTo("payout");
    assertThat(field(error(get("subid=ses%00_u1&goal=ftd&payout=10&tid=N-3"), 400, "validation_failed")))
        .isEqualTo("subid");
    assertThat(logged().getString("outcome")).isEqualTo("refused");
    assertThat(logged().getJsonObject("params").getString("subid")).isEqualTo("ses_u1");
    JsonObject json = data(send("POST", PATH, Map.of("Content-Type", "application/json"),
        "{\"subid\":\"ses_u1\",\"goal\":\"reg\",\"tid\":\"N-4\",\"note\":\"x\\u0000y\"}"));
    assertThat(json.getString("outcome")).as("a JSON body likewise").isEqualTo("matched");
  }

  @Test
  @DisplayName("1xPartners' appended '?': raw, escaped, and after an event word; the deposit is recorded with the "
      + "value that followed, and the log says what was repaired")
  void strayQuestionMark() {
    JsonObject raw = data(get("subid=ses_u1&goal=ftd&tid=Q-1&currency=MAD?value=40&ftd=1"));
    JsonObject event = event(raw.getString("event_id"));
    assertThat(event.getString("value")).isEqualTo("40");
    assertThat(event.getString("currency")).isEqualTo("MAD");
    assertThat(logged().getJsonArray("repairs")).containsExactly("currency: split at a second '?' into value");

    JsonObject escaped = data(get("subid=ses_u2&goal=ftd&tid=Q-2&currency=MAD%3Fvalue%3D25.50"));
    assertThat(event(escaped.getString("event_id")).getString("value")).isEqualTo("25.5");

    JsonObject reg = data(get("subid=ses_u3&tid=Q-3&event=reg?reg=1"));
    assertThat(event(reg.getString("event_id")).getString("event_name")).isEqualTo("REG");
    assertThat(data(get("subid=ses_u3&goal=reg&tid=Q-4")).getString("outcome")).isEqualTo("matched");
    assertThat(logged().getJsonArray("repairs")).as("nothing to repair").isEmpty();
  }

  @Test
  @DisplayName("M1-shop's &currency= arriving as ¤cy= (HTML-decoded): the rouble amount is recorded in roubles")
  void htmlEscaped() {
    byte[] target = (PATH + "?subid=ses_u1&goal=ftd&payout=500&tid=H-1&sub2=lp\u00a4cy=RUB")
        .getBytes(StandardCharsets.UTF_8); // the partner's system sends the character's UTF-8 bytes as they are
    JsonObject answer = data(send("GET", new String(target, StandardCharsets.ISO_8859_1), Map.of(), ""));
    assertThat(event(answer.getString("event_id")).getString("currency")).isEqualTo("RUB");
    assertThat(logged().getJsonArray("repairs").getString(0)).startsWith("currency:");
    JsonObject escaped = data(get("subid=ses_u2&goal=ftd&payout=7&tid=H-2&amp;currency=EUR"));
    assertThat(event(escaped.getString("event_id")).getString("currency")).isEqualTo("EUR");
    assertThat(field(error(get("subid=ses_u3&goal=ftd&payout=7&tid=H-3&currency="), 400, "validation_failed")))
        .as("an empty currency beside an amount").isEqualTo("currency");
  }

  @Test
  @DisplayName("repeated keys: equal repeats are one value; different ones of a parameter the source reads are a 400 "
      + "naming it; of one it does not read, the first is logged")
  void repeatedKeys() {
    assertThat(field(error(get("subid=ses_u1&goal=ftd&payout=10&payout=1000&tid=R-1"), 400, "validation_failed")))
        .isEqualTo("payout");
    assertThat(field(error(get("subid=ses_u1&subid=ses_u2&goal=reg&tid=R-2"), 400, "validation_failed")))
        .isEqualTo("subid");
    assertThat(app.count("events")).isZero();
    JsonObject equal = data(get("subid=ses_u1&SUBID=ses_u1&goal=ftd&payout=10&payout=10&note=a&note=b&tid=R-3"));
    assertThat(event(equal.getString("event_id")).getString("value")).isEqualTo("10");
    assertThat(logged().getJsonObject("params").getString("note")).isEqualTo("a");
  }

  @Test
  @DisplayName("unexpanded macros of CAKE (#s2#), Rewarded Media (__SUBID__), MoarTraffic (<TRACKER>) and a raw "
      + "%subid%: 400 macro_not_expanded naming the parameter, logged for the macro alert")
  void macros() {
    for (String query : new String[] {"subid=%23s2%23&goal=ftd&payout=1", "subid=__SUBID__&goal=reg",
        "subid=ses_u1&goal=%3CTRACKER%3E", "subid=%subid%&goal=reg"}) {
      JsonObject error = error(get(query), 400, "macro_not_expanded");
      assertThat(field(error)).as(query).isIn("subid", "goal");
      assertThat(logged().getString("outcome")).isEqualTo("macro_not_expanded");
    }
    assertThat(app.count("events")).isZero();
    assertThat(data(get("subid=ses_u1&goal=reg&comment=100%&tid=M-1")).getString("outcome"))
        .as("a stray '%' in a value the source does not read is data").isEqualTo("matched");
  }

  @Test
  @DisplayName("a 10 KB form: a click id of 10,000 characters is validation_failed naming it; an unrelated comment "
      + "of 10,000 is recorded and cut to 500 in the log; 300 fields are read")
  void longFormValues() {
    String longId = "s".repeat(10_000);
    assertThat(field(error(form("subid=" + longId + "&goal=reg&tid=L-1"), 400, "validation_failed")))
        .isEqualTo("subid");
    JsonObject answer = data(form("subid=ses_u1&goal=reg&tid=L-2&comment=" + "c".repeat(10_000)));
    assertThat(answer.getString("outcome")).isEqualTo("matched");
    assertThat(logged().getJsonObject("params").getString("comment")).hasSize(503).endsWith("...");
    StringBuilder many = new StringBuilder("subid=ses_u2&goal=reg&tid=L-3");
    for (int i = 0; i < 300; i++) {
      many.append("&f").append(i).append("=v");
    }
    assertThat(data(form(many.toString())).getString("outcome")).isEqualTo("matched");
    assertThat(form("subid=ses_u3&goal=reg&x=" + "y".repeat(MAX_BODY)).status()).as("over max_body_bytes")
        .isEqualTo(413);
  }

  @Test
  @DisplayName("a signature is masked in the log, as secrets are")
  void signatureMasked() {
    data(get("subid=ses_u1&goal=reg&tid=S-1&sig=abc123&hmac=def&token=t&pwd=p"));
    JsonObject params = logged().getJsonObject("params");
    assertThat(params.getString("sig")).isEqualTo("***");
    assertThat(params.getString("hmac")).isEqualTo("***");
    assertThat(params.getString("token")).isEqualTo("***");
    assertThat(params.getString("pwd")).isEqualTo("***");
    assertThat(params.getString("subid")).isEqualTo("ses_u1");
  }

  @Test
  @DisplayName("a query Vert.x cannot decode: the postback route reads it leniently and the token is never logged; "
      + "any other route answers the documented 400")
  void undecodableQuery() {
    LogCapture logs = LogCapture.start();
    try {
      assertThat(data(get("subid=ses_u1&goal=reg&tid=U-1&x=%zz")).getString("outcome")).isEqualTo("matched");
      error(send("GET", "/api/v1/events/evt_1?x=%zz", Map.of("x-api-key", KEY_A), ""), 400, "bad_request");
      error(send("POST", "/telegram/" + WS_A + "/webhook?%", Map.of(), ""), 400, "bad_request");
    } finally {
      logs.stop();
    }
    assertThat(logs.text()).doesNotContain(TOKEN).doesNotContain("Unhandled exception");
  }
}
