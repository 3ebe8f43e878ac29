package dev.eventrouter.http;

import dev.eventrouter.support.RawHttp;
import dev.eventrouter.support.ServiceTest;
import dev.eventrouter.support.TestApp;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a careless or hostile client can send, over raw sockets so the bytes are exactly as generated: every answer
 * is a 4xx in the error envelope, nothing is stored, and the service still takes a good event afterwards.
 */
class MalformedRequestTest extends ServiceTest {

  private static final long SEED = 20261122L;
  private static final int REQUESTS = 3000;
  private static final String EVENTS = "/api/v1/events/custom";
  private static final String[] FIELDS =
      {"event_name", "telegram_id", "workspace_id", "session_id", "value", "currency", "user_data"};

  private record Sent(String what, RawHttp.Response response) {}

  // --- named cases: each failure mode the envelope once missed ---

  @Test
  @DisplayName("headers over 8 KB get 431 headers_too_large in the envelope")
  void longHeaders() {
    RawHttp.Response response = RawHttp.request(app.port(), "POST", EVENTS,
        Map.of("x-api-key", KEY_A, "X-Padding", "a".repeat(9000)), validEvent().toBuffer().getBytes());
    assertError(response, 431, "headers_too_large");
  }

  @Test
  @DisplayName("a request line over 4 KB gets 414 uri_too_long in the envelope")
  void longUri() {
    RawHttp.Response response = RawHttp.request(app.port(), "GET", "/api/v1/events/" + "x".repeat(5000), Map.of(),
        new byte[0]);
    assertError(response, 414, "uri_too_long");
  }

  @Test
  @DisplayName("a path with broken percent-encoding gets 400 bad_request in the envelope, not plain text")
  void badPercentEncoding() {
    assertError(RawHttp.request(app.port(), "GET", "/%zz", Map.of(), new byte[0]), 400, "bad_request");
  }

  @Test
  @DisplayName("a request that is not HTTP gets 400 bad_request in the envelope")
  void notHttp() {
    RawHttp.Response response = RawHttp.exchange(app.port(), "HELLO\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
    assertError(response, 400, "bad_request");
  }

  @Test
  @DisplayName("a key given twice is refused with invalid_json naming the key, at any depth")
  void duplicateKeys() {
    String top = "{\"event_name\":\"REG\",\"telegram_id\":\"x\",\"workspace_id\":\"" + WS_A + "\",\"telegram_id\":6}";
    JsonObject error = assertError(post(top.getBytes(StandardCharsets.UTF_8)), 400, "invalid_json");
    assertThat(error.getString("message")).contains("\"telegram_id\"");
    String nested = "{\"event_name\":\"REG\",\"telegram_id\":6,\"workspace_id\":\"" + WS_A
        + "\",\"user_data\":{\"email\":\"a@b.c\",\"email\":\"d@e.f\"}}";
    error = assertError(post(nested.getBytes(StandardCharsets.UTF_8)), 400, "invalid_json");
    assertThat(error.getString("message")).contains("\"email\"");
    assertThat(app.count("events")).isZero();
  }

  @Test
  @DisplayName("NUL and lone surrogates, escaped or raw, in keys or values are refused with 400 naming the field")
  void unstorableText() {
    String[] bodies = {
        withUserData("\"email\":\"a\\u0000b@example.com\""),
        withUserData("\"e\\u0000mail\":\"a@example.com\""),
        withUserData("\"first_name\":\"\\ud800\""),
        withUserData("\"first_name\":\"x\\udc00y\""),
    };
    String[] fields = {"user_data.email", "user_data.e\\u0000mail", "user_data.first_name", "user_data.first_name"};
    for (int i = 0; i < bodies.length; i++) {
      JsonObject error = assertError(post(bodies[i].getBytes(StandardCharsets.UTF_8)), 400, "validation_failed");
      assertThat(error.getJsonArray("details").getJsonObject(0).getString("field")).isEqualTo(fields[i]);
    }
    byte[][] raw = {
        utf8WithRawValue(new byte[] {(byte) 0xC0, (byte) 0x80}),             // overlong NUL
        utf8WithRawValue(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}), // encoded surrogate (CESU-8)
        utf8WithRawValue(new byte[] {(byte) 0xFF}),
        utf8WithRawValue(new byte[] {(byte) 0xE2, (byte) 0x82}),              // truncated sequence
    };
    for (byte[] body : raw) {
      JsonObject error = assertError(post(body), 400, "invalid_json");
      assertThat(error.getString("message")).contains("UTF-8");
    }
    assertThat(app.count("events")).isZero();
  }

  // --- the generator ---

