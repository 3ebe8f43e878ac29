package dev.eventrouter.forward;

import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.common.ProxyRoutes;
import dev.eventrouter.common.Sha256;
import dev.eventrouter.config.DataProcessing;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.config.WebhookConfig;
import dev.eventrouter.event.ClickData;
import dev.eventrouter.event.ClickIds;
import dev.eventrouter.forward.webhook.WebhookApi;
import dev.eventrouter.store.ClaimedDelivery;
import dev.eventrouter.support.Await;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** The webhook's request: its body, URL, headers and signature, and how its answers are read. */
@ExtendWith(VertxExtension.class)
class WebhookApiUnitTest {

  private static final String SECRET = "whsec-0123456789ab";
  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final Instant AT = Instant.parse("2026-11-22T10:00:00Z");
  private static final WebhookApi API = new WebhookApi();

  private record Seen(String method, String uri, MultiMap headers, Buffer body) {}

  private HttpServer server;
  private WebClient webClient;
  private Outbound client;
  private final AtomicReference<Seen> seen = new AtomicReference<>();

  @BeforeEach
  void start(Vertx vertx) {
    server = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      seen.set(new Seen(request.method().name(), request.uri(), request.headers(), body));
      request.response().setStatusCode(202).end();
    })).listen(0, "127.0.0.1").await();
    webClient = WebClient.create(vertx, CheckedRequests.options(5_000));
    client = new Outbound(new CheckedRequests(vertx, webClient, new ProxyRoutes(vertx, 1000)));
  }

  @AfterEach
  void stop() {
    webClient.close();
    server.close().await();
  }

  private IntegrationConfig hook(String method, String pathAndQuery, String testEventCode) {
    return new IntegrationConfig("w", Network.WEBHOOK, null, SECRET, null, null, null, null, testEventCode, true,
        false, null, DataProcessing.NONE, new WebhookConfig("http://127.0.0.1:" + server.actualPort() + pathAndQuery,
        method, Map.of("X-Api-Key", "k-1"), Map.of()), true);
  }

  private static ClaimedDelivery purchase() {
    return new ClaimedDelivery(1, 77, WS, "w", "FTD", "sale", 2, 42, "ses 1", new BigDecimal("1E+2"), "EUR",
        new JsonObject().put("email", "A@b.co"), AT,
        new ClickData("fb 1", "fb.1.1.fb 1", "fb.1.2.3", "tt/1", "ttp1", "203.0.113.9", "UA", "https://lp/x",
            new ClickIds("g/1", null, null, "sc 1", "scid1")), true);
  }

  private static ClaimedDelivery clicked(String fbclid) {
    return new ClaimedDelivery(3, 79, WS, "w", "REG", "REG", 0, 44, "s", null, "USD", null, AT,
        new ClickData(fbclid, null, null, null, null, null, null, null), null);
  }

  private static ClaimedDelivery bare() {
    return new ClaimedDelivery(2, 78, WS, "w", "REG", "REG", 0, 43, null, null, "USD", null, AT, null, null);
  }

  @Test
  @DisplayName("the body: the event as sent, its id, mapped name and time, and its session's click data")
  void body() {
    JsonObject body = API.body(hook("POST", "/", null), List.of(purchase()));
    assertThat(body).isEqualTo(new JsonObject()
        .put("event_id", "evt_77").put("workspace_id", WS.toString()).put("event_name", "FTD")
        .put("mapped_event", "sale").put("telegram_id", 42L).put("session_id", "ses 1").put("value", "100")
        .put("currency", "EUR").put("user_data", new JsonObject().put("email", "A@b.co"))
        .put("received_at", "2026-11-22T10:00:00Z")
        .put("conversion_status", "approved").putNull("previous_status").put("change", 0)
        .put("session", new JsonObject().put("fbclid", "fb 1").put("fbc", "fb.1.1.fb 1").put("fbp", "fb.1.2.3")
            .put("ttclid", "tt/1").put("ttp", "ttp1").put("gclid", "g/1").putNull("gbraid").putNull("wbraid")
            .put("sccid", "sc 1").put("scid", "scid1").put("client_ip", "203.0.113.9").put("user_agent", "UA")
            .put("landing_url", "https://lp/x"))
        .put("limited_data_use", true));
    JsonObject plain = API.body(hook("POST", "/", "TEST"), List.of(bare()));
    assertThat(plain.getValue("session")).isNull();
    assertThat(plain.containsKey("session")).isTrue();
    assertThat(plain.getValue("value")).isNull();
    assertThat(plain.containsKey("limited_data_use")).isFalse();
    assertThat(plain.getString("test_event_code")).isEqualTo("TEST");
    assertThat(API.body(hook("POST", "/", null), List.of(bare())).containsKey("test_event_code")).isFalse();
    assertThat(API.envelope(hook("POST", "/", null))).isEmpty();
  }

  @Test
  @DisplayName("POST: placeholders percent-encoded (absent ones empty), the configured header, the event id, the "
      + "JSON body, signed over the bytes sent")
  void post() {
    IntegrationConfig hook = hook("POST", "/pb/{mapped_event}?s={session_id}&c={fbclid}&t={ttclid}&v={value}"
        + "&n={event_name}&id={event_id}&tg={telegram_id}&cur={currency}&w={workspace_id}&at={received_at}&x={fbc}"
        + "&p={fbp}&q={ttp}&g={gclid}&gb={gbraid}&sc={sccid}", null);
    JsonObject body = API.body(hook, List.of(purchase()));
    HttpResponse<Buffer> response = Await.result(API.send(client, hook, body, 5_000));

    assertThat(response.statusCode()).isEqualTo(202);
    Seen request = seen.get();
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.uri()).isEqualTo("/pb/sale?s=ses%201&c=fb%201&t=tt%2F1&v=100&n=FTD&id=evt_77&tg=42&cur=EUR"
        + "&w=" + WS + "&at=2026-11-22T10%3A00%3A00Z&x=fb.1.1.fb%201&p=fb.1.2.3&q=ttp1&g=g%2F1&gb=&sc=sc%201");
    assertThat(request.headers().get("X-Api-Key")).isEqualTo("k-1");
    assertThat(request.headers().get("Content-Type")).isEqualTo("application/json");
    assertThat(request.headers().get(WebhookApi.EVENT_ID_HEADER)).isEqualTo("evt_77");
    assertThat(request.body().toJsonObject()).isEqualTo(body);
    assertThat(request.headers().get(WebhookApi.SIGNATURE_HEADER))
        .isEqualTo("sha256=" + Sha256.hmacHex(SECRET, request.body().getBytes()));

    Await.result(API.send(client, hook, API.body(hook, List.of(bare())), 5_000));
    assertThat(seen.get().uri()).startsWith("/pb/REG?s=&c=&t=&v=&n=REG&id=evt_78&tg=43&cur=USD");

    IntegrationConfig unknown = hook("POST", "/pb?a={other}&b={event_id}", null);
    Await.result(API.send(client, unknown, API.body(unknown, List.of(bare())), 5_000));
    assertThat(seen.get().uri()).as("a name not in the list (the config refuses one) is left as written")
        .isEqualTo("/pb?a={other}&b=evt_78");
  }

  @Test
  @DisplayName("GET and PUT: GET has no body and is signed over its URL; PUT sends the body like POST")
  void getAndPut() {
    IntegrationConfig get = hook("GET", "/pb?id={event_id}", null);
    Await.result(API.send(client, get, API.body(get, List.of(bare())), 5_000));
    Seen request = seen.get();
    assertThat(request.method()).isEqualTo("GET");
    assertThat(request.body().length()).isZero();
    assertThat(request.headers().contains("Content-Type")).isFalse();
    String url = "http://127.0.0.1:" + server.actualPort() + "/pb?id=evt_78";
    assertThat(request.headers().get(WebhookApi.SIGNATURE_HEADER))
        .isEqualTo("sha256=" + Sha256.hmacHex(SECRET, url.getBytes(StandardCharsets.UTF_8)));

    IntegrationConfig put = hook("PUT", "/pb", null);
    JsonObject body = API.body(put, List.of(bare()));
    Await.result(API.send(client, put, body, 5_000));
    assertThat(seen.get().method()).isEqualTo("PUT");
    assertThat(seen.get().body().toJsonObject()).isEqualTo(body);
  }

  @ParameterizedTest(name = "HTTP {0} -> {1}")
  @CsvSource({"200, Delivered", "204, Delivered", "299, Delivered", "408, Retry", "429, Retry", "500, Retry",
      "503, Retry", "599, Retry", "300, Failed", "400, Failed", "401, Failed", "404, Failed", "499, Failed",
      "199, Failed"})
  @DisplayName("2xx delivered; 408, 429 and 5xx retried; any other status failed")
  void classify(int status, String expected) {
    Outcome outcome = API.classify(status, Buffer.buffer("{\"echo\":\"secret\"}"), 1500);
    assertThat(outcome.getClass().getSimpleName()).isEqualTo(expected);
    if (outcome instanceof Outcome.Retry retry) {
      assertThat(retry).isEqualTo(new Outcome.Retry("webhook HTTP " + status, 1500));
    } else if (outcome instanceof Outcome.Failed failed) {
      assertThat(failed.error()).isEqualTo("webhook HTTP " + status
          + (status == 300 ? " (redirects are not followed)" : ""));
    }
  }

  @ParameterizedTest(name = "HTTP {0}")
  @CsvSource({"301", "302", "303", "307", "308"})
  @DisplayName("a redirect is a failure that says it was not followed")
  void redirect(int status) {
    assertThat(API.classify(status, Buffer.buffer(), 0))
        .isEqualTo(new Outcome.Failed("webhook HTTP " + status + " (redirects are not followed)"));
  }

  @ParameterizedTest(name = "{0} with fbclid \"{1}\"")
  @CsvSource({"/postback/{fbclid}/x?c={fbclid}, ..", "/postback/{fbclid}, ..", "/{fbclid}?q=1, .",
      "/a/{fbclid}#f, ..", "/a/{fbclid}/, ."})
  @DisplayName("a placeholder whose value makes a whole '.' or '..' path segment: no request, refused for good")
  void dotSegment(String template, String fbclid) {
    IntegrationConfig hook = hook("GET", template, null);
    Throwable refused = Await.failure(API.send(client, hook, API.body(hook, List.of(clicked(fbclid))), 5_000));
    assertThat(refused).isInstanceOf(CheckedRequests.Refused.class)
        .hasMessage("the webhook URL's path has a '.' or '..' segment once its placeholders are filled");
    assertThat(seen.get()).as("nothing was requested").isNull();
  }

  @Test
  @DisplayName("dots inside a segment, in the query or in the fragment are values like any other")
  void dotsElsewhere() {
    IntegrationConfig inSegment = hook("GET", "/postback/{fbclid}/x", null);
    Await.result(API.send(client, inSegment, API.body(inSegment, List.of(clicked("a..b"))), 5_000));
    assertThat(seen.get().uri()).isEqualTo("/postback/a..b/x");
    IntegrationConfig moreDots = hook("GET", "/postback/{fbclid}", null);
    Await.result(API.send(client, moreDots, API.body(moreDots, List.of(clicked("..."))), 5_000));
    assertThat(seen.get().uri()).isEqualTo("/postback/...");
    IntegrationConfig query = hook("GET", "/postback?c={fbclid}#/{fbclid}", null);
    Await.result(API.send(client, query, API.body(query, List.of(clicked(".."))), 5_000));
    assertThat(seen.get().uri()).isEqualTo("/postback?c=..");
  }

  @Test
  @DisplayName("one event per request, no receipt to reconcile, user data as sent, failures told without the URL")
  void rest() {
    assertThat(API.network()).isEqualTo(Network.WEBHOOK);
    assertThat(API.batches()).isFalse();
    assertThat(API.shortfall(Buffer.buffer("{\"events_received\":0}"), 5)).isNull();
    assertThat(API.userData().rejected(purchase())).isEmpty();
    assertThat(API.userData().user(purchase()).getJsonArray("external_id")).as("unused for a webhook, yet total")
        .containsExactly(Sha256.hex("42"));
    assertThat(API.describe(new TimeoutException("POST /pb?key=abc timed out")))
        .isEqualTo("webhook request failed: no answer within the request timeout");
    assertThat(API.describe(new IOException("connect to /pb?key=abc refused")))
        .isEqualTo("webhook request failed: IOException");
  }
}
