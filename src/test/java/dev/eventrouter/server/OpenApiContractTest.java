package dev.eventrouter.server;

import dev.eventrouter.api.events.EventsApi;
import dev.eventrouter.config.ApiKeys;
import dev.eventrouter.config.DemoKey;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.http.ErrorCode;
import dev.eventrouter.http.RequestIds;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.validation.RequestUtils;
import io.vertx.openapi.validation.RequestValidator;
import io.vertx.openapi.validation.ResponseValidator;
import io.vertx.openapi.validation.ValidatableResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keeps {@code GET /openapi.yaml} true. The served document is parsed by vertx-openapi, and every request of these
 * tests passes through a proxy that validates it and the service's answer against the document: its examples are
 * sent and must be answered as documented, requests the service refuses must be refused by the schemas too (and
 * the reverse), and the router has no route the document leaves out. The service runs with the shipped config
 * (the demo workspace of the examples) on a real PostgreSQL.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiContractTest {

  private static final String DEMO_WS = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
  private static final String API = "/api/v1";

  private Vertx vertx;
  private TestApp app;
  private OpenAPIContract contract;
  private JsonObject document;
  private WebClient client;
  private HttpServer proxy;
  private final AtomicReference<Exchange> last = new AtomicReference<>();
  private final AtomicInteger keys = new AtomicInteger();

  /** One request through the proxy: its operation, what the validators said, and the answer. */
  private record Exchange(String operationId, Throwable requestInvalid, Throwable responseInvalid, int status,
                          Buffer body) {
    JsonObject json() {
      return body.toJsonObject();
    }
  }

  @BeforeAll
  void start(Vertx vertx) throws IOException {
    this.vertx = vertx;
    JsonObject config = new JsonObject(Files.readString(Path.of("conf/config.json")));
    config.getJsonObject("http").put("host", "127.0.0.1").put("port", 0);
    config.getJsonObject("database").put("url", TestDatabase.freshDatabaseUrl());
    // A second workspace, for the 403 of a key used on another workspace's body.
    config.getJsonArray("workspaces").add(new JsonObject().put("id", TestApp.WS_B).put("name", "other")
        .put("api_keys", new JsonArray().add(ApiKeys.configValue(TestApp.KEY_B)))
        .put("integrations", new JsonArray()));
    // The demo workspace takes Telegram updates, with the secret the document's example sends.
    config.getJsonArray("workspaces").getJsonObject(0).put("telegram", new JsonObject()
        .put("webhook_secret", "telegram-secret-example-0123"));
    app = TestApp.start(vertx, config);
    client = app.client();

    HttpResponse<Buffer> served = app.get("/openapi.yaml", null);
    assertThat(served.statusCode()).isEqualTo(200);
    Path file = Files.createTempFile("openapi", ".yaml");
    Files.write(file, served.body().getBytes());
    contract = Await.result(OpenAPIContract.from(vertx, file.toString()));
    Files.delete(file);
    // The document as written, for its examples: the contract's own copy gains the resolver's keys.
    document = new JsonObject(new Yaml().<Map<String, Object>>load(served.bodyAsString()));

    RequestValidator requests = RequestValidator.create(vertx, contract);
    ResponseValidator responses = ResponseValidator.create(vertx, contract);
    proxy = Await.result(vertx.createHttpServer()
        .requestHandler(request -> request.body().onSuccess(body -> relay(request, body, requests, responses)))
        .listen(0, "127.0.0.1"));
  }

  @AfterAll
  void stop() {
    Await.result(proxy.close());
    app.close();
  }

  @BeforeEach
  void forget() {
    last.set(null);
  }

  /** Validates the request, forwards it to the service, validates the answer, and hands the answer back. */
  private void relay(HttpServerRequest request, Buffer body, RequestValidator requests, ResponseValidator responses) {
    // /v1 is an alias of /api/v1, which the document lists alone.
    String path = request.path().startsWith("/v1/") ? "/api" + request.path() : request.path();
    Operation operation = contract.findOperation(path, request.method());
    Future<?> requestChecked = operation == null
        ? Future.failedFuture("no operation for " + request.method() + " " + request.path())
        : RequestUtils.extract(request, operation, () -> Future.succeededFuture(body))
            .compose(validatable -> requests.validate(validatable, operation.getOperationId()));
    requestChecked.transform(requestResult -> {
      MultiMap headers = MultiMap.caseInsensitiveMultiMap().addAll(request.headers())
          .remove(HttpHeaders.HOST).remove(HttpHeaders.CONTENT_LENGTH);
      return client.request(request.method(), app.port(), "127.0.0.1", request.uri()).putHeaders(headers)
          .sendBuffer(body)
          .compose(answer -> validate(responses, operation, answer)
              .transform(responseResult -> {
                last.set(new Exchange(operation == null ? null : operation.getOperationId(),
                    requestResult.cause(), responseResult.cause(), answer.statusCode(),
                    answer.body() == null ? Buffer.buffer() : answer.body()));
                request.response().setStatusCode(answer.statusCode());
                answer.headers().forEach(h -> {
                  if (!h.getKey().equalsIgnoreCase("content-length")) {
                    request.response().putHeader(h.getKey(), h.getValue());
                  }
                });
                return request.response().end(last.get().body());
              }));
    });
  }

  private static Future<?> validate(ResponseValidator responses, Operation operation, HttpResponse<Buffer> answer) {
    if (operation == null) {
      return Future.succeededFuture();
    }
    // vertx-openapi looks headers and media types up by exact name: give it the document's header names, and the
    // media type without its parameters (charset), as HTTP compares them.
    Map<String, String> headers = new HashMap<>();
    for (String name : List.of(RequestIds.HEADER, "Retry-After", EventsApi.IDEMPOTENT_REPLAYED)) {
      if (answer.getHeader(name) != null) {
        headers.put(name, answer.getHeader(name));
      }
    }
    String contentType = answer.getHeader("Content-Type");
    return responses.validate(ValidatableResponse.create(answer.statusCode(), headers,
        answer.body() == null ? Buffer.buffer() : answer.body(),
        contentType == null ? null : contentType.split(";", 2)[0].trim()), operation.getOperationId());
  }

  private Exchange send(HttpMethod method, String path, MultiMap headers, Buffer body) {
    Await.result(client.request(method, proxy.actualPort(), "127.0.0.1", path).putHeaders(headers)
        .sendBuffer(body == null ? Buffer.buffer() : body));
    return last.get();
  }

  private Exchange post(String path, String key, JsonObject body) {
    return send(HttpMethod.POST, path, jsonHeaders(key), body.toBuffer());
  }

  private Exchange get(String path, String key) {
    return send(HttpMethod.GET, path, key == null ? MultiMap.caseInsensitiveMultiMap() : jsonHeaders(key), null);
  }

  private MultiMap jsonHeaders(String key) {
    return MultiMap.caseInsensitiveMultiMap().add("x-api-key", key).add("Content-Type", "application/json")
        .add("Idempotency-Key", "contract-" + keys.incrementAndGet());
  }

  /** What was asked is what the document allows, and it was answered as the document says. */
  private static void assertConforms(Exchange exchange, int status) {
    assertThat(exchange.requestInvalid()).as("the request against the document").isNull();
    assertAnswered(exchange, status);
  }

  /** Answered with this status, which the document gives for the operation, with the body it describes. */
  private static void assertAnswered(Exchange exchange, int status) {
    assertThat(exchange.operationId()).as("a documented operation").isNotNull();
    assertThat(exchange.status()).as(exchange.body().toString()).isEqualTo(status);
    assertThat(exchange.responseInvalid()).as("the answer against the document").isNull();
  }

  @Test
  @DisplayName("every request example is answered 200, every answer validates, and so does every response example")
  void examples() {
    int sent = 0;
    for (Operation operation : contract.operations()) {
      JsonObject examples = raw(operation).getJsonObject("requestBody", new JsonObject()).getJsonObject("content",
          new JsonObject()).getJsonObject("application/json", new JsonObject()).getJsonObject("examples",
          new JsonObject());
      for (String name : examples.fieldNames()) {
        // Path and header parameters take their documented examples (the Telegram webhook's workspace and secret).
        String path = operation.getOpenAPIPath();
        MultiMap headers = jsonHeaders(DemoKey.KEY);
        for (Object parameter : raw(operation).getJsonArray("parameters", new JsonArray())) {
          JsonObject p = (JsonObject) parameter;
          if ("path".equals(p.getString("in"))) {
            path = path.replace("{" + p.getString("name") + "}", p.getString("example"));
          } else if ("header".equals(p.getString("in")) && p.containsKey("example")) {
            headers.add(p.getString("name"), p.getString("example"));
          }
        }
        Exchange exchange = send(HttpMethod.POST, path, headers,
            examples.getJsonObject(name).getJsonObject("value").toBuffer());
        assertThat(exchange.operationId()).as(name).isEqualTo(operation.getOperationId());
        assertConforms(exchange, 200);
        sent++;
      }
    }
    assertThat(sent).as("request examples sent").isGreaterThanOrEqualTo(6);

    ResponseValidator responses = ResponseValidator.create(vertx, contract);
    int checked = 0;
    for (Operation operation : contract.operations()) {
      JsonObject byStatus = raw(operation).getJsonObject("responses");
      for (String status : byStatus.fieldNames()) {
        JsonObject response = resolve(byStatus.getJsonObject(status));
        JsonObject content = response.getJsonObject("content", new JsonObject());
        for (String mediaType : content.fieldNames()) {
          JsonObject examples = content.getJsonObject(mediaType).getJsonObject("examples", new JsonObject());
          for (String name : examples.fieldNames()) {
            Buffer body = Buffer.buffer(examples.getJsonObject(name).getValue("value").toString());
            Future<?> result = responses.validate(ValidatableResponse.create(Integer.parseInt(status),
                Map.of("X-Request-Id", "example", "Retry-After", "1"), body, mediaType),
                operation.getOperationId());
            Throwable invalid = Await.result(result.transform(r -> Future.succeededFuture(r.cause())));
            assertThat(invalid).as(operation.getOperationId() + " " + status + " example " + name).isNull();
            checked++;
          }
        }
      }
    }
    assertThat(checked).as("response examples checked").isGreaterThanOrEqualTo(8);
  }

  /** The operation as written (the resolved model carries the resolver's own keys into the examples). */
  private JsonObject raw(Operation operation) {
    return document.getJsonObject("paths").getJsonObject(operation.getOpenAPIPath())
        .getJsonObject(operation.getHttpMethod().name().toLowerCase(java.util.Locale.ROOT));
  }

  private JsonObject resolve(JsonObject maybeRef) {
    String ref = maybeRef.getString("$ref");
    if (ref == null) {
      return maybeRef;
    }
    JsonObject at = document;
    for (String part : ref.substring(2).split("/")) {
      at = at.getJsonObject(part);
    }
    return at;
  }

  @Test
  @DisplayName("an accepted event is looked up and redelivered as documented, under /api/v1 and /v1 alike")
  void lookups() {
    Exchange accepted = post(API + "/events/custom", DemoKey.KEY, new JsonObject().put("event_name", "FTD")
        .put("telegram_id", 42).put("workspace_id", DEMO_WS).put("value", 9.5).put("session_id", "s1"));
    assertConforms(accepted, 200);
    String eventId = accepted.json().getJsonObject("data").getString("event_id");

    // The demo integrations are dry runs: once forwarded, each delivery carries the payload it would have sent.
    Await.until("both deliveries built", Await.WAIT, () -> {
      Exchange status = get(API + "/events/" + eventId, DemoKey.KEY);
      assertConforms(status, 200);
      JsonArray deliveries = status.json().getJsonObject("data").getJsonArray("deliveries");
      return deliveries.size() == 2 && deliveries.stream()
          .allMatch(d -> "dry_run".equals(((JsonObject) d).getString("status")));
    });
    // vertx-openapi reads path parameters from the request's own path, so the alias is checked on its answer only.
    assertAnswered(send(HttpMethod.GET, "/v1/events/" + eventId, jsonHeaders(DemoKey.KEY), null), 200);
    Exchange redelivered = post(API + "/events/" + eventId + "/redeliver", DemoKey.KEY, new JsonObject());
    assertConforms(redelivered, 200);
    assertThat(redelivered.json().getJsonObject("data").getInteger("requeued")).isZero();
    assertConforms(get(API + "/events/evt_1", DemoKey.KEY), 404);
  }

  @Test
  @DisplayName("each error status an operation gives is documented for it, with the error envelope")
  void errors() {
    JsonObject event = new JsonObject().put("event_name", "REG").put("telegram_id", 7).put("workspace_id", DEMO_WS);
    assertAnswered(post(API + "/events/custom", "wrong-key", event), 401);
    assertAnswered(post(API + "/events/custom", TestApp.KEY_B, event), 403);
    assertAnswered(send(HttpMethod.POST, API + "/events/custom",
        jsonHeaders(DemoKey.KEY).set("Content-Type", "text/plain"), event.toBuffer()), 415);
    Exchange tooLarge = post(API + "/sessions", DemoKey.KEY, new JsonObject().put("workspace_id", DEMO_WS)
        .put("user_agent", "x".repeat(70_000)));
    assertAnswered(tooLarge, 413);
    MultiMap once = jsonHeaders(DemoKey.KEY);
    assertAnswered(send(HttpMethod.POST, API + "/events/custom", once, event.toBuffer()), 200);
    assertAnswered(send(HttpMethod.POST, API + "/events/custom", once,
        event.copy().put("telegram_id", 8).toBuffer()), 409);
    assertAnswered(get(API + "/events/evt_123", "wrong-key"), 401);
    assertAnswered(post(API + "/events/evt_123/redeliver", DemoKey.KEY, new JsonObject()), 404);

    Set<String> documented = new TreeSet<>(document.getJsonObject("components")
        .getJsonObject("schemas").getJsonObject("Error").getJsonObject("properties").getJsonObject("error")
        .getJsonObject("properties").getJsonObject("code").getJsonArray("enum").getList());
    assertThat(documented).as("the document's error codes")
        .isEqualTo(Arrays.stream(ErrorCode.values()).map(c -> c.code).collect(Collectors.toCollection(TreeSet::new)));
  }

  @Test
  @DisplayName("what the service refuses as invalid fields, the schemas refuse too; what it takes, they take")
  void schemasAgreeWithTheService() {
    JsonObject event = new JsonObject().put("event_name", "REG").put("telegram_id", 7).put("workspace_id", DEMO_WS);
    Map<String, Consumer<JsonObject>> badEvents = new LinkedHashMap<>();
    badEvents.put("unknown field", b -> b.put("emial", "x@example.com"));
    badEvents.put("event_name with a dot", b -> b.put("event_name", "a.b"));
    badEvents.put("event_name of 51", b -> b.put("event_name", "a".repeat(51)));
    badEvents.put("event_name with an outer space", b -> b.put("event_name", "REG "));
    badEvents.put("telegram_id as text", b -> b.put("telegram_id", "7"));
    badEvents.put("telegram_id 0", b -> b.put("telegram_id", 0));
    badEvents.put("telegram_id fraction", b -> b.put("telegram_id", 7.5));
    badEvents.put("telegram_id missing", b -> b.remove("telegram_id"));
    badEvents.put("workspace_id not a uuid", b -> b.put("workspace_id", "demo"));
    badEvents.put("session_id with a dot", b -> b.put("session_id", "a.b"));
    badEvents.put("session_id of 65", b -> b.put("session_id", "s".repeat(65)));
    badEvents.put("value negative", b -> b.put("value", -1));
    badEvents.put("value as text", b -> b.put("value", "5"));
    badEvents.put("FTD without value", b -> b.put("event_name", "FTD"));
    badEvents.put("Purchase with a null value", b -> b.put("event_name", "Purchase").putNull("value"));
    badEvents.put("currency with a symbol", b -> b.put("currency", "US$"));
    badEvents.put("currency of 11", b -> b.put("currency", "U".repeat(11)));
    badEvents.put("user_data nested", b -> b.put("user_data", new JsonObject().put("a", new JsonObject())));
    badEvents.put("user_data an array", b -> b.put("user_data", new JsonArray()));
    badEvents.put("user_data empty key", b -> b.put("user_data", new JsonObject().put("", "x")));
    JsonObject many = new JsonObject();
    for (int i = 0; i < 51; i++) {
      many.put("k" + i, i);
    }
    badEvents.put("user_data of 51 keys", b -> b.put("user_data", many));
    badEvents.forEach((what, change) -> assertRefusedByBoth(what, API + "/events/custom", event, change));

    JsonObject click = new JsonObject().put("workspace_id", DEMO_WS);
    Map<String, Consumer<JsonObject>> badClicks = new LinkedHashMap<>();
    badClicks.put("fbclid with a space", b -> b.put("fbclid", "a b"));
    badClicks.put("fbc not fb.n.ms.value", b -> b.put("fbc", "IwAR2"));
    badClicks.put("fbp not fb.n.ms.value", b -> b.put("fbp", "fb.1.x.1"));
    badClicks.put("ttp of 201", b -> b.put("ttp", "t".repeat(201)));
    badClicks.put("client_ip a host name", b -> b.put("client_ip", "example.com"));
    badClicks.put("user_agent with a tab", b -> b.put("user_agent", "a\tb"));
    badClicks.put("landing_url not http", b -> b.put("landing_url", "ftp://example.com/"));
    badClicks.put("clicked_at not a time", b -> b.put("clicked_at", "yesterday"));
    badClicks.put("workspace_id missing", b -> b.remove("workspace_id"));
    badClicks.forEach((what, change) -> assertRefusedByBoth(what, API + "/sessions", click, change));

    JsonObject invite = new JsonObject().put("workspace_id", DEMO_WS).put("telegram_id", 5).put("session_id", "p1");
    assertRefusedByBoth("invite without session_id", API + "/sessions/invites", invite, b -> b.remove("session_id"));
    assertRefusedByBoth("invite_link not a URL", API + "/sessions/invites", invite,
        b -> b.put("invite_link", "t.me/+x"));

    Map<String, Consumer<JsonObject>> goodEvents = new LinkedHashMap<>();
    goodEvents.put("nulls for the optional fields", b -> b.putNull("session_id").putNull("value")
        .putNull("currency").putNull("user_data"));
    goodEvents.put("an inner space, value 0, currency in lower case", b -> b.put("event_name", "level up")
        .put("value", 0).put("currency", "eur"));
    goodEvents.put("FTD with a fractional value", b -> b.put("event_name", "FTD").put("value", 19.99));
    goodEvents.put("the largest telegram_id", b -> b.put("telegram_id", Long.MAX_VALUE));
    JsonObject fifty = many.copy().put("k0", "u@example.com").put("k1", true);
    fifty.remove("k50");
    goodEvents.put("user_data of 50 keys", b -> b.put("user_data", fifty));
    goodEvents.forEach((what, change) -> {
      JsonObject body = event.copy();
      change.accept(body);
      Exchange exchange = post(API + "/events/custom", DemoKey.KEY, body);
      assertThat(exchange.requestInvalid()).as(what).isNull();
      assertConforms(exchange, 200);
    });
    assertConforms(post(API + "/sessions", DemoKey.KEY, click.copy().put("client_ip", "2001:db8::1")
        .put("clicked_at", System.currentTimeMillis()).put("fbc", "fb.1.1700000000000.IwAR2")
        .put("landing_url", "HTTPS://promo.example.com/a?b=c")), 200);
    assertConforms(post(API + "/sessions/invites", DemoKey.KEY, invite.copy().putNull("invite_link")), 200);
    assertConforms(post(API + "/sessions", DemoKey.KEY, click.copy().put("bot", "@demo_router_bot")
        .put("channel", "-1001234567890").put("country", "de")), 200);
    assertConforms(post(API + "/events/custom", DemoKey.KEY, event.copy().put("currency", "usdt")), 200);
    assertConforms(get(API + "/reports/funnel?group_by=utm_campaign,day&filter=utm_source:fb", DemoKey.KEY), 200);
    assertConforms(get(API + "/reports/cohorts?group_by=campaign_id,click_week&ages=0,7", DemoKey.KEY), 200);

    // What the description says the schemas cannot check: the service refuses it, the schema lets it through.
    Exchange unknownCurrency = post(API + "/events/custom", DemoKey.KEY, event.copy().put("currency", "XYZ"));
    assertThat(unknownCurrency.requestInvalid()).isNull();
    assertThat(unknownCurrency.status()).isEqualTo(400);
    assertThat(unknownCurrency.responseInvalid()).isNull();
  }

  private void assertRefusedByBoth(String what, String path, JsonObject valid, Consumer<JsonObject> change) {
    JsonObject body = valid.copy();
    change.accept(body);
    Exchange exchange = post(path, DemoKey.KEY, body);
    assertThat(exchange.status()).as(what + ": the service").isEqualTo(400);
    assertThat(exchange.json().getJsonObject("error").getString("code")).as(what)
        .isEqualTo(ErrorCode.VALIDATION_FAILED.code);
    assertThat(exchange.requestInvalid()).as(what + ": the schema").isNotNull();
    assertThat(exchange.responseInvalid()).as(what + ": the answer").isNull();
  }

  @Test
  @DisplayName("health and the document itself answer as documented, without a key")
  void operations() {
    for (String path : List.of("/health/live", "/health", "/health/ready", "/openapi.yaml")) {
      Exchange exchange = get(path, null);
      assertConforms(exchange, 200);
    }
    assertThat(get("/openapi.yaml", null).body().toString()).startsWith("openapi: 3.1");
  }

  @Test
  @DisplayName("every route of the router is in the document, and every operation of the document is routed")
  void routes() {
    HttpVerticle verticle = new HttpVerticle(new HttpConfig("127.0.0.1", 0, 2048, 1, 1000),
        new AccessControl(List.of(), System::nanoTime), new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        HealthChecks.create(vertx));
    String deployment = Await.result(vertx.deployVerticle(verticle));
    try {
      Set<String> routed = new TreeSet<>();
      collect(verticle.router(), "", routed);
      Set<String> documented = contract.operations().stream()
          .map(o -> o.getHttpMethod() + " " + o.getOpenAPIPath()).collect(Collectors.toCollection(TreeSet::new));
      Set<String> aliases = documented.stream().filter(r -> r.contains(" " + API + "/"))
          .map(r -> r.replace(" " + API + "/", " /v1/")).collect(Collectors.toSet());
      Set<String> expected = new TreeSet<>(documented);
      expected.addAll(aliases);
      assertThat(routed).isEqualTo(expected);
    } finally {
      Await.result(vertx.undeploy(deployment));
    }
  }

  /** "METHOD path" of every route with a method and a path (or, for a regex route, its template name). */
  private static void collect(Router router, String prefix, Set<String> into) {
    for (Route route : router.getRoutes()) {
      if (route.getSubRouter() != null) {
        collect(route.getSubRouter(), prefix + route.getPath().replaceAll("/\\*?$", ""), into);
        continue;
      }
      String path = route.isRegexPath() ? route.getName() : route.getPath();
      if (path == null || route.methods() == null) {
        continue;
      }
      path = path.replaceAll(":([A-Za-z_]+)", "{$1}"); // Vert.x's :name is OpenAPI's {name}
      for (HttpMethod method : route.methods()) {
        into.add(method + " " + prefix + path);
      }
    }
  }
}
