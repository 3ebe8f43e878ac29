package dev.eventrouter.http;

import dev.eventrouter.config.HttpConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * The public API. Authenticates, rate-limits and validates at the edge, then asks the SessionVerticle over the event
 * bus and answers only with what it replies: 200 only for what is committed. Every route is served under /api/v1
 * and, as an alias, /v1.
 */
public final class HttpVerticle extends VerticleBase {

  private final HttpConfig config;
  private final AccessControl access;
  private final PrometheusMeterRegistry metrics;
  private HttpServer server;

  public HttpVerticle(HttpConfig config, AccessControl access, PrometheusMeterRegistry metrics) {
    this.config = config;
    this.access = access;
    this.metrics = metrics;
  }

  @Override
  public Future<?> start() {
    StoreClient store = new StoreClient(vertx, config.requestTimeoutMs());
    EventsApi events = new EventsApi(store);
    SessionsApi sessions = new SessionsApi(store);
    Router router = Router.router(vertx);
    router.route().handler(RequestIds::assign);
    router.get("/health").handler(rc -> Responses.ok(rc, new JsonObject().put("status", "up")));
    router.get("/metrics").handler(this::metrics);
    for (String prefix : new String[] {"/api/v1", "/v1"}) {
      post(router, prefix + "/events/custom", events::ingest);
      post(router, prefix + "/sessions", sessions::capture);
      post(router, prefix + "/sessions/invites", sessions::invite);
      // Only evt_<digits>, so GET on /events/custom stays a 405 rather than a lookup of an id "custom".
      String event = prefix.replace("/", "\\/") + "\\/events\\/(?<eventId>evt_[0-9]+)";
      authenticated(router.getWithRegex(event)).handler(events::status);
      authenticated(router.postWithRegex(event + "\\/redeliver")).handler(events::redeliver);
    }
    ErrorResponder errors = new ErrorResponder();
    router.route().failureHandler(errors);
    // What the router answers by itself (an unreadable path is a 400 before any route matches) gets the same body.
    IntStream.range(400, 600).forEach(status -> router.errorHandler(status, errors.forStatus(status)));
    return vertx.createHttpServer(new HttpServerOptions().setHost(config.host()).setPort(config.port()))
        .invalidRequestHandler(ErrorResponder::invalidRequest)
        .requestHandler(router)
        .listen()
        .onSuccess(s -> server = s);
  }

  /** A JSON POST: body size limit, key, rate limit, content type, then the handler. */
  private void post(Router router, String path, Handler<RoutingContext> handler) {
    // Vert.x runs body handlers before user handlers; the size limit caps what an unknown caller can send.
    Route route = router.post(path).handler(BodyHandler.create(false).setBodyLimit(config.maxBodyBytes()));
    authenticated(route).handler(Edge::requireJson).handler(handler);
  }

  private Route authenticated(Route route) {
    return route.handler(Edge.authenticate(access)).handler(Edge.rateLimit(access));
  }

  private void metrics(RoutingContext rc) {
    rc.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")
        .end(metrics.scrape());
  }

  /** Stops accepting, and lets requests under way finish (each is bounded by the request timeout). */
  @Override
  public Future<?> stop() {
    return server == null ? Future.succeededFuture() : server.shutdown(config.requestTimeoutMs(), TimeUnit.MILLISECONDS);
  }

  /** The port actually bound (differs from the config when it asks for 0). */
  public int actualPort() {
    return server.actualPort();
  }
}
