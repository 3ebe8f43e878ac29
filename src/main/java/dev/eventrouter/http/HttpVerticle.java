package dev.eventrouter.http;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BreakerOpened;
import dev.eventrouter.config.HttpConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.healthchecks.HealthCheckHandler;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.healthchecks.Status;
import io.vertx.micrometer.PrometheusScrapingHandler;

import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * The public API. Authenticates, rate-limits and validates at the edge, then asks the SessionVerticle over the event
 * bus and answers only with what it replies: 200 only for what is committed. The API router is mounted under /api/v1
 * and, as an alias, /v1; health, metrics and the OpenAPI document sit at the root, without a key.
 */
public final class HttpVerticle extends VerticleBase {

  /** The OpenAPI 3.1 document of every route, a classpath resource served as is at {@code GET /openapi.yaml}. */
  static final String OPENAPI = "openapi.yaml";

  private final HttpConfig config;
  private final AccessControl access;
  private final PrometheusMeterRegistry metrics;
  private final HealthChecks readiness;
  private HttpServer server;
  private Router router;
  private Buffer openApi;

  /**
   * @param access    who may use the API, or null on a node without the ingest role: it serves health and metrics
   *                  only
   * @param readiness what {@code /health/ready} checks: the node can take events now
   */
  public HttpVerticle(HttpConfig config, AccessControl access, PrometheusMeterRegistry metrics,
                      HealthChecks readiness) {
    this.config = config;
    this.access = access;
    this.metrics = metrics;
    this.readiness = readiness;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    router.route().handler(RequestIds::assign);
    // Liveness: the process and its event loop answer. Readiness: it can take events now (503 names the check).
    HealthCheckHandler live = HealthCheckHandler.create(vertx)
        .register("process", promise -> promise.complete(Status.OK()));
    router.get("/health/live").handler(live);
    router.get("/health").handler(live);
    router.get("/health/ready").handler(HealthCheckHandler.createWithHealthChecks(readiness));
    router.get("/metrics").handler(PrometheusScrapingHandler.create(metrics));
    router.get("/openapi.yaml").handler(this::openApi);
    if (access != null) {
      StoreClient store = new StoreClient(vertx, config.requestTimeoutMs());
      Router api = api(store);
      router.route("/api/v1/*").subRouter(api);
      router.route("/v1/*").subRouter(api);
      // Telegram authenticates with the webhook's secret, not an API key.
      TelegramWebhook telegram = new TelegramWebhook(access, store);
      router.post("/telegram/:workspace_id/webhook")
          .handler(BodyHandler.create(false)
              .setBodyLimit(Math.max(config.maxBodyBytes(), TelegramWebhook.MAX_UPDATE_BYTES)))
          .handler(Edge::requireJson)
          .handler(telegram::handle);
      StaticContent.mount(router);
    }
    ErrorResponder errors = new ErrorResponder();
    router.route().failureHandler(errors);
    // What the router answers by itself (an unreadable path is a 400 before any route matches) gets the same body.
    IntStream.range(400, 600).forEach(status -> router.errorHandler(status, errors.forStatus(status)));
    this.router = router;
    // The document is read once, from the classpath, before the server listens.
    return vertx.fileSystem().readFile(OPENAPI)
        .compose(document -> {
          openApi = document;
          return vertx.createHttpServer(new HttpServerOptions().setHost(config.host()).setPort(config.port()))
              .invalidRequestHandler(ErrorResponder::invalidRequest)
              .requestHandler(router)
              .listen();
        })
        .onSuccess(s -> server = s);
  }

  private void openApi(RoutingContext rc) {
    rc.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/yaml; charset=utf-8").end(openApi);
  }

  /** The routes of the API, mounted under each prefix. */
  private Router api(StoreClient store) {
    EventsApi events = new EventsApi(store);
    SessionsApi sessions = new SessionsApi(store);
    DeliveriesApi deliveries = new DeliveriesApi(store);
    BreakerWatch breakers = new BreakerWatch();
    vertx.eventBus().<JsonObject>consumer(Addresses.BREAKER_OPENED,
        notice -> breakers.opened(BreakerOpened.fromJson(notice.body())));
    IntegrationsApi integrations = new IntegrationsApi(store, breakers);
    IngestCounter ingestCounter = new IngestCounter(metrics);
    Router api = Router.router(vertx);
    api.post("/events/custom").handler(ingestCounter::onAnswer);
    post(api, "/events/custom", events::ingest);
    // A prelanding page calls this one from the visitor's browser, with a publishable key: CORS for its origins.
    api.route("/sessions").handler(rc -> access.cors().handle(rc));
    post(api, "/sessions", sessions::capture, true);
    post(api, "/sessions/invites", sessions::invite);
    authenticated(api.get("/events")).handler(events::list);
    authenticated(api.get("/deliveries")).handler(deliveries::list);
    post(api, "/deliveries/redeliver", deliveries::redeliver);
    authenticated(api.get("/integrations")).handler(integrations::summary);
    // No body is read (any is drained within the size limit): the integration is in the path, the event name an
    // optional query parameter.
    authenticated(api.post("/integrations/:integration_id/test")
        .handler(BodyHandler.create(false).setBodyLimit(config.maxBodyBytes()))).handler(integrations::test);
    // Only evt_<digits>, so GET on /events/custom stays a 405 rather than a lookup of an id "custom".
    String event = "\\/events\\/(?<eventId>evt_[0-9]+)";
    authenticated(api.getWithRegex(event).setName("/events/{event_id}")).handler(events::status);
    authenticated(api.postWithRegex(event + "\\/redeliver").setName("/events/{event_id}/redeliver"))
        .handler(events::redeliver);
    return api;
  }

  /** A JSON POST: body size limit, key, rate limit, content type, then the handler. */
  private void post(Router router, String path, Handler<RoutingContext> handler) {
    post(router, path, handler, false);
  }

  private void post(Router router, String path, Handler<RoutingContext> handler, boolean publishableAllowed) {
    // Vert.x runs body handlers before user handlers; the size limit caps what an unknown caller can send.
    Route route = router.post(path).handler(BodyHandler.create(false).setBodyLimit(config.maxBodyBytes()));
    authenticated(route, publishableAllowed).handler(Edge::requireJson).handler(handler);
  }

  private Route authenticated(Route route) {
    return authenticated(route, false);
  }

  private Route authenticated(Route route, boolean publishableAllowed) {
    return route.handler(Edge.authenticate(access, publishableAllowed)).handler(Edge.rateLimit(access));
  }

  /** Stops accepting, and lets requests under way finish (each is bounded by the request timeout). */
  @Override
  public Future<?> stop() {
    return server == null ? Future.succeededFuture() : server.shutdown(config.requestTimeoutMs(), TimeUnit.MILLISECONDS);
  }

  /** The routes served, which OpenApiContractTest checks against the document. */
  Router router() {
    return router;
  }

  /** The port actually bound (differs from the config when it asks for 0). */
  public int actualPort() {
    return server.actualPort();
  }
}
