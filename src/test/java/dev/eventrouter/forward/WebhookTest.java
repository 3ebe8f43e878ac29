package dev.eventrouter.forward;

import dev.eventrouter.config.ConfigLoader;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.LogCapture;
import dev.eventrouter.support.TestApp;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.WS_A;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The webhook destination against a real local HTTP server standing in for the advertiser's tracker: placeholders,
 * headers from the environment, the HMAC-SHA256 signature (checked here with the JDK's own HMAC), retries, failures
 * and the credential test. Real PostgreSQL.
 */
class WebhookTest extends FakeNetworksTest {

  private static final String SECRET = "whsec-0123456789abcdef";
  private static final String TOKEN = "tracker-token-77";
  private static final Map<String, String> ENV = Map.of("HOOK_SECRET", SECRET, "HOOK_TOKEN", TOKEN);

  /** One request as the tracker received it. */
  record Received(String method, String uri, MultiMap headers, Buffer body) {}

  private HttpServer tracker;
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final Map<String, AtomicInteger> attemptsByEvent = new ConcurrentHashMap<>();
  /** The status the tracker answers, given the event id and how many times it has seen it (1 the first time). */
  private volatile Function<Integer, Integer> status = seen -> 200;
  /** The Location the tracker answers with, or null. */
  private volatile String location;

  @BeforeAll
  void startTracker() {
    tracker = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      received.add(new Received(request.method().name(), request.uri(), request.headers(), body));
      String id = request.getHeader("X-Event-Router-Event-Id");
      int seen = attemptsByEvent.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
      request.response().setStatusCode(status.apply(seen));
      if (location != null) {
        request.response().putHeader("Location", location);
      }
      request.response().end("{\"echo\":\"" + TOKEN + "\"}");
    })).listen(0, "127.0.0.1").await();
  }

  @AfterAll
  void stopTracker() {
    tracker.close().await();
  }

  /**
   * Forgets the previous test's requests once its service has stopped (the base class stops it after each test), so
   * a retry of its still in flight cannot land in this test's list.
   */
  @BeforeEach
  void forgetRequests() {
    received.clear();
    attemptsByEvent.clear();
    status = seen -> 200;
    location = null;
  }

  private void start(JsonObject hook) {
    JsonObject config = ForwardingTestConfig.config(databaseUrl, "http://127.0.0.1:1");
    config.getJsonArray("workspaces").getJsonObject(0).put("integrations", new JsonArray().add(hook));
    app = TestApp.start(vertx, new LiveConfig(new ConfigLoader(ENV).resolve(config)));
  }

  private JsonObject hook(String method, String pathAndQuery) {
    return new JsonObject().put("id", "tracker").put("type", "webhook").put("method", method)
        .put("url", "http://127.0.0.1:" + tracker.actualPort() + pathAndQuery)
        .put("headers", new JsonObject().put("Authorization", "Bearer ${HOOK_TOKEN}"))
        .put("secret", "${HOOK_SECRET}")
        .put("event_map", new JsonObject().put("FTD", "sale")).put("allow_private_network", true);
  }

  private String post(JsonObject event) {
    var response = app.postEvent(KEY_A, event.put("workspace_id", WS_A));
    assertThat(response.statusCode()).isEqualTo(200);
    return response.bodyAsJsonObject().getJsonObject("data").getString("event_id");
  }

  private JsonObject delivery(String eventId) {
    return app.get("/api/v1/events/" + eventId, KEY_A).bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("deliveries").getJsonObject(0);
  }

  private static String hmac(byte[] content) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return "sha256=" + HexFormat.of().formatHex(mac.doFinal(content));
  }

  @Test
  @DisplayName("POST: the URL's placeholders filled and encoded, the configured header from the environment, the "
      + "event as sent with its id, mapped name and session, signed over the exact body")
  void signedPost() throws Exception {
    start(hook("POST", "/postback/{mapped_event}?sub={session_id}&click={fbclid}&payout={value}&name={event_name}"
        + "&ttclid={ttclid}"));
    app.postJson("/api/v1/sessions", KEY_A, new JsonObject().put("workspace_id", WS_A).put("session_id", "ses_1")
        .put("fbclid", "IwAR_x/1+y").put("landing_url", "https://lp.example/a"));
    String id = post(new JsonObject().put("event_name", "FTD").put("telegram_id", 42).put("session_id", "ses_1")
        .put("value", 50.5).put("currency", "usd").put("user_data", new JsonObject().put("email", "A@b.co")));

    Await.until("delivered", DEADLINE, () -> "delivered".equals(delivery(id).getString("status")));
    Received request = received.get(0);
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.uri()).isEqualTo("/postback/sale?sub=ses_1&click=IwAR_x%2F1%2By&payout=50.5&name=FTD&ttclid=");
    assertThat(request.headers().get("Authorization")).isEqualTo("Bearer " + TOKEN);
    assertThat(request.headers().get("Content-Type")).isEqualTo("application/json");
    assertThat(request.headers().get("X-Event-Router-Event-Id")).isEqualTo(id);
    assertThat(request.headers().get("X-Event-Router-Signature")).isEqualTo(hmac(request.body().getBytes()));
    JsonObject body = request.body().toJsonObject();
    assertThat(body.getString("event_id")).isEqualTo(id);
    assertThat(body.getString("workspace_id")).isEqualTo(WS_A);
    assertThat(body.getString("event_name")).isEqualTo("FTD");
    assertThat(body.getString("mapped_event")).isEqualTo("sale");
    assertThat(body.getLong("telegram_id")).isEqualTo(42);
    assertThat(body.getString("session_id")).isEqualTo("ses_1");
    assertThat(body.getString("value")).isEqualTo("50.5");
    assertThat(body.getString("currency")).isEqualTo("USD");
    assertThat(body.getJsonObject("user_data")).isEqualTo(new JsonObject().put("email", "A@b.co"));
    assertThat(body.getJsonObject("session").getString("fbclid")).isEqualTo("IwAR_x/1+y");
    assertThat(body.getJsonObject("session").getString("fbc")).startsWith("fb.1.").endsWith(".IwAR_x/1+y");
    assertThat(body.getJsonObject("session").getString("landing_url")).isEqualTo("https://lp.example/a");
    assertThat(body.getString("received_at")).isNotBlank();
    assertThat(delivery(id).getString("event_name")).isEqualTo("sale");
  }

  @Test
  @DisplayName("GET: no body, signed over the URL as sent; an event without a session leaves its placeholders empty")
  void signedGet() throws Exception {
    start(hook("GET", "/pb?status={mapped_event}&tid={telegram_id}&sub={session_id}"));
    String id = post(new JsonObject().put("event_name", "REG").put("telegram_id", 7));

    Await.until("delivered", DEADLINE, () -> "delivered".equals(delivery(id).getString("status")));
    Received request = received.get(0);
    assertThat(request.method()).isEqualTo("GET");
    assertThat(request.uri()).isEqualTo("/pb?status=REG&tid=7&sub=");
    assertThat(request.body().length()).isZero();
    String url = "http://127.0.0.1:" + tracker.actualPort() + request.uri();
    assertThat(request.headers().get("X-Event-Router-Signature"))
        .isEqualTo(hmac(url.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  @DisplayName("503 and 429 are retried under the same event id until accepted; 404 fails at once with the status "
      + "only; neither the secret nor the header value is logged or stored")
  void retriesAndFailures() {
    LogCapture logs = LogCapture.start();
    status = seen -> seen == 1 ? 503 : seen == 2 ? 429 : 200;
    start(hook("POST", "/pb"));
    String retried = post(new JsonObject().put("event_name", "REG").put("telegram_id", 1));
    Await.until("delivered after two retries", DEADLINE, () -> "delivered".equals(delivery(retried)
        .getString("status")));
    assertThat(delivery(retried).getInteger("attempts")).isEqualTo(3);
    assertThat(received).extracting(r -> r.headers().get("X-Event-Router-Event-Id")).containsOnly(retried)
        .hasSize(3);
    assertThat(received).extracting(r -> r.body().toJsonObject().getString("event_id")).containsOnly(retried);

    status = seen -> 404;
    String failed = post(new JsonObject().put("event_name", "REG").put("telegram_id", 2));
    Await.until("failed", DEADLINE, () -> "failed".equals(delivery(failed).getString("status")));
    assertThat(delivery(failed).getString("last_error")).isEqualTo("webhook HTTP 404");
    assertThat(attemptsByEvent.get(failed).get()).isOne();
    logs.stop();
    assertThat(logs.text()).doesNotContain(SECRET).doesNotContain(TOKEN);
    assertThat(app.rows("SELECT count(*) FROM deliveries WHERE last_error LIKE '%' || $1 || '%'", TOKEN).get(0)
        .getLong(0)).isZero();
  }

  @Test
  @DisplayName("many events at once: one request each, every one delivered once")
  void oneRequestPerEvent() {
    start(hook("POST", "/pb"));
    List<String> ids = new java.util.ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ids.add(post(new JsonObject().put("event_name", "REG").put("telegram_id", 100 + i)));
    }
    Await.until("all delivered", DEADLINE, () -> app.rows("SELECT count(*) FROM deliveries WHERE status = "
        + "'delivered'").get(0).getLong(0) == 20);
    assertThat(received).hasSize(20);
    assertThat(attemptsByEvent).containsOnlyKeys(ids);
  }

  @Test
  @DisplayName("the credential test reaches the webhook too, marked with a test code, and answers its status")
  void credentialTest() {
    start(hook("POST", "/pb"));
    JsonObject verdict = app.post("/api/v1/integrations/tracker/test", MultiMap.caseInsensitiveMultiMap()
        .add("x-api-key", KEY_A), Buffer.buffer()).bodyAsJsonObject().getJsonObject("data");
    assertThat(verdict.getString("verdict")).isEqualTo("accepted");
    assertThat(verdict.getString("network")).isEqualTo("webhook");
    assertThat(verdict.getInteger("http_status")).isEqualTo(200);
    assertThat(verdict.encode()).as("the tracker echoed the header: its body is never passed on")
        .doesNotContain(TOKEN).doesNotContain(SECRET);
    assertThat(verdict.containsKey("response")).isTrue();
    assertThat(verdict.getValue("response")).isNull();
    assertThat(received).singleElement().satisfies(r ->
        assertThat(r.body().toJsonObject().getString("test_event_code")).isEqualTo("TEST"));
    assertThat(app.count("deliveries")).isZero();
  }

  @Test
  @DisplayName("a receiver answering a redirect to an internal service: the delivery fails with the status, the "
      + "service gets no request (no header, no signature), and the credential test answers no body of it")
  void redirectsNotFollowed() {
    List<MultiMap> internalHits = new CopyOnWriteArrayList<>();
    HttpServer internal = vertx.createHttpServer().requestHandler(request -> {
      internalHits.add(request.headers());
      request.response().putHeader("Content-Type", "application/json")
          .end("{\"error\":{\"message\":\"internal-only-secret\"},\"code\":1,\"message\":\"internal-only-secret\"}");
    }).listen(0, "127.0.0.1").await();
    try {
      location = "http://127.0.0.1:" + internal.actualPort() + "/latest/meta-data";
      status = seen -> 302;
      start(hook("POST", "/pb"));
      String id = post(new JsonObject().put("event_name", "REG").put("telegram_id", 3));
      Await.until("failed", DEADLINE, () -> "failed".equals(delivery(id).getString("status")));
      assertThat(delivery(id).getString("last_error")).isEqualTo("webhook HTTP 302 (redirects are not followed)");
      assertThat(attemptsByEvent.get(id).get()).isOne();

      status = seen -> 303;
      JsonObject verdict = app.post("/api/v1/integrations/tracker/test", MultiMap.caseInsensitiveMultiMap()
          .add("x-api-key", KEY_A), Buffer.buffer()).bodyAsJsonObject().getJsonObject("data");
      assertThat(verdict.getString("verdict")).isEqualTo("refused");
      assertThat(verdict.getInteger("http_status")).isEqualTo(303);
      assertThat(verdict.getString("message")).isEqualTo("webhook HTTP 303 (redirects are not followed)");
      assertThat(verdict.getValue("response")).isNull();
      assertThat(verdict.encode()).doesNotContain("internal-only-secret");
      assertThat(internalHits).as("nothing reached the redirect's target").isEmpty();
    } finally {
      internal.close().await();
    }
  }
}
