package dev.eventrouter.support;

import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.http.AccessControl;
import dev.eventrouter.server.HttpVerticle;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.ext.healthchecks.HealthChecks;

/** The HTTP edge deployed alone: no store behind it, the test answers on the bus for the verticles that would. */
public final class EdgeServer {

  private EdgeServer() {}

  /** An HttpVerticle with metrics of its own and nothing to check for readiness, deployed: the port it bound. */
  public static int deploy(Vertx vertx, HttpConfig http, AccessControl access) {
    return deploy(vertx, new HttpVerticle(http, access, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
        HealthChecks.create(vertx)));
  }

  /** Deploys {@code verticle}: the port it bound. */
  public static int deploy(Vertx vertx, HttpVerticle verticle) {
    Await.result(vertx.deployVerticle(verticle));
    return verticle.actualPort();
  }
}
