package dev.eventrouter.server;

import dev.eventrouter.api.deliveries.IntegrationsApi;
import dev.eventrouter.api.events.EventsApi;
import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BreakerOpened;
import dev.eventrouter.bus.BusFailure;
import dev.eventrouter.bus.CredentialTest;
import dev.eventrouter.bus.EventRef;
import dev.eventrouter.bus.IngestReply;
import dev.eventrouter.bus.IngestRequest;
import dev.eventrouter.common.ProxyConfig;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.DataProcessing;
import dev.eventrouter.config.EventMappingOverride;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.config.GoogleAdsConfig;
import dev.eventrouter.config.IntegrationConfig;
import dev.eventrouter.config.ManagementConfig;
import dev.eventrouter.config.Network;
import dev.eventrouter.config.RateLimitConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.DeliveryFilter;
import dev.eventrouter.event.EventFilter;
import dev.eventrouter.event.EventIds;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.http.RequestIds;
import dev.eventrouter.http.StoreClient;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.RawHttp;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.healthchecks.Status;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.eventrouter.support.ApiAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP edge alone: the real HttpVerticle on a random port, with the store's side of the event bus answered by the
 * test (no database), so every edge rule and every bus answer can be driven exactly.
 */
@ExtendWith(VertxExtension.class)
class HttpEdgeUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final UUID OTHER = UUID.fromString("8c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final String KEY = "edge-key-1";
  private static final String OTHER_KEY = "edge-key-2";
  private static final UUID NO_BOT = UUID.fromString("9c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final String NO_BOT_KEY = "edge-key-3";
  // Short enough that the write margin is a tenth of it (50 ms) rather than its 100 ms cap.
  private static final long TIMEOUT_MS = 500;

  private Vertx vertx;
  private WebClient client;
  private int port;
  private int managementPort;
  private String deployment;
  private final List<Message<JsonObject>> asked = new CopyOnWriteArrayList<>();
  private volatile Consumer<Message<JsonObject>> store = message -> message.fail(BusFailure.UNAVAILABLE, "down");
  private volatile boolean databaseUp = true;
  private final PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    for (String address : List.of(Addresses.EVENTS_INGEST, Addresses.EVENTS_GET, Addresses.EVENTS_REDELIVER,
        Addresses.SESSIONS_CAPTURE, Addresses.SESSIONS_INVITE, Addresses.DELIVERIES_LIST,
        Addresses.DELIVERIES_REDELIVER, Addresses.INTEGRATIONS_SUMMARY, Addresses.EVENTS_LIST)) {
      Await.result(vertx.eventBus().<JsonObject>consumer(address, message -> {
        asked.add(message);
        store.accept(message);
      }).completion());
    }
    AccessControl access = new AccessControl(List.of(workspace(WS, KEY, 1000, "edge_bot"),
        workspace(OTHER, OTHER_KEY, 1, "edge_bot"), workspace(NO_BOT, NO_BOT_KEY, 1000, null)),
        System::nanoTime);
    HealthChecks readiness = HealthChecks.create(vertx)
        .register("database", promise -> promise.complete(new Status().setOk(databaseUp)));
    HttpVerticle verticle = new HttpVerticle(new HttpConfig("127.0.0.1", 0, 2048, 1, TIMEOUT_MS), access,
        metrics, readiness);
    deployment = Await.result(vertx.deployVerticle(verticle));
    port = verticle.actualPort();
    ManagementVerticle management = new ManagementVerticle(new ManagementConfig("127.0.0.1", 0, null), metrics,
        readiness);
    Await.result(vertx.deployVerticle(management));
    managementPort = management.actualPort();
    client = WebClient.create(vertx, new WebClientOptions().setFollowRedirects(false));
  }

  @AfterEach
  void stop() {
    client.close();
  }

  private static WorkspaceConfig workspace(UUID id, String key, double burst, String botName) {
    byte[] hash = HexFormat.of().parseHex(ApiKeys.configValue(key).substring(ApiKeys.PREFIX.length()));
    return new WorkspaceConfig(id, "w", List.of(hash), List.of(), new RateLimitConfig(0.001, burst), botName, 28,
        id.equals(WS) ? List.of(integration("m1", Network.META, null), integration("t1", Network.TIKTOK, "TT1"),
            integration("w1", Network.WEBHOOK, null), blank("m0", Network.META, "", "token"),
            blank("t0", Network.TIKTOK, "TT0", ""), integration("s1", Network.SNAPCHAT, null), google("g1"))
            : List.of(),
        Map.of("MyDeposit", new EventMappingOverride("Purchase", null, null, null)), null);
  }

  private static IntegrationConfig integration(String id, Network network, String testEventCode) {
    boolean tiktok = network == Network.TIKTOK;
    return new IntegrationConfig(id, network, "123", "token", "http://unused", "v25.0", "chat", null, testEventCode,
        true, false, tiktok ? Set.of("REG", "FTD") : null, new DataProcessing(false, 0, 0), null, false,
        IntegrationConfig.defaultSendOn(network),
        tiktok ? new ProxyConfig(ProxyConfig.SOCKS5, "10.0.0.9", 1080, null, "u", "proxy-hunter2") : null);
  }

  private static IntegrationConfig google(String id) {
    return new IntegrationConfig(id, Network.GOOGLE_ADS, "1234567890", "refresh-token", "http://unused", "v21",
        "chat", null, null, true, false, null, new DataProcessing(false, 0, 0), null, false,
        IntegrationConfig.defaultSendOn(Network.GOOGLE_ADS), null, new GoogleAdsConfig("1234567890", null,
        "developer-token", "client", "client-secret", "http://unused/token",
        Map.of("FTD", "customers/1234567890/conversionActions/1")));
  }

  /** As init writes them: disabled, with its pixel or its token still blank. */
  private static IntegrationConfig blank(String id, Network network, String pixel, String token) {
    return new IntegrationConfig(id, network, pixel, token, "http://unused", "v25.0", "chat", null, "TEST1", false,
        false, null, new DataProcessing(false, 0, 0), null, false, IntegrationConfig.defaultSendOn(network), null);
  }

  private static JsonObject event() {
    return new JsonObject().put("event_name", "REG").put("telegram_id", 42).put("workspace_id", WS.toString());
  }

  private HttpResponse<Buffer> post(String path, String key, String contentType, String body) {
    var request = client.post(port, "127.0.0.1", path);
    if (key != null) {
      request.putHeader("x-api-key", key);
    }
    if (contentType != null) {
      request.putHeader("Content-Type", contentType);
    }
    return Await.result(request.sendBuffer(Buffer.buffer(body)));
  }

  private HttpResponse<Buffer> postEvent(JsonObject event) {
    return post("/api/v1/events/custom", KEY, "application/json", event.encode());
  }

  @Test
  @DisplayName("the event debugger: /ui/ served from the jar without a key, under a strict CSP, never framed; /ui "
      + "sent to /ui/, where the page's relative links resolve")
  void debuggerPage() {
    HttpResponse<Buffer> page = Await.result(client.get(port, "127.0.0.1", "/ui/").send());
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.getHeader("Content-Type")).startsWith("text/html");
    assertThat(page.bodyAsString()).contains("<script type=\"module\" src=\"ui.js\"></script>")
        .doesNotContain("<script>", "style=", "onclick");
    String csp = page.getHeader("Content-Security-Policy");
    assertThat(csp).contains("default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
        "frame-ancestors 'none'").doesNotContain("unsafe");
    assertThat(page.getHeader("X-Frame-Options")).isEqualTo("DENY");
    assertThat(page.getHeader("X-Content-Type-Options")).isEqualTo("nosniff");
    assertThat(page.getHeader("Referrer-Policy")).isEqualTo("no-referrer");
    assertThat(page.getHeader("Cache-Control")).isEqualTo("no-cache");
    HttpResponse<Buffer> script = Await.result(client.get(port, "127.0.0.1", "/ui/ui.js").send());
    assertThat(script.getHeader("Content-Security-Policy")).isEqualTo(csp);
    // ui.js and every module it imports, directly or not: each served as JavaScript (a module of another type is
    // refused, and nosniff lets the browser guess nothing).
    Set<String> modules = new LinkedHashSet<>(List.of("ui.js"));
    Deque<String> unread = new ArrayDeque<>(modules);
    while (!unread.isEmpty()) {
      String name = unread.pop();
      HttpResponse<Buffer> module = Await.result(client.get(port, "127.0.0.1", "/ui/" + name).send());
      assertThat(module.statusCode()).as(name).isEqualTo(200);
      assertThat(module.getHeader("Content-Type")).as(name).startsWith("text/javascript");
      assertThat(module.bodyAsString()).as("values go in as text only").doesNotContain("innerHTML", "outerHTML",
          "insertAdjacentHTML", "document.write", "eval(");
      Matcher imported = Pattern.compile("from '\\./([\\w-]+\\.js)'").matcher(module.bodyAsString());
      while (imported.find()) {
        if (modules.add(imported.group(1))) {
          unread.add(imported.group(1));
        }
      }
    }
    assertThat(modules).as("the shared helpers among them").contains("dom.js");
    HttpResponse<Buffer> bare = Await.result(client.get(port, "127.0.0.1", "/ui").send());
    assertThat(bare.statusCode()).isEqualTo(302);
    assertThat(bare.getHeader("Location")).isEqualTo("/ui/");
    assertError(Await.result(client.get(port, "127.0.0.1", "/ui/missing.js").send()), 404, "not_found");

    HttpResponse<Buffer> sdk = Await.result(client.get(port, "127.0.0.1", "/sdk/v1/prelanding.js").send());
    assertThat(sdk.statusCode()).isEqualTo(200);
    assertThat(sdk.getHeader("Content-Type")).startsWith("text/javascript");
    assertThat(sdk.getHeader("Cross-Origin-Resource-Policy")).as("loaded by pages of other origins")
        .isEqualTo("cross-origin");
    assertThat(sdk.getHeader("Cache-Control")).contains("max-age=3600");
    assertThat(sdk.bodyAsString()).contains("/api/v1/sessions", "keepalive").doesNotContain("document.cookie =",
        "localStorage", "innerHTML");
    HttpResponse<Buffer> demo = Await.result(client.get(port, "127.0.0.1", "/demo/").send());
    assertThat(demo.statusCode()).isEqualTo(200);
    assertThat(demo.getHeader("Content-Security-Policy")).isEqualTo(csp);
    assertThat(demo.bodyAsString()).contains("/sdk/v1/prelanding.js", "data-key=\"demo-publishable-key\"");
    assertThat(Await.result(client.get(port, "127.0.0.1", "/demo").send()).getHeader("Location"))
        .isEqualTo("/demo/");
    HttpResponse<Buffer> preflight = Await.result(client.request(io.vertx.core.http.HttpMethod.OPTIONS, port,
        "127.0.0.1", "/api/v1/sessions").putHeader("Origin", "https://lp.example")
        .putHeader("Access-Control-Request-Method", "POST").send());
    assertThat(preflight.getHeader("Access-Control-Allow-Origin")).as("no publishable key: no page is granted")
        .isNull();
    assertThat(asked).as("the store is never asked").isEmpty();
  }

  @Test
  @DisplayName("deliveries: the list and the bulk redelivery ask the store with the key's workspace and answer "
      + "its reply; the redelivery is a JSON POST like the others")
  void deliveries() {
    JsonObject page = new JsonObject().put("deliveries", new JsonArray()).put("next_cursor", (String) null);
    store = message -> message.reply(message.address().equals(Addresses.DELIVERIES_LIST) ? page
        : new JsonObject().put("requeued", 3).put("more", false));

    HttpResponse<Buffer> listed = Await.result(client.get(port, "127.0.0.1", "/v1/deliveries?status=failed")
        .putHeader("x-api-key", KEY).send());
    assertThat(listed.statusCode()).isEqualTo(200);
    assertThat(listed.bodyAsJsonObject().getJsonObject("data")).isEqualTo(page);
    DeliveryFilter asked0 = DeliveryFilter.fromJson(asked.get(0).body());
    assertThat(asked0.workspaceId()).isEqualTo(WS);
    assertThat(asked0.statuses()).containsExactly("failed");

    HttpResponse<Buffer> requeued = post("/api/v1/deliveries/redeliver", KEY, "application/json", "{}");
    assertThat(requeued.statusCode()).isEqualTo(200);
    assertThat(requeued.bodyAsJsonObject().getJsonObject("data").getInteger("requeued")).isEqualTo(3);
    assertThat(asked.get(1).address()).isEqualTo(Addresses.DELIVERIES_REDELIVER);
    assertError(post("/api/v1/deliveries/redeliver", KEY, "text/plain", "{}"), 415, "unsupported_media_type");
    assertThat(asked).hasSize(2);
  }

  @Test
  @DisplayName("credential test: asks the integration's network with the query's or the config's test code and "
      + "the request timeout, answers the verdict; refuses an unknown integration, a missing code, bad parameters; "
      + "503 when no forwarder runs")
  void credentialTest() {
    JsonObject verdict = new JsonObject().put("verdict", "accepted");
    List<Message<JsonObject>> tests = new CopyOnWriteArrayList<>();
    for (String network : List.of("meta", "tiktok", "webhook", "snapchat", "google_ads")) {
      Await.result(vertx.eventBus().<JsonObject>consumer(Addresses.integrationTest(network), message -> {
        tests.add(message);
        message.reply(verdict);
      }).completion());
    }
    HttpResponse<Buffer> meta = post("/v1/integrations/m1/test?test_event_code=Q1&event_name=FTD", KEY, null, "");
    assertThat(meta.statusCode()).isEqualTo(200);
    assertThat(meta.bodyAsJsonObject().getJsonObject("data")).isEqualTo(verdict);
    assertThat(tests.get(0).address()).isEqualTo(Addresses.integrationTest("meta"));
    assertThat(CredentialTest.fromJson(tests.get(0).body()))
        .isEqualTo(new CredentialTest(WS, "m1", "FTD", "Q1", TIMEOUT_MS));
    assertThat(post("/api/v1/integrations/t1/test", KEY, "text/plain", "ignored").statusCode()).isEqualTo(200);
    assertThat(tests.get(1).address()).isEqualTo(Addresses.integrationTest("tiktok"));
    assertThat(CredentialTest.fromJson(tests.get(1).body()))
        .isEqualTo(new CredentialTest(WS, "t1", IntegrationsApi.DEFAULT_TEST_EVENT, "TT1", TIMEOUT_MS));

    assertThat(post("/v1/integrations/w1/test", KEY, null, "").statusCode()).isEqualTo(200);
    assertThat(CredentialTest.fromJson(tests.get(2).body())).as("a webhook has no test tool: a plain marker")
        .isEqualTo(new CredentialTest(WS, "w1", IntegrationsApi.DEFAULT_TEST_EVENT, IntegrationsApi.WEBHOOK_TEST_CODE,
            TIMEOUT_MS));
    assertThat(post("/v1/integrations/w1/test?test_event_code=W9", KEY, null, "").statusCode()).isEqualTo(200);
    assertThat(CredentialTest.fromJson(tests.get(3).body()).testEventCode()).as("the asked code kept")
        .isEqualTo("W9");
    assertThat(assertError(post("/v1/integrations/x9/test", KEY, null, ""), 404, "not_found")
        .getString("message")).isEqualTo("This workspace has no integration x9.");
    assertThat(assertError(post("/v1/integrations/m1/test", OTHER_KEY, null, ""), 404, "not_found")
        .getString("message")).contains("m1");
    assertError(post("/v1/integrations/m1/test", KEY, null, ""), 422, "test_event_code_required");
    assertThat(assertError(post("/v1/integrations/t1/test?event_name=%20x", KEY, null, ""), 400,
        "validation_failed").getJsonArray("details").getJsonObject(0).getString("field")).isEqualTo("event_name");
    assertThat(assertError(post("/v1/integrations/t1/test?test_event_code=a.b", KEY, null, ""), 400,
        "validation_failed").getJsonArray("details").getJsonObject(0).getString("field"))
        .isEqualTo("test_event_code");
    assertError(post("/v1/integrations/t1/test", null, null, ""), 401, "unauthorized");
    assertThat(assertError(post("/v1/integrations/m0/test", KEY, null, ""), 422, "integration_not_configured")
        .getString("message")).contains("pixel or access token is still blank");
    assertError(post("/v1/integrations/t0/test?test_event_code=Q2", KEY, null, ""), 422, "integration_not_configured");
    assertThat(tests).hasSize(4);

    assertThat(post("/v1/integrations/s1/test", KEY, null, "").statusCode()).isEqualTo(200);
    assertThat(CredentialTest.fromJson(tests.get(4).body()).testEventCode())
        .as("no code for Snapchat: its validation endpoint, which counts nothing").isEqualTo("VALIDATE");
    assertThat(assertError(post("/v1/integrations/g1/test", KEY, null, ""), 400, "validation_failed")
        .getJsonArray("details").getJsonObject(0).getString("message"))
        .isEqualTo("this integration has no conversion action for REG (its conversion_actions: FTD)");
    assertThat(post("/v1/integrations/g1/test?event_name=FTD", KEY, null, "").statusCode()).isEqualTo(200);
    assertThat(CredentialTest.fromJson(tests.get(5).body()))
        .isEqualTo(new CredentialTest(WS, "g1", "FTD", "VALIDATE", TIMEOUT_MS));
  }

  @Test
  @DisplayName("the integrations summary: every configured integration in order, the store's counts and pauses on "
      + "it, every state present; the window asked of the store; a bad window refused")
  void integrationsSummary() {
    JsonObject coverage = new JsonObject().put("deliveries", 5).put("carried", new JsonObject().put("em", 2))
        .put("share", new JsonObject().put("em", 0.4));
    JsonObject paused = new JsonObject().put("reason", "tiktok code 40105: revoked")
        .put("paused_at", "2026-11-22T00:00:00Z");
    store = message -> message.reply(new JsonObject()
        .put("integrations", new JsonObject().put("m1", new JsonObject()
            .put("deliveries", new JsonObject().put("delivered", 5).put("failed", 1)).put("match_keys", coverage)))
        .put("paused", new JsonObject().put("t1", paused))
        .put("events_by_session_source", new JsonObject().put("supplied", 3).put("none", 2)));
    Instant openUntil = Instant.now().plusSeconds(60);
    vertx.eventBus().publish(Addresses.BREAKER_OPENED, new BreakerOpened("tiktok", WS, "t1", openUntil).toJson());
    vertx.eventBus().publish(Addresses.BREAKER_OPENED, new BreakerOpened("meta", WS, "w1", Instant.now()).toJson());
    vertx.eventBus().publish(Addresses.BREAKER_OPENED, new BreakerOpened("meta", UUID.randomUUID(), "m1", openUntil)
        .toJson());
    Await.until("the notices heard", Await.WAIT, () -> Await.result(client.get(port, "127.0.0.1",
        "/v1/integrations").putHeader("x-api-key", KEY).send()).bodyAsJsonObject().getJsonObject("data")
        .getJsonArray("integrations").getJsonObject(1).getValue("breaker_open_until") != null);
    asked.clear();
    Instant before = Instant.now();
    HttpResponse<Buffer> response = Await.result(client.get(port, "127.0.0.1", "/v1/integrations")
        .putHeader("x-api-key", KEY).send());
    assertThat(response.statusCode()).isEqualTo(200);
    JsonObject data = response.bodyAsJsonObject().getJsonObject("data");
    assertThat(data.getInteger("window_hours")).isEqualTo(24);
    Instant since = Instant.parse(data.getString("since"));
    assertThat(since).isBetween(before.minus(Duration.ofHours(24)).minusSeconds(1),
        Instant.now().minus(Duration.ofHours(24)));
    JsonObject asked0 = asked.get(0).body();
    assertThat(asked0.getString("workspace_id")).isEqualTo(WS.toString());
    assertThat(asked0.getLong("from_event_id")).isEqualTo(EventIds.firstIdAt(since));

    assertThat(data.getJsonObject("events")).isEqualTo(new JsonObject().put("accepted", 5)
        .put("by_session_source", new JsonObject().put("supplied", 3).put("invite", 0).put("analytics", 0)
            .put("last_known", 0).put("none", 2).put("postback", 0)));
    JsonArray integrations = data.getJsonArray("integrations");
    assertThat(integrations.stream().map(i -> ((JsonObject) i).getString("integration_id")))
        .containsExactly("m1", "t1", "w1", "m0", "t0", "s1", "g1");
    JsonObject m1 = integrations.getJsonObject(0);
    assertThat(m1.getString("network")).isEqualTo("meta");
    assertThat(m1.getBoolean("enabled")).isTrue();
    assertThat(m1.getBoolean("dry_run")).isFalse();
    assertThat(m1.containsKey("test_event_code")).isTrue();
    assertThat(m1.getValue("test_event_code")).isNull();
    assertThat(integrations.getJsonObject(1).getString("test_event_code")).isEqualTo("TT1");
    assertThat(response.bodyAsString()).as("no credential in the summary").doesNotContain("token");
    assertThat(m1.containsKey("events")).isTrue();
    assertThat(m1.getValue("events")).isNull();
    assertThat(m1.getValue("paused")).isNull();
    assertThat(m1.getJsonObject("match_keys")).isEqualTo(coverage);
    assertThat(m1.getJsonObject("deliveries").fieldNames()).containsExactlyElementsOf(DeliveryFilter.STATES);
    assertThat(m1.getJsonObject("deliveries").getLong("delivered")).isEqualTo(5);
    assertThat(m1.getJsonObject("deliveries").getLong("failed")).isEqualTo(1);
    assertThat(m1.getJsonObject("deliveries").getLong("pending")).isZero();
    JsonObject t1 = integrations.getJsonObject(1);
    assertThat(t1.getJsonObject("paused")).isEqualTo(paused);
    assertThat(t1.getString("breaker_open_until")).as("its breaker opened on some node").isEqualTo(openUntil.toString());
    assertThat(m1.getValue("breaker_open_until")).as("another workspace's m1 is not this one").isNull();
    assertThat(integrations.getJsonObject(2).getValue("breaker_open_until")).as("a breaker open no more").isNull();
    assertThat(t1.getJsonArray("events")).as("sorted").containsExactly("FTD", "REG");
    assertThat(t1.getString("proxy")).isEqualTo("socks5://10.0.0.9:1080");
    assertThat(m1.getValue("proxy")).isNull();
    assertThat(integrations.encode()).doesNotContain("proxy-hunter2");
    assertThat(t1.getValue("match_keys")).isNull();
    assertThat(t1.getJsonObject("deliveries").getLong("delivered")).isZero();

    HttpResponse<Buffer> week = Await.result(client.get(port, "127.0.0.1", "/api/v1/integrations?window_hours=168")
        .putHeader("x-api-key", KEY).send());
    assertThat(week.bodyAsJsonObject().getJsonObject("data").getInteger("window_hours")).isEqualTo(168);
    for (String bad : List.of("0", "169", "999", "1000", "x", "-1", "01")) {
      HttpResponse<Buffer> refused = Await.result(client.get(port, "127.0.0.1", "/api/v1/integrations?window_hours="
          + bad).putHeader("x-api-key", KEY).send());
      assertThat(assertError(refused, 400, "validation_failed").getJsonArray("details").getJsonObject(0)
          .getString("field")).as(bad).isEqualTo("window_hours");
    }
    assertThat(asked).hasSize(2);
  }

  @Test
  @DisplayName("a credential test with no forwarder of the network running: 503 saying why, with Retry-After")
  void credentialTestWithoutForwarder() {
    HttpResponse<Buffer> response = post("/v1/integrations/t1/test", KEY, null, "");
    JsonObject error = assertError(response, 503, "unavailable");
    assertThat(error.getString("message")).isEqualTo(StoreClient.NO_HANDLER);
    assertThat(response.getHeader("Retry-After")).isEqualTo("5");
  }

  @Test
  @DisplayName("the events list asks the store with the key's workspace and the query's filter, and answers its page")
  void eventsList() {
    store = message -> message.reply(new JsonObject().put("events", new JsonArray()));
    Instant before = Instant.now();
    HttpResponse<Buffer> listed = Await.result(client.get(port, "127.0.0.1", "/v1/events?event_name=FTD&limit=5")
        .putHeader("x-api-key", OTHER_KEY).send());
    assertThat(listed.statusCode()).isEqualTo(200);
    JsonObject first = listed.bodyAsJsonObject().getJsonObject("data");
    assertThat(first.getJsonArray("events")).isEmpty();
    assertThat(first.containsKey("next_before")).isTrue();
    assertThat(first.getValue("next_before")).as("no more pages").isNull();
    assertThat(Long.parseLong(first.getString("next_after").substring(4))).as("a first page: poll from what is "
        + "settled, twice the timeout ago").isBetween(EventIds.firstIdAt(before.minusMillis(2 * TIMEOUT_MS)) - 1,
        EventIds.firstIdAt(Instant.now().minusMillis(2 * TIMEOUT_MS)) - 1);
    assertThat(asked.get(0).address()).isEqualTo(Addresses.EVENTS_LIST);
    EventFilter filter = EventFilter.fromJson(asked.get(0).body());
    assertThat(filter.workspaceId()).isEqualTo(OTHER);
    assertThat(filter.eventName()).isEqualTo("FTD");
    assertThat(filter.limit()).isEqualTo(5);
    HttpResponse<Buffer> refused = Await.result(client.get(port, "127.0.0.1", "/v1/events?limit=0")
        .putHeader("x-api-key", KEY).send());
    assertError(refused, 400, "validation_failed");
    assertThat(asked).hasSize(1);

    long older = EventIds.firstIdAt(Instant.now().minusSeconds(3600));
    long newer = older + 2;
    JsonArray oldestFirst = new JsonArray()
        .add(new JsonObject().put("event_id", "evt_" + older).put("value", "1.50"))
        .add(new JsonObject().put("event_id", "evt_" + newer).put("value", null));
    store = message -> message.reply(new JsonObject().put("events", oldestFirst.copy()));
    JsonObject poll = Await.result(client.get(port, "127.0.0.1", "/v1/events?after=evt_" + (older - 1) + "&limit=2")
        .putHeader("x-api-key", KEY).send()).bodyAsJsonObject().getJsonObject("data");
    assertThat(EventFilter.fromJson(asked.get(1).body()).oldestFirst()).isTrue();
    assertThat(poll.getString("next_after")).as("a full poll moves past its last event").isEqualTo("evt_" + newer);
    assertThat(poll.containsKey("next_before")).isFalse();
    assertThat(poll.getJsonArray("events").getJsonObject(0).getValue("value")).isEqualTo(1.5);
    JsonObject partPoll = Await.result(client.get(port, "127.0.0.1", "/v1/events?after=evt_" + (older - 1)
        + "&limit=3").putHeader("x-api-key", KEY).send()).bodyAsJsonObject().getJsonObject("data");
    assertThat(partPoll.getString("next_after")).as("long settled: up to its last event").isEqualTo("evt_" + newer);

    JsonArray newestFirst = new JsonArray().add(oldestFirst.getJsonObject(1)).add(oldestFirst.getJsonObject(0));
    store = message -> message.reply(new JsonObject().put("events", newestFirst.copy()));
    JsonObject page = Await.result(client.get(port, "127.0.0.1", "/v1/events?limit=2&before=evt_" + (newer + 9))
        .putHeader("x-api-key", KEY).send()).bodyAsJsonObject().getJsonObject("data");
    assertThat(page.getString("next_before")).as("a full page: older ones follow").isEqualTo("evt_" + older);
    assertThat(page.containsKey("next_after")).as("only a first page says where to poll from").isFalse();
    JsonObject firstFull = Await.result(client.get(port, "127.0.0.1", "/v1/events?limit=2")
        .putHeader("x-api-key", KEY).send()).bodyAsJsonObject().getJsonObject("data");
    assertThat(firstFull.getString("next_after")).as("from its newest event, long settled, even when full")
        .isEqualTo("evt_" + newer);

    store = message -> message.reply(new JsonObject().put("events", new JsonArray()));
    long recent = EventIds.firstIdAt(Instant.now());
    JsonObject nothingNew = Await.result(client.get(port, "127.0.0.1", "/v1/events?after=evt_" + recent)
        .putHeader("x-api-key", KEY).send()).bodyAsJsonObject().getJsonObject("data");
    assertThat(nothingNew.getString("next_after")).as("nothing new after a recent cursor: it stays")
        .isEqualTo("evt_" + recent);
    Instant since = Instant.now().plusSeconds(1).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    JsonObject justStarted = Await.result(client.get(port, "127.0.0.1", "/v1/events?since=" + since)
        .putHeader("x-api-key", KEY).send()).bodyAsJsonObject().getJsonObject("data");
    assertThat(justStarted.getString("next_after")).as("a range that starts later than what is settled: its start")
        .isEqualTo("evt_" + (EventIds.firstIdAt(since) - 1));
  }

  @Test
  @DisplayName("an event goes over the bus with its deadline and key, and the store's reply is the answer")
  void ingest() {
    store = message -> message.reply(new IngestReply("evt_1", "s1", IngestReply.PROCESSED, false));
    Instant before = Instant.now();
    HttpResponse<Buffer> response = Await.result(client.post(port, "127.0.0.1", "/v1/events/custom")
        .putHeader("x-api-key", KEY)
        .putHeader("Content-Type", "application/json; charset=utf-8").putHeader("Idempotency-Key", "order-1")
        .sendBuffer(event().toBuffer()));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.bodyAsJsonObject()).isEqualTo(new JsonObject().put("ok", true).put("data", new JsonObject()
        .put("event_id", "evt_1").put("session_id", "s1").put("status", "processed")));
    assertThat(response.getHeader("Idempotent-Replayed")).isNull();
    assertThat(response.getHeader("X-Request-Id")).matches("[0-9a-f]{16}");
    IngestRequest sent = sentRequest(asked.get(0));
    assertThat(sent.idempotencyKey()).isEqualTo("order-1");
    assertThat(sent.requestHash()).isEqualTo(sent.event().contentHash());
    // The write stops a margin (a tenth of the timeout, at most 100 ms) before the client is told 503.
    assertThat(Duration.between(sent.receivedAt(), sent.deadline()).toMillis()).isBetween(TIMEOUT_MS - 51,
        TIMEOUT_MS - 50);
    assertThat(sent.receivedAt()).isBetween(before.minusSeconds(1), Instant.now());
  }

  @Test
  @DisplayName("the answer written out by hand is JSON whatever the session id holds")
  void answerEscapes() {
    String odd = "q\"b\\s/\u0001\u00e9\u2028";
    JsonObject answer = new JsonObject(EventsApi.answer(new IngestReply("evt_7", odd, IngestReply.PROCESSED, false)));
    assertThat(answer).isEqualTo(new JsonObject().put("ok", true).put("data", new JsonObject()
        .put("event_id", "evt_7").put("session_id", odd).put("status", "processed")));
  }

  @Test
  @DisplayName("a replayed key is marked Idempotent-Replayed; without a key no hash is sent")
  void replayed() {
    store = message -> message.reply(new IngestReply("evt_1", null, IngestReply.PROCESSED, true));
    HttpResponse<Buffer> response = postEvent(event());
    assertThat(response.getHeader("Idempotent-Replayed")).isEqualTo("true");
    assertThat(response.bodyAsString()).as("the answer names the absent session as null")
        .isEqualTo("{\"ok\":true,\"data\":{\"event_id\":\"evt_1\",\"session_id\":null,\"status\":\"processed\"}}");
    IngestRequest sent = sentRequest(asked.get(0));
    assertThat(sent.idempotencyKey()).isNull();
    assertThat(sent.requestHash()).isNull();
  }

  @Test
  @DisplayName("each bus failure becomes its documented answer; silence past the timeout is 503")
  void busFailures() {
    store = message -> message.fail(BusFailure.IDEMPOTENCY_CONFLICT, "conflict");
    assertError(postEvent(event()), 409, "idempotency_conflict");
    store = message -> message.fail(BusFailure.REFUSED, "The database refused a value (SQLSTATE 22P05).");
    JsonObject refused = assertError(postEvent(event()), 400, "validation_failed");
    assertThat(refused.getString("message")).contains("22P05");
    store = message -> message.fail(BusFailure.UNAVAILABLE, "down");
    HttpResponse<Buffer> down = postEvent(event());
    assertError(down, 503, "unavailable");
    assertThat(down.getHeader("Retry-After")).isEqualTo("5");
    store = message -> { };
    assertError(postEvent(event()), 503, "unavailable");
  }

  @Test
  @DisplayName("the edge answers in its order: key, rate limit, content type, JSON, workspace, fields")
  void edgeOrder() {
    assertError(post("/api/v1/events/custom", null, "text/plain", "x"), 401, "unauthorized");
    assertError(post("/api/v1/events/custom", "wrong", "application/json", "{}"), 401, "unauthorized");
    assertError(post("/api/v1/events/custom", KEY, "text/plain", event().encode()), 415, "unsupported_media_type");
    assertError(post("/api/v1/events/custom", KEY, null, event().encode()), 415, "unsupported_media_type");
    assertError(post("/api/v1/events/custom", KEY, "application/json", "[1]"), 400, "invalid_json");
    assertError(post("/api/v1/events/custom", KEY, "application/json",
        event().put("workspace_id", OTHER.toString()).encode()), 403, "forbidden");
    assertError(post("/api/v1/events/custom", KEY, "application/json", event().put("telegram_id", "x").encode()),
        400, "validation_failed");
    JsonObject unnamed = assertError(post("/api/v1/events/custom", KEY, "application/json",
        event().put("workspace_id", null).encode()), 400, "validation_failed");
    assertThat(unnamed.getJsonArray("details").getJsonObject(0)).isEqualTo(new JsonObject()
        .put("field", "workspace_id").put("message", "required"));
    assertError(post("/api/v1/events/custom", KEY, "application/json", "x".repeat(3000)), 413, "payload_too_large");
    assertThat(asked).as("nothing reached the store").isEmpty();
    // The other workspace's burst is one request: the second is limited before anything else is read.
    post("/api/v1/sessions", OTHER_KEY, "application/json", new JsonObject().put("workspace_id", OTHER.toString())
        .encode());
    HttpResponse<Buffer> limited = post("/api/v1/sessions", OTHER_KEY, "text/plain", "x");
    assertError(limited, 429, "rate_limited");
    assertThat(Long.parseLong(limited.getHeader("Retry-After"))).isPositive();
    assertThat(asked).as("only the first, allowed request of the limited workspace reached the store").hasSize(1);
  }

  @Test
  @DisplayName("an Idempotency-Key must be 1 to 255 printable ASCII characters")
  void idempotencyKeyRule() {
    for (String bad : new String[] {"", "k".repeat(256), "clé", "a\tb"}) {
      HttpResponse<Buffer> response = Await.result(client.post(port, "127.0.0.1", "/api/v1/events/custom")
          .putHeader("x-api-key", KEY)
          .putHeader("Content-Type", "application/json").putHeader("Idempotency-Key", bad)
          .sendBuffer(event().toBuffer()));
      assertThat(response.statusCode()).as("Idempotency-Key [%s]", bad).isEqualTo(400);
      assertError(response, 400, "validation_failed");
    }
    assertThat(asked).isEmpty();
  }

  @Test
  @DisplayName("status and redeliver ask with the key's own workspace; an id too large for a number is 404")
  void statusAndRedeliver() {
    store = message -> {
      if (message.address().equals(Addresses.EVENTS_GET)) {
        boolean priced = EventRef.fromJson(message.body()).eventId() == 7;
        message.reply(new JsonObject().put("event_id", "evt_7").put("value", priced ? "19.99" : null));
      } else {
        message.reply(new JsonObject().put("event_id", "evt_7").put("requeued", 2));
      }
    };
    HttpResponse<Buffer> status = Await.result(client.get(port, "127.0.0.1", "/api/v1/events/evt_7")
        .putHeader("x-api-key", KEY)
        .send());
    assertThat(status.statusCode()).isEqualTo(200);
    assertThat(status.bodyAsJsonObject().getJsonObject("data").getValue("value")).isEqualTo(19.99);
    assertThat(EventRef.fromJson(asked.get(0).body())).isEqualTo(new EventRef(WS, 7));
    HttpResponse<Buffer> unpriced = Await.result(client.get(port, "127.0.0.1", "/api/v1/events/evt_6")
        .putHeader("x-api-key", KEY).send());
    assertThat(unpriced.bodyAsJsonObject().getJsonObject("data").getValue("value", "absent")).isNull();
    asked.remove(1);
    HttpResponse<Buffer> redeliver = post("/v1/events/evt_7/redeliver", KEY, null, "");
    assertThat(redeliver.bodyAsJsonObject().getJsonObject("data").getInteger("requeued")).isEqualTo(2);
    assertThat(asked.get(1).address()).isEqualTo(Addresses.EVENTS_REDELIVER);
    assertError(Await.result(client.get(port, "127.0.0.1", "/api/v1/events/evt_99999999999999999999")
        .putHeader("x-api-key", KEY)
        .send()), 404, "not_found");
    assertError(Await.result(client.get(port, "127.0.0.1", "/api/v1/events/evt_7").send()), 401, "unauthorized");
    store = message -> message.fail(BusFailure.NOT_FOUND, "none");
    assertError(Await.result(client.get(port, "127.0.0.1", "/api/v1/events/evt_8").putHeader("x-api-key", KEY).send()),
        404, "not_found");
    assertError(Await.result(client.get(port, "127.0.0.1", "/api/v1/events/custom").putHeader("x-api-key", KEY).send()),
        405, "method_not_allowed");
  }

  @Test
  @DisplayName("a captured session answers its id and the bot's start link; an invite answers who joined")
  void sessions() {
    store = message -> message.reply(message.body());
    HttpResponse<Buffer> click = post("/api/v1/sessions", KEY, "application/json",
        new JsonObject().put("workspace_id", WS.toString()).put("session_id", "abc").encode());
    assertThat(click.bodyAsJsonObject().getJsonObject("data")).isEqualTo(new JsonObject().put("session_id", "abc")
        .put("start_link", "https://t.me/edge_bot?start=abc"));
    HttpResponse<Buffer> invite = post("/api/v1/sessions/invites", KEY, "application/json", new JsonObject()
        .put("workspace_id", WS.toString()).put("session_id", "abc").put("telegram_id", 9).encode());
    assertThat(invite.bodyAsJsonObject().getJsonObject("data")).isEqualTo(new JsonObject().put("session_id", "abc")
        .put("telegram_id", 9));
    assertThat(asked).extracting(Message::address).containsExactly(Addresses.SESSIONS_CAPTURE,
        Addresses.SESSIONS_INVITE);
    HttpResponse<Buffer> noBot = post("/api/v1/sessions", NO_BOT_KEY, "application/json",
        new JsonObject().put("workspace_id", NO_BOT.toString()).put("session_id", "abc").encode());
    assertThat(noBot.bodyAsJsonObject().getJsonObject("data")).as("no start link without a bot")
        .isEqualTo(new JsonObject().put("session_id", "abc"));
    store = message -> message.fail(BusFailure.UNAVAILABLE, "down");
    assertError(post("/api/v1/sessions", KEY, "application/json", new JsonObject().put("workspace_id", WS.toString())
        .encode()), 503, "unavailable");
  }

  @Test
  @DisplayName("what the HTTP codec refuses is answered in the envelope too, and the connection closed")
  void invalidRequests() {
    RawHttp.Response headers = RawHttp.request(port, "GET", "/health", Map.of("X-Pad", "p".repeat(9000)), new byte[0]);
    assertError(headers, 431, "headers_too_large");
    assertThat(headers.headers()).containsEntry("connection", "close");
    assertError(RawHttp.request(port, "GET", "/" + "u".repeat(5000), Map.of(), new byte[0]), 414, "uri_too_long");
    assertError(RawHttp.exchange(port, "NOT HTTP\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        400, "bad_request");
    assertError(RawHttp.request(port, "GET", "/%zz", Map.of(), new byte[0]), 400, "bad_request");
  }

  @Test
  @DisplayName("liveness answers while the database is down; readiness answers 503, naming the failing check on the "
      + "management listener only")
  void health() {
    HttpResponse<Buffer> ready = Await.result(client.get(managementPort, "127.0.0.1", "/health/ready").send());
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.bodyAsJsonObject().getString("status")).isEqualTo("UP");
    HttpResponse<Buffer> terse = Await.result(client.get(port, "127.0.0.1", "/health/ready").send());
    assertThat(terse.statusCode()).isEqualTo(200);
    assertThat(terse.bodyAsJsonObject()).isEqualTo(new JsonObject().put("status", "UP"));
    assertThat(terse.getHeader("Content-Type")).startsWith("application/json");
    databaseUp = false;
    HttpResponse<Buffer> notReady = Await.result(client.get(managementPort, "127.0.0.1", "/health/ready").send());
    assertThat(notReady.statusCode()).isEqualTo(503);
    assertThat(notReady.bodyAsJsonObject().getJsonArray("checks").getJsonObject(0))
        .isEqualTo(new JsonObject().put("id", "database").put("status", "DOWN"));
    HttpResponse<Buffer> terseDown = Await.result(client.get(port, "127.0.0.1", "/health/ready").send());
    assertThat(terseDown.statusCode()).isEqualTo(503);
    assertThat(terseDown.bodyAsJsonObject()).as("no check named in public")
        .isEqualTo(new JsonObject().put("status", "DOWN"));
    for (int each : new int[] {port, managementPort}) {
      for (String path : each == port ? List.of("/health/live", "/health") : List.of("/health/live")) {
        HttpResponse<Buffer> live = Await.result(client.get(each, "127.0.0.1", path).send());
        assertThat(live.statusCode()).as(path).isEqualTo(200);
        assertThat(live.bodyAsJsonObject().getString("status")).isEqualTo("UP");
        assertThat(live.getHeader("Content-Type")).startsWith("application/json");
      }
    }
    assertError(Await.result(client.get(port, "127.0.0.1", "/metrics").send()), 404, "not_found");
  }

  @Test
  @DisplayName("with management.token, the management listener answers only a request with that bearer token")
  void managementToken() {
    String token = "mgmt-token-0123456789abcdef";
    ManagementVerticle guarded = new ManagementVerticle(new ManagementConfig("127.0.0.1", 0, token), metrics,
        HealthChecks.create(vertx).register("database", promise -> promise.complete(Status.OK())));
    Await.result(vertx.deployVerticle(guarded));
    int guardedPort = guarded.actualPort();
    for (String path : List.of("/metrics", "/health/ready", "/health/live")) {
      for (String wrong : new String[] {null, "Bearer wrong", "Bearer " + token + "x", "Basic " + token, token,
          "Basic: " + token,
          "Bearer " + token.substring(1)}) {
        var request = client.get(guardedPort, "127.0.0.1", path);
        if (wrong != null) {
          request.putHeader("Authorization", wrong);
        }
        HttpResponse<Buffer> refused = Await.result(request.send());
        assertError(refused, 401, "unauthorized");
        assertThat(refused.getHeader("WWW-Authenticate")).isEqualTo("Bearer");
      }
      for (String right : new String[] {"Bearer " + token, "bearer " + token, "Bearer  " + token + " "}) {
        assertThat(Await.result(client.get(guardedPort, "127.0.0.1", path).putHeader("Authorization", right).send())
            .statusCode()).as(path + " with " + right).isEqualTo(200);
      }
    }
    assertThat(new ManagementConfig("h", 1, token).toString()).doesNotContain(token).contains("***");
    assertThat(new ManagementConfig("h", 1, null).toString()).contains("token=none");
  }

  @Test
  @DisplayName("a node without the ingest role serves health, and no API (metrics are on its management listener)")
  void withoutApi() {
    HttpVerticle opsOnly = new HttpVerticle(new HttpConfig("127.0.0.1", 0, 2048, 1, TIMEOUT_MS), null, metrics,
        HealthChecks.create(vertx).register("database", promise -> promise.complete(Status.OK())));
    String id = Await.result(vertx.deployVerticle(opsOnly));
    try {
      int opsPort = opsOnly.actualPort();
      assertError(Await.result(client.post(opsPort, "127.0.0.1", "/api/v1/events/custom")
          .putHeader("x-api-key", KEY).putHeader("Content-Type", "application/json").sendBuffer(event().toBuffer())),
          404, "not_found");
      assertThat(Await.result(client.get(opsPort, "127.0.0.1", "/health/ready").send()).statusCode()).isEqualTo(200);
      assertError(Await.result(client.get(opsPort, "127.0.0.1", "/metrics").send()), 404, "not_found");
      assertError(Await.result(client.get(opsPort, "127.0.0.1", "/openapi.yaml").send()), 404, "not_found");
      assertThat(Await.result(client.get(port, "127.0.0.1", "/openapi.yaml").send()).statusCode())
          .as("served where the API is").isEqualTo(200);
      assertThat(asked).as("nothing asked of a store").isEmpty();
      assertThat(opsOnly.router().getRoutes()).extracting(r -> r.getPath())
          .contains("/health/ready").doesNotContain("/api/v1/", "/metrics", "/openapi.yaml");
    } finally {
      Await.result(vertx.undeploy(id));
    }
  }

  @Test
  @DisplayName("metrics in Prometheus text on the management listener, with ingest answers counted by bounded event name and status")
  void metrics() {
    store = message -> message.reply(new IngestReply("evt_1", "s1", IngestReply.PROCESSED, false));
    postEvent(event());
    postEvent(event().put("event_name", "MyOwnEvent_" + UUID.randomUUID()));
    postEvent(event().put("event_name", "FTD").put("value", "oops"));
    postEvent(event().put("event_name", "MyDeposit"));
    assertError(postEvent(event().put("event_name", 42)), 400, "validation_failed");
    post("/v1/events/custom", "wrong", "application/json", event().encode());
    HttpResponse<Buffer> scrape = Await.result(client.get(managementPort, "127.0.0.1", "/metrics").send());
    assertThat(scrape.statusCode()).isEqualTo(200);
    assertThat(scrape.getHeader("Content-Type")).startsWith("text/plain");
    assertThat(scrape.bodyAsString())
        .contains("event_router_http_events_total{event_name=\"REG\",status=\"200\"} 1.0")
        .contains("event_router_http_events_total{event_name=\"other\",status=\"200\"} 1.0")
        .contains("event_router_http_events_total{event_name=\"FTD\",status=\"400\"} 1.0")
        .contains("event_router_http_events_total{event_name=\"MyDeposit\",status=\"200\"} 1.0")
        .contains("event_router_http_events_total{event_name=\"unknown\",status=\"400\"} 1.0")
        .contains("event_router_http_events_total{event_name=\"unknown\",status=\"401\"} 1.0")
        .doesNotContain("MyOwnEvent_");
  }

  @Test
  @DisplayName("a sane X-Request-Id is echoed and sent with the bus request; any other is replaced by a new id")
  void requestIds() {
    store = message -> message.reply(new IngestReply("evt_1", "s1", IngestReply.PROCESSED, false));
    String sane = "!client-req_42:~" + "x".repeat(RequestIds.MAX_LENGTH - 16);
    HttpResponse<Buffer> echoed = Await.result(client.post(port, "127.0.0.1", "/api/v1/events/custom")
        .putHeader("x-api-key", KEY).putHeader("Content-Type", "application/json").putHeader("X-Request-Id", sane)
        .sendBuffer(event().toBuffer()));
    assertThat(echoed.getHeader("X-Request-Id")).isEqualTo(sane);
    assertThat(asked.get(0).headers().get("request_id")).isEqualTo(sane);
    HttpResponse<Buffer> error = Await.result(client.get(port, "127.0.0.1", "/nothing")
        .putHeader("X-Request-Id", "abc-1").send());
    assertError(error, 404, "not_found");
    assertThat(error.getHeader("X-Request-Id")).as("on errors too").isEqualTo("abc-1");
    assertThat(RequestIds.isSane("x".repeat(RequestIds.MAX_LENGTH))).isTrue();
    assertThat(RequestIds.isSane("!~")).isTrue();
    for (String insane : new String[] {null, "", "x".repeat(RequestIds.MAX_LENGTH + 1), "a b", "a\u007fb", "a\tb",
        "caf\u00e9"}) {
      assertThat(RequestIds.isSane(insane)).as(String.valueOf(insane)).isFalse();
    }
    for (String insane : List.of("x".repeat(129), "two words", "tab\there", "caf\u00e9")) {
      HttpResponse<Buffer> replaced = Await.result(client.get(port, "127.0.0.1", "/health/live")
          .putHeader("X-Request-Id", insane).send());
      assertThat(replaced.getHeader("X-Request-Id")).as(insane).matches("[0-9a-f]{16}");
    }
  }

  @Test
  @DisplayName("a stop answers the requests under way before it closes the server")
  void stopDrains() {
    store = message -> vertx.setTimer(300, id -> message.reply(
        new IngestReply("evt_1", "s1", IngestReply.PROCESSED, false)));
    var answer = client.post(port, "127.0.0.1", "/api/v1/events/custom").putHeader("x-api-key", KEY)
        .putHeader("Content-Type", "application/json").sendBuffer(event().toBuffer());
    Await.until("the request at the store", Await.WAIT, () -> asked.size() == 1);

    Await.result(vertx.undeploy(deployment));
    assertThat(Await.result(answer).statusCode()).isEqualTo(200);
  }

  /** The ingest request a test store was sent: the record itself, as the local codec carries it. */
  private static IngestRequest sentRequest(Message<?> message) {
    return (IngestRequest) message.body();
  }
}
