package dev.eventrouter.server;

import dev.eventrouter.api.postbacks.PostbacksApi;
import dev.eventrouter.bus.LocalCodec;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.config.ReportsConfig;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.http.Edge;
import dev.eventrouter.http.ErrorCode;
import dev.eventrouter.http.ErrorResponder;
import dev.eventrouter.http.Health;
import dev.eventrouter.http.Methods;
import dev.eventrouter.http.ReportSlots;
import dev.eventrouter.http.RequestIds;
import dev.eventrouter.http.ServerBudget;
import dev.eventrouter.http.SlowClients;
import dev.eventrouter.http.StaticContent;
import dev.eventrouter.http.StoreClient;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

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
      ApiRoutes routes = new ApiRoutes(vertx, config, access, metrics, budget, reports);
      Router api = routes.api(store);
      router.route("/api/v1/*").subRouter(api);
      router.route("/v1/*").subRouter(api);
      routes.telegram(router, store);
      routes.keitaro(router, store);
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