  @Test
  @DisplayName("a few thousand seeded malformed requests: no 5xx, every error in the envelope, nothing stored")
  void seededMalformedRequests() {
    Random random = new Random(SEED);
    List<Supplier<Sent>> kinds = kinds(random);
    Map<String, Integer> byStatus = new TreeMap<>();
    List<String> problems = new ArrayList<>();
    for (int i = 0; i < REQUESTS; i++) {
      Sent sent = kinds.get(random.nextInt(kinds.size())).get();
      RawHttp.Response response = sent.response();
      byStatus.merge(response.status() + "", 1, Integer::sum);
      JsonObject body = response.json();
      boolean envelope = body != null && Boolean.FALSE.equals(body.getBoolean("ok"))
          && body.getValue("error") instanceof JsonObject error && error.getString("code") != null
          && String.valueOf(response.headers().get("content-type")).startsWith("application/json");
      if (response.status() < 400 || response.status() >= 500 || !envelope) {
        problems.add(sent.what() + " -> " + response.status() + " " + response.text());
      }
    }
    System.out.printf("malformed requests (seed %d): %d sent, answers by status %s%n", SEED, REQUESTS, byStatus);
    assertThat(problems).as("answers that are not a 4xx in the envelope").isEmpty();
    assertThat(app.count("events")).as("events stored").isZero();
    assertThat(app.count("click_sessions") + app.count("invite_sessions")).as("sessions stored").isZero();
    assertThat(app.postEvent(KEY_A, validEvent()).statusCode()).as("a good event afterwards").isEqualTo(200);
  }

