package dev.eventrouter.server;

import dev.eventrouter.api.deliveries.BreakerWatch;
import dev.eventrouter.api.deliveries.DeliveriesApi;
import dev.eventrouter.api.deliveries.IntegrationsApi;
import dev.eventrouter.api.events.EventsApi;
import dev.eventrouter.api.events.IngestCounter;
import dev.eventrouter.api.postbacks.PostbacksApi;
import dev.eventrouter.api.reports.ReportsApi;
import dev.eventrouter.api.sessions.SessionsApi;
import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BreakerOpened;
import dev.eventrouter.bus.LocalCodec;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.config.ReportsConfig;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.http.Edge;
import dev.eventrouter.http.ErrorCode;
import dev.eventrouter.http.ErrorResponder;
import dev.eventrouter.http.Health;
import dev.eventrouter.http.Methods;
import dev.eventrouter.http.RawBody;
import dev.eventrouter.http.ReportSlots;
import dev.eventrouter.http.RequestIds;
import dev.eventrouter.http.ServerBudget;
import dev.eventrouter.http.SlowClients;
import dev.eventrouter.http.StaticContent;
import dev.eventrouter.http.StoreClient;
import dev.eventrouter.telegram.TelegramWebhook;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.PlatformHandler;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * The public API. Authenticates, rate-limits and validates at the edge, then asks the SessionVerticle over the event
 * bus and answers only with what it replies: 200 only for what is committed. The API router is mounted under /api/v1
 * and, as an alias, /v1; liveness, terse readiness and (with the API) the OpenAPI document sit at the root, without a
 * key (metrics and detailed readiness are on the {@link ManagementVerticle}'s listener).
 */
public final class HttpVerticle extends VerticleBase {

  /** The OpenAPI 3.1 document of every route, a classpath resource served as is at {@code GET /openapi.yaml}. */
  static final String OPENAPI = "openapi.yaml";

  private final HttpConfig config;
  private final AccessControl access;
  private final PrometheusMeterRegistry metrics;
  private final HealthChecks readiness;
  private final ServerBudget budget;
  private final ReportSlots reports;
  private HttpServer server;
  private Router router;
  private Buffer openApi;

  /**
   * @param access    who may use the API, or null on a node without the ingest role: it serves health only
   * @param readiness what {@code /health/ready} checks: the node can take events now
   * @param budget    the node's connections and buffered bodies, shared by its instances
   * @param reports   the node's funnel reports running, shared by its instances
   */
  public HttpVerticle(HttpConfig config, AccessControl access, PrometheusMeterRegistry metrics,
                      HealthChecks readiness, ServerBudget budget, ReportSlots reports) {
    this.config = config;
    this.access = access;
    this.metrics = metrics;
    this.readiness = readiness;
    this.budget = budget;
    this.reports = reports;
  }

  /** With a budget and report slots of its own, at the default limits (one instance, or a test). */
  public HttpVerticle(HttpConfig config, AccessControl access, PrometheusMeterRegistry metrics,
                      HealthChecks readiness) {
    this(config, access, metrics, readiness, new ServerBudget(config.limits()),
        new ReportSlots(ReportsConfig.DEFAULT));
  }

  @Override
  public Future<?> start() {
    LocalCodec.register(vertx);
    Router router = Router.router(vertx);
    router.route().handler(RequestIds::assign).handler(Edge::noSniff).handler(Edge.readableQuery(PostbacksApi.PATHS));
    // Liveness: the process and its event loop answer. Readiness, here: UP or DOWN only; which check failed, and
    // /metrics, are on the management listener (they name workspaces and integrations).
    Handler<RoutingContext> live = Health.live(vertx);
    router.get("/health/live").handler(live);
    router.get("/health").handler(live);
    router.get("/health/ready").handler(Health.terse(readiness));
    if (access != null) {
      // The document of the API, where the API is served: a forward-only node serves health only.
      router.get("/openapi.yaml").handler(this::openApi);
      StoreClient store = new StoreClient(vertx, config.requestTimeoutMs());
      Router api = api(store);
      router.route("/api/v1/*").subRouter(api);
      router.route("/v1/*").subRouter(api);
      // Telegram authenticates with the webhook's secret, not an API key: checked from the headers, before the body.
      TelegramWebhook telegram = new TelegramWebhook(access, store);
      for (String path : List.of("/telegram/:workspace_id/webhook", "/telegram/:workspace_id/webhook/:bot_name")) {
        Route webhook = router.post(path).handler(beforeBody(telegram::authenticate));
        readBody(webhook, Math.max(config.maxBodyBytes(), TelegramWebhook.MAX_UPDATE_BYTES))
            .handler(Edge::requireJson)
            .handler(telegram::handle);
      }
      StaticContent.mount(router);
    }
    ErrorResponder errors = new ErrorResponder();
    router.route().failureHandler(errors);
    // What the router answers by itself (an unreadable path is a 400 before any route matches) gets the same body.
    IntStream.range(400, 600).forEach(status -> router.errorHandler(status, errors.forStatus(status)));
    this.router = router;
    SlowClients connections = new SlowClients(budget, System::nanoTime);
    connections.start(vertx);
    // The document is read once, from the classpath, before the server listens.
    return vertx.fileSystem().readFile(OPENAPI)
        .compose(document -> {
          openApi = document;
          return vertx.createHttpServer(serverOptions(config.host(), config.port(), config.limits().idleTimeoutS()))
              .connectionHandler(connections::connected)
              .invalidRequestHandler(ErrorResponder::invalidRequest)
              .requestHandler(request -> {
                connections.requested(request);
                if (Methods.served(request.method())) {
                  router.handle(request);
                } else {
                  ErrorResponder.answerAndClose(request, ErrorCode.METHOD_NOT_ALLOWED);
                }
              })
              .listen();
        })
        .onSuccess(s -> server = s);
  }

  /**
   * HTTP/1.0 and 1.1 only: clear-text HTTP/2 (h2c, by upgrade or prior knowledge) is off, as documented; the idle
   * timeout closes a connection with nothing moving. Request line and headers keep Vert.x's bounds (4 KiB, 8 KiB).
   */
  static HttpServerOptions serverOptions(String host, int port, int idleTimeoutS) {
    return new HttpServerOptions().setHost(host).setPort(port)
        .setHttp2ClearTextEnabled(false)
        .setIdleTimeout(idleTimeoutS).setIdleTimeoutUnit(TimeUnit.SECONDS);
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
    authenticated(api.get("/reports/funnel")).handler(new ReportsApi(store, reports)::funnel);
    // A partner's postback: its token in the path is its only credential, checked (with its rate limit) before the
    // body is read.
    PostbacksApi postbacks = new PostbacksApi(access, store);
    api.routeWithRegex(PostbacksApi.ROUTE).method(HttpMethod.GET).method(HttpMethod.POST)
        .setName("/postbacks/{token}").handler(beforeBody(postbacks::authenticate))
        .handler(budget.reserve(config.maxBodyBytes())).handler(RawBody.within(config.maxBodyBytes()))
        .handler(postbacks::handle);
    authenticated(api.get("/postbacks")).handler(postbacks::list);
    authenticated(api.get("/postback-sources")).handler(postbacks::sources);
    // No body is read (any is drained within the size limit): the integration is in the path, the event name an
    // optional query parameter.
    readBody(authenticated(api.post("/integrations/:integration_id/test")), config.maxBodyBytes())
        .handler(integrations::test);
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
    readBody(authenticated(router.post(path), publishableAllowed), config.maxBodyBytes())
        .handler(Edge::requireJson).handler(handler);
  }

  private Route authenticated(Route route) {
    return authenticated(route, false);
  }

  /** Key and rate limit from the headers alone: nobody unauthenticated gets a byte of a body read. */
  private Route authenticated(Route route, boolean publishableAllowed) {
    return route.handler(beforeBody(Edge.authenticate(access, publishableAllowed)))
        .handler(beforeBody(Edge.rateLimit(access)));
  }

  /** The node's body budget, then the body itself within the route's limit. */
  private Route readBody(Route route, int limit) {
    return route.handler(budget.reserve(limit)).handler(BodyHandler.create(false).setBodyLimit(limit));
  }

  /**
   * vertx-web runs a route's handlers in its declared order of kinds, body handlers before plain ones
   * (https://vertx.io/docs/vertx-web/java/#_route_order); a platform handler may come first, which is what these
   * checks of the headers are.
   */
  private static Handler<RoutingContext> beforeBody(Handler<RoutingContext> check) {
    return (PlatformHandler) check::handle;
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
