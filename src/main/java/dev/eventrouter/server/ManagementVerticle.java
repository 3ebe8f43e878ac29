package dev.eventrouter.server;

import dev.eventrouter.common.Sha256;
import dev.eventrouter.common.StartupException;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.config.ManagementConfig;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.Edge;
import dev.eventrouter.http.ErrorCode;
import dev.eventrouter.http.ErrorResponder;
import dev.eventrouter.http.Health;
import dev.eventrouter.http.RequestIds;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.micrometer.PrometheusScrapingHandler;

import java.net.BindException;
import java.util.stream.IntStream;

/**
 * The management listener ({@code management.host}:{@code management.port}, loopback by default): {@code /metrics}
 * and the detailed {@code /health/ready}, which name workspaces and integrations and show per-tenant volumes, plus
 * {@code /health/live}. With {@code management.token} set, every request needs {@code Authorization: Bearer <token>}
 * (https://www.rfc-editor.org/rfc/rfc6750#section-2.1).
 */
public final class ManagementVerticle extends VerticleBase {

  private final ManagementConfig config;
  private final PrometheusMeterRegistry metrics;
  private final HealthChecks readiness;
  private HttpServer server;

  public ManagementVerticle(ManagementConfig config, PrometheusMeterRegistry metrics, HealthChecks readiness) {
    this.config = config;
    this.metrics = metrics;
    this.readiness = readiness;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    router.route().handler(RequestIds::assign).handler(Edge::noSniff);
    if (config.token() != null) {
      router.route().handler(this::bearer);
    }
    router.get("/health/live").handler(Health.live(vertx));
    router.get("/health/ready").handler(Health.detailed(readiness));
    router.get("/metrics").handler(PrometheusScrapingHandler.create(metrics));
    ErrorResponder errors = new ErrorResponder();
    router.route().failureHandler(errors);
    IntStream.range(400, 600).forEach(status -> router.errorHandler(status, errors.forStatus(status)));
    // The same server options as the public listener (no h2c, the default idle timeout), on the management address.
    return vertx.createHttpServer(HttpVerticle.serverOptions(config.host(), config.port(),
            HttpConfig.ServerLimits.DEFAULT.idleTimeoutS()))
        .invalidRequestHandler(ErrorResponder::invalidRequest)
        .requestHandler(router)
        .listen()
        .recover(failure -> Future.failedFuture(failure instanceof BindException bind
            ? new StartupException("cannot listen on the configured management.host and management.port ("
                + bind.getMessage() + "): stop whatever uses that port, or set another management.port")
            : failure))
        .onSuccess(s -> server = s);
  }

  private void bearer(RoutingContext rc) {
    String given = rc.request().getHeader(HttpHeaders.AUTHORIZATION);
    if (given != null && given.regionMatches(true, 0, "Bearer ", 0, 7)
        && Sha256.sameSecret(config.token(), given.substring(7).trim())) {
      rc.next();
      return;
    }
    rc.response().putHeader("WWW-Authenticate", "Bearer");
    rc.fail(new ApiException(ErrorCode.UNAUTHORIZED, "Missing or wrong Authorization: Bearer token "
        + "(management.token).", null, null));
  }

  @Override
  public Future<?> stop() {
    return server.close(); // stop follows only a start that listened
  }

  public int actualPort() {
    return server.actualPort();
  }
}