  private List<Supplier<Sent>> kinds(Random random) {
    List<Supplier<Sent>> kinds = new ArrayList<>();
    kinds.add(() -> {
      byte[] bytes = new byte[random.nextInt(300)];
      random.nextBytes(bytes);
      return new Sent("random bytes", post(bytes));
    });
    kinds.add(() -> {
      byte[] whole = validEvent().toBuffer().getBytes();
      int cut = random.nextInt(whole.length - 1);
      return new Sent("truncated at " + cut, post(java.util.Arrays.copyOf(whole, cut)));
    });
    kinds.add(() -> {
      int depth = 1 + random.nextInt(3000);
      String nested = "[".repeat(depth) + "]".repeat(depth);
      String body = random.nextBoolean() ? nested : withUserData("\"deep\":" + nested);
      return new Sent("nested " + depth, post(body.getBytes(StandardCharsets.UTF_8)));
    });
    kinds.add(() -> {
      String[] numbers = {"1e400", "-1e400", "1e-400", "123456789012345678901234567890", "-0", "0.0", "9".repeat(900),
          "1." + "0".repeat(900) + "1", "NaN", "Infinity", "0x10", "01", "-9223372036854775809"};
      String number = numbers[random.nextInt(numbers.length)];
      String field = random.nextBoolean() ? "telegram_id" : "value";
      JsonObject event = validEvent();
      if (field.equals("value")) {
        // A huge or odd value with a required-value event name and a non-number telegram_id, so it stays invalid.
        event.put("event_name", "FTD").put("telegram_id", "not a number");
      }
      String body = event.put(field, "NUMBER").encode().replace("\"NUMBER\"", number);
      return new Sent(field + "=" + number, post(body.getBytes(StandardCharsets.UTF_8)));
    });
    kinds.add(() -> {
      String[] bad = {"\\u0000", "\\ud800", "\\udfff", "a\\u0000", "\\ud800\\ud800"};
      String text = bad[random.nextInt(bad.length)];
      String body = random.nextBoolean() ? withUserData("\"k\":\"" + text + "\"") : withUserData("\"" + text + "\":1");
      return new Sent("text " + text, post(body.getBytes(StandardCharsets.UTF_8)));
    });
    kinds.add(() -> {
      byte[][] invalid = {{(byte) 0xC0, (byte) 0x80}, {(byte) 0xED, (byte) 0xB0, (byte) 0x80}, {(byte) 0xFE},
          {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80}, {(byte) 0xC3}};
      return new Sent("invalid UTF-8", post(utf8WithRawValue(invalid[random.nextInt(invalid.length)])));
    });
    kinds.add(() -> {
      String field = FIELDS[random.nextInt(FIELDS.length)];
      String body = validEvent().put(field, "DUP").encode().replace("}", ",\"" + field + "\":\"DUP\"}");
      return new Sent("duplicate " + field, post(body.getBytes(StandardCharsets.UTF_8)));
    });
    kinds.add(() -> {
      String field = FIELDS[random.nextInt(FIELDS.length)];
      Object[] wrong = {null, true, 3.5, -1, new JsonArray().add(1), new JsonObject().put("x", 1), "", " ",
          "x".repeat(300)};
      Object value = wrong[random.nextInt(wrong.length)];
      JsonObject event = validEvent().put(field, value);
      boolean stillValid = value == null && !List.of("event_name", "telegram_id", "workspace_id").contains(field);
      if (stillValid || (field.equals("user_data") && value instanceof JsonObject)
          || (field.equals("value") && value instanceof Double)) {
        event.put("telegram_id", false);
      }
      return new Sent(field + "=" + value, post(event.toBuffer().getBytes()));
    });
    kinds.add(() -> {
      byte[] big = ("{\"event_name\":\"REG\",\"pad\":\"" + "p".repeat(TestApp.MAX_BODY_BYTES) + "\"}")
          .getBytes(StandardCharsets.UTF_8);
      return new Sent("oversized body", post(big));
    });
    kinds.add(() -> new Sent("long header", RawHttp.request(app.port(), "POST", EVENTS,
        Map.of("x-api-key", KEY_A, "X-Long", "h".repeat(8200 + random.nextInt(2000))),
        validEvent().toBuffer().getBytes())));
    kinds.add(() -> new Sent("long uri", RawHttp.request(app.port(), "GET",
        "/api/v1/events/evt_" + "1".repeat(4100 + random.nextInt(2000)), Map.of("x-api-key", KEY_A), new byte[0])));
    kinds.add(() -> {
      String[] paths = {"/%zz", "/api/v1/events/%", "/api/v1/%E0%A4%A", "/api/v1/events/evt_99999999999999999999999",
          "/api/v1/events/evt_", "/api/v2/events/custom", "/..%2f..%2fetc/passwd", "//", "/api/v1/events/custom/",
          "/api/v1/events/custom?x=%zz", "*", "/api/v1/sessions%00", "/metrics/x"};
      String path = paths[random.nextInt(paths.length)];
      String method = random.nextBoolean() ? "GET" : "POST";
      return new Sent(method + " " + path, RawHttp.request(app.port(), method, path, jsonHeaders(),
          method.equals("POST") ? "{".getBytes(StandardCharsets.UTF_8) : new byte[0]));
    });
    kinds.add(() -> {
      String[] methods = {"PUT", "DELETE", "PATCH", "OPTIONS", "FOO", "GET"};
      String[] paths = {EVENTS, "/api/v1/sessions", "/api/v1/sessions/invites", "/v1/events/custom"};
      String method = methods[random.nextInt(methods.length)];
      return new Sent(method + " on a POST route", RawHttp.request(app.port(), method,
          paths[random.nextInt(paths.length)], jsonHeaders(), validEvent().toBuffer().getBytes()));
    });
    kinds.add(() -> {
      String[] types = {"text/plain", "application/x-www-form-urlencoded", "application/jsonx", "", "json",
          "multipart/form-data; boundary=x"};
      String type = types[random.nextInt(types.length)];
      Map<String, String> headers = new LinkedHashMap<>();
      headers.put("x-api-key", KEY_A);
      headers.put("Content-Type", type);
      return new Sent("content type " + type, RawHttp.request(app.port(), "POST", EVENTS, headers,
          validEvent().toBuffer().getBytes()));
    });
    kinds.add(() -> {
      // Not here: an HTTP version other than 1.0 and 1.1, which vertx-core answers with a bare 501 before any handler.
      String[] lines = {"GET\r\n\r\n", "G\u0000T / HTTP/1.1\r\n\r\n", "GET /\u0001 HTTP/1.1\r\n\r\n",
          "POST " + EVENTS + " HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
          "POST " + EVENTS + " HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef",
          "GET / HTTP/1.1\r\nBad Header Without Colon\r\n\r\n"};
      String line = lines[random.nextInt(lines.length)];
      return new Sent("raw " + line.strip(), RawHttp.exchange(app.port(), line.getBytes(StandardCharsets.ISO_8859_1)));
    });
    kinds.add(() -> {
      JsonObject session = new JsonObject().put("workspace_id", WS_A).put("session_id", "bad id!")
          .put("client_ip", "999.1.1.1").put("clicked_at", "yesterday");
      String path = random.nextBoolean() ? "/api/v1/sessions" : "/api/v1/sessions/invites";
      return new Sent("bad session " + path, RawHttp.request(app.port(), "POST", path, jsonHeaders(),
          session.toBuffer().getBytes()));
    });
    return kinds;
  }

  // --- helpers ---

  private static JsonObject validEvent() {
    return new JsonObject().put("event_name", "REG").put("telegram_id", 77).put("workspace_id", WS_A);
  }

  private static String withUserData(String members) {
    return "{\"event_name\":\"REG\",\"telegram_id\":77,\"workspace_id\":\"" + WS_A + "\",\"user_data\":{" + members
        + "}}";
  }

  private static byte[] utf8WithRawValue(byte[] raw) {
    byte[] head = withUserData("\"first_name\":\"").replace("\"}}", "").getBytes(StandardCharsets.UTF_8);
    byte[] tail = "\"}}".getBytes(StandardCharsets.UTF_8);
    byte[] all = new byte[head.length + raw.length + tail.length];
    System.arraycopy(head, 0, all, 0, head.length);
    System.arraycopy(raw, 0, all, head.length, raw.length);
    System.arraycopy(tail, 0, all, head.length + raw.length, tail.length);
    return all;
  }

  private static Map<String, String> jsonHeaders() {
    return Map.of("x-api-key", KEY_A, "Content-Type", "application/json");
  }

  private RawHttp.Response post(byte[] body) {
    return RawHttp.request(app.port(), "POST", EVENTS, jsonHeaders(), body);
  }

}
