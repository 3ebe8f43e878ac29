package dev.eventrouter.api.sessions;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.config.PublishableKey;
import dev.eventrouter.config.RateLimitConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.ClickSession;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.http.Methods;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.EdgeServer;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Publishable keys at the HTTP edge (the store's side of the bus answered by the test): they create click sessions
 * from their allowed origins only, under a per-IP limit, with CORS for those origins; the visitor's IP (through
 * trusted proxies only), user agent, click ids and UTM parameters are filled in.
 */
@ExtendWith(VertxExtension.class)
class PublishableKeyEdgeUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final UUID OTHER = UUID.fromString("8c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final String SECRET = "secret-key-1";
  private static final String PUBLIC = "pk-public-1";
  private static final String OTHER_PUBLIC = "pk-public-2";
  private static final String LP = "https://lp.example";
  private static final String OTHER_LP = "http://promo.example:8081";
  private static final int PER_IP_BURST = 3;

  private Vertx vertx;
  private WebClient client;
  private int trustingPort;
  private int plainPort;
  private final List<Message<JsonObject>> asked = new CopyOnWriteArrayList<>();

  private static byte[] hash(String key) {
    return HexFormat.of().parseHex(ApiKeys.configValue(key).substring(ApiKeys.PREFIX.length()));
  }

  private static List<WorkspaceConfig> workspaces() {
    return List.of(
        new WorkspaceConfig(WS, "w", List.of(hash(SECRET)), List.of(new PublishableKey(hash(PUBLIC), List.of(LP))),
            new RateLimitConfig(1000, 1000), "lp_bot", 28, List.of(), Map.of(), null),
        new WorkspaceConfig(OTHER, "o", List.of(), List.of(new PublishableKey(hash(OTHER_PUBLIC), List.of(OTHER_LP))),
            new RateLimitConfig(1000, 1000), null, 28, List.of(), Map.of(), null));
  }

  private int deploy(List<String> trustedProxies) {
    return deploy(trustedProxies, workspaces());
  }

  private int deploy(List<String> trustedProxies, List<WorkspaceConfig> workspaces) {
    HttpConfig http = new HttpConfig("127.0.0.1", 0, 4096, 1, 500, trustedProxies,
        new RateLimitConfig(0.001, PER_IP_BURST), HttpConfig.DEFAULT_PUBLISHABLE_SHARE, HttpConfig.ServerLimits.DEFAULT);
    return EdgeServer.deploy(vertx, http, new AccessControl(workspaces, http, System::nanoTime));
  }

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    for (String address : List.of(Addresses.SESSIONS_CAPTURE, Addresses.EVENTS_INGEST, Addresses.EVENTS_LIST)) {
      Await.result(vertx.eventBus().<JsonObject>consumer(address, message -> {
        asked.add(message);
        message.reply(new JsonObject());
      }).completion());
    }
    trustingPort = deploy(List.of("127.0.0.1", "10.0.0.0/8"));
    plainPort = deploy(List.of());
    client = WebClient.create(vertx, new WebClientOptions().setUserAgentEnabled(false));
  }

  @AfterEach
  void stop() {
    client.close();
  }

  private HttpResponse<Buffer> capture(int port, String key, MultiMap headers, JsonObject body) {
    var request = client.post(port, "127.0.0.1", "/api/v1/sessions").putHeaders(headers)
        .putHeader("Content-Type", "application/json");
    if (key != null) {
      request.putHeader("x-api-key", key);
    }
    return Await.result(request.sendBuffer(body.toBuffer()));
  }

  private static MultiMap headers(String... pairs) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    for (int i = 0; i < pairs.length; i += 2) {
      headers.add(pairs[i], pairs[i + 1]);
    }
    return headers;
  }

  private static JsonObject click() {
    return new JsonObject().put("workspace_id", WS.toString())
        .put("landing_url", "https://lp.example/offer?fbclid=IwAR2x&ttclid=E.C.P.tt1&utm_source=fb"
            + "&utm_campaign=spring%20sale&utm_medium=cpc&other=1");
  }

  private ClickSession lastCaptured() {
    return ClickSession.fromJson(asked.get(asked.size() - 1).body());
  }

  @Test
  @DisplayName("from an allowed origin: a session made with the visitor's forwarded IP (the peer is a trusted proxy), "
      + "user agent, click ids and UTM parameters, granted to the page by CORS")
  void capture() {
    HttpResponse<Buffer> response = capture(trustingPort, PUBLIC, headers("Origin", LP,
        "User-Agent", "Mozilla/5.0 (Lp)", "X-Forwarded-For", "198.51.100.23, 10.1.2.3"), click());

    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    assertThat(response.getHeader("Access-Control-Allow-Origin")).isEqualTo(LP);
    JsonObject data = response.bodyAsJsonObject().getJsonObject("data");
    ClickSession click = lastCaptured();
    assertThat(data.getString("session_id")).isEqualTo(click.sessionId()).matches("[A-Za-z0-9_-]{22}");
    assertThat(data.getString("start_link")).isEqualTo("https://t.me/lp_bot?start=" + click.sessionId());
    assertThat(click.workspaceId()).isEqualTo(WS);
    assertThat(click.clientIp()).as("past the trusted proxy 10.1.2.3, the first it did not add")
        .isEqualTo("198.51.100.23");
    assertThat(click.userAgent()).isEqualTo("Mozilla/5.0 (Lp)");
    assertThat(click.fbclid()).isEqualTo("IwAR2x");
    assertThat(click.ttclid()).isEqualTo("E.C.P.tt1");
    assertThat(click.fbc()).as("built when sent, so a later _fbc cookie still wins").isNull();
    assertThat(click.utm()).isEqualTo(new JsonObject().put("utm_source", "fb").put("utm_medium", "cpc")
        .put("utm_campaign", "spring sale"));
  }

  @Test
  @DisplayName("what the body says wins over the URL and the request; a server's request (secret key) gets no IP "
      + "or user agent of its own")
  void givenWins() {
    capture(trustingPort, PUBLIC, headers("Origin", LP, "User-Agent", "Mozilla/5.0 (Lp)"), click()
        .put("fbclid", "given").put("client_ip", "203.0.113.5").put("user_agent", "Given/1.0"));
    ClickSession given = lastCaptured();
    assertThat(given.fbclid()).isEqualTo("given");
    assertThat(given.clientIp()).isEqualTo("203.0.113.5");
    assertThat(given.userAgent()).isEqualTo("Given/1.0");

    // Each from its own visitor, under the per-IP limit.
    capture(trustingPort, PUBLIC, headers("Origin", LP, "X-Forwarded-For", "198.51.100.61"),
        click().put("fbc", "fb.1.1700000000000.IwAR2x.AQ"));
    assertThat(lastCaptured().fbc()).as("this click's cookie, in a newer form")
        .isEqualTo("fb.1.1700000000000.IwAR2x.AQ");
    capture(trustingPort, PUBLIC, headers("Origin", LP, "X-Forwarded-For", "198.51.100.62"),
        click().put("fbc", "fb.1.1600000000000.IwAR-older"));
    assertThat(lastCaptured().fbc()).as("an earlier click's cookie: made anew from this fbclid when sent").isNull();
    capture(trustingPort, PUBLIC, headers("Origin", LP, "X-Forwarded-For", "198.51.100.63"),
        new JsonObject().put("workspace_id", WS.toString()).put("fbc", "fb.1.1600000000000.IwAR-older"));
    assertThat(lastCaptured().fbc()).as("no fbclid to compare with: kept").isEqualTo("fb.1.1600000000000.IwAR-older");

    HttpResponse<Buffer> server = capture(trustingPort, SECRET, headers("User-Agent", "backend/2",
        "X-Forwarded-For", "198.51.100.23"), click().put("session_id", "chosen-by-server"));
    assertThat(server.statusCode()).isEqualTo(200);
    ClickSession fromServer = lastCaptured();
    assertThat(fromServer.sessionId()).isEqualTo("chosen-by-server");
    assertThat(fromServer.clientIp()).isNull();
    assertThat(fromServer.userAgent()).isNull();
    assertThat(fromServer.fbclid()).as("the URL is read for any key").isEqualTo("IwAR2x");
  }

  @Test
  @DisplayName("X-Forwarded-For is ignored from a peer that is not a trusted proxy")
  void untrustedPeer() {
    capture(plainPort, PUBLIC, headers("Origin", LP, "X-Forwarded-For", "198.51.100.23"), click());
    assertThat(lastCaptured().clientIp()).isEqualTo("127.0.0.1");
    capture(trustingPort, PUBLIC, headers("Origin", LP, "X-Forwarded-For", "not-an-ip, 10.9.9.9"), click());
    assertThat(lastCaptured().clientIp()).as("the chain stops where it cannot be read").isEqualTo("10.9.9.9");
    capture(trustingPort, PUBLIC, headers("Origin", LP), click());
    assertThat(lastCaptured().clientIp()).as("a trusted peer without the header").isEqualTo("127.0.0.1");
    capture(trustingPort, PUBLIC, headers("Origin", LP, "X-Forwarded-For", "203.0.113.77",
        "X-Forwarded-For", "10.0.0.9, 10.0.0.8"), click());
    assertThat(lastCaptured().clientIp()).as("several headers read as one list, the last one last")
        .isEqualTo("203.0.113.77");
    capture(trustingPort, PUBLIC, headers("Origin", LP, "X-Forwarded-For", "10.0.0.7"), click());
    assertThat(lastCaptured().clientIp()).as("only proxies: the first of them").isEqualTo("10.0.0.7");
  }

  @Test
  @DisplayName("a publishable key may do nothing else: every other route answers 403, and so does a wrong origin, "
      + "a missing one, or a session id of its choosing")
  void onlySessions() {
    MultiMap fromLp = headers("Origin", LP);
    assertError(Await.result(client.post(trustingPort, "127.0.0.1", "/api/v1/events/custom").putHeaders(fromLp)
        .putHeader("x-api-key", PUBLIC).putHeader("Content-Type", "application/json")
        .sendBuffer(new JsonObject().put("event_name", "FTD").toBuffer())), 403, "forbidden");
    HttpResponse<Buffer> read = Await.result(client.get(trustingPort, "127.0.0.1", "/api/v1/events")
        .putHeader("x-api-key", PUBLIC).send());
    assertThat(assertError(read, 403, "forbidden").getString("message")).contains("only create click sessions");
    assertError(Await.result(client.get(trustingPort, "127.0.0.1", "/v1/integrations")
        .putHeader("x-api-key", PUBLIC).send()), 403, "forbidden");
    assertError(Await.result(client.post(trustingPort, "127.0.0.1", "/api/v1/sessions/invites")
        .putHeader("x-api-key", PUBLIC).putHeader("Content-Type", "application/json")
        .sendBuffer(new JsonObject().toBuffer())), 403, "forbidden");

    assertThat(assertError(capture(trustingPort, PUBLIC, headers(), click()), 403, "forbidden")
        .getString("message")).as("no Origin: not from a page").contains("allowed_origins");
    assertError(capture(trustingPort, PUBLIC, headers("Origin", "https://evil.example"), click()), 403,
        "forbidden");
    assertThat(assertError(capture(trustingPort, PUBLIC, headers("Origin", OTHER_LP), click()), 403, "forbidden")
        .getString("message")).as("another key's origin").contains("allowed_origins");
    assertError(capture(trustingPort, OTHER_PUBLIC, fromLp, click()), 403, "forbidden");
    assertThat(assertError(capture(trustingPort, PUBLIC, fromLp, click().put("session_id", "mine")), 400,
        "validation_failed").getJsonArray("details").getJsonObject(0).getString("field")).isEqualTo("session_id");
    assertError(capture(trustingPort, "pk-unknown", fromLp, click()), 401, "unauthorized");
    assertThat(asked).as("none reached the store").isEmpty();
  }

  @Test
  @DisplayName("CORS: a preflight from an allowed origin is granted for POST with the key header; from any other "
      + "origin it is refused without a grant")
  void preflight() {
    HttpResponse<Buffer> granted = Await.result(client.request(HttpMethod.OPTIONS, trustingPort, "127.0.0.1",
        "/api/v1/sessions").putHeader("Origin", OTHER_LP).putHeader("Access-Control-Request-Method", "POST")
        .putHeader("Access-Control-Request-Headers", "content-type,x-api-key").send());
    assertThat(granted.statusCode()).isEqualTo(204);
    assertThat(granted.getHeader("Access-Control-Allow-Origin")).isEqualTo(OTHER_LP);
    assertThat(granted.getHeader("Access-Control-Allow-Methods")).contains("POST");
    assertThat(granted.getHeader("Access-Control-Allow-Headers").toLowerCase()).contains("x-api-key",
        "content-type");
    assertThat(granted.getHeader("Access-Control-Max-Age")).isEqualTo("600");

    HttpResponse<Buffer> refused = Await.result(client.request(HttpMethod.OPTIONS, trustingPort, "127.0.0.1",
        "/api/v1/sessions").putHeader("Origin", "https://evil.example")
        .putHeader("Access-Control-Request-Method", "POST").send());
    assertThat(assertError(refused, 403, "forbidden").getString("message")).contains("not an allowed origin");
    assertThat(refused.getHeader("Access-Control-Allow-Origin")).isNull();
    HttpResponse<Buffer> elsewhere = Await.result(client.request(HttpMethod.OPTIONS, trustingPort, "127.0.0.1",
        "/api/v1/events/custom").putHeader("Origin", LP).putHeader("Access-Control-Request-Method", "POST").send());
    assertThat(elsewhere.getHeader("Access-Control-Allow-Origin")).as("no other route is open to pages").isNull();
  }

  @Test
  @DisplayName("each visitor's IP has its own limit on publishable-key requests; a workspace key has none")
  void perIpLimit() {
    for (int i = 0; i < PER_IP_BURST; i++) {
      assertThat(capture(trustingPort, PUBLIC, headers("Origin", LP, "X-Forwarded-For", "198.51.100.1"), click())
          .statusCode()).isEqualTo(200);
    }
    HttpResponse<Buffer> limited = capture(trustingPort, PUBLIC, headers("Origin", LP, "X-Forwarded-For",
        "198.51.100.1"), click());
    assertError(limited, 429, "rate_limited");
    assertThat(Long.parseLong(limited.getHeader("Retry-After"))).isPositive();
    assertThat(capture(trustingPort, PUBLIC, headers("Origin", LP, "X-Forwarded-For", "198.51.100.2"), click())
        .statusCode()).as("another visitor").isEqualTo(200);
    for (int i = 0; i <= PER_IP_BURST; i++) {
      assertThat(capture(trustingPort, SECRET, headers("X-Forwarded-For", "198.51.100.1"), click()).statusCode())
          .isEqualTo(200);
    }
  }

  @Test
  @DisplayName("visitors' captures from many addresses empty only the publishable keys' share of the workspace's "
      + "limit: its API key still has its whole bucket")
  void publishableShare() {
    int port = deploy(List.of("127.0.0.1"), List.of(new WorkspaceConfig(WS, "w", List.of(hash(SECRET)),
        List.of(new PublishableKey(hash(PUBLIC), List.of(LP))), new RateLimitConfig(0.001, 6), "lp_bot", 28,
        List.of(), Map.of(), null)));
    for (int i = 0; i < 3; i++) {
      assertThat(capture(port, PUBLIC, headers("Origin", LP, "X-Forwarded-For", "198.51.100." + (10 + i)), click())
          .statusCode()).as("visitor %d", i).isEqualTo(200);
    }
    assertError(capture(port, PUBLIC, headers("Origin", LP, "X-Forwarded-For", "198.51.100.99"), click()), 429,
        "rate_limited");
    for (int i = 0; i < 6; i++) {
      assertThat(capture(port, SECRET, headers(), click()).statusCode()).as("API key %d", i).isEqualTo(200);
    }
    assertError(capture(port, SECRET, headers(), click()), 429, "rate_limited");
  }
}
