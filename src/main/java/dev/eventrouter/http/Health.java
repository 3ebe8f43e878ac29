package dev.eventrouter.http;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.CheckResult;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.healthchecks.Status;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.healthchecks.HealthCheckHandler;

/** The health routes: liveness, and readiness in full (management listener) or terse (public listener). */
public final class Health {

  private Health() {}

  /** The process and its event loop answer. */
  public static Handler<RoutingContext> live(Vertx vertx) {
    return HealthCheckHandler.create(vertx).register("process", promise -> promise.complete(Status.OK()));
  }

  /** Every check by name, with what failed: for operators, on the management listener. */
  public static Handler<RoutingContext> detailed(HealthChecks readiness) {
    return HealthCheckHandler.createWithHealthChecks(readiness);
  }

  /** UP (200) or DOWN (503), nothing more: a load balancer needs no workspace names or schema versions. */
  public static Handler<RoutingContext> terse(HealthChecks readiness) {
    return rc -> readiness.checkStatus().map(CheckResult::getUp).otherwise(false).onSuccess(up -> {
      rc.response().setStatusCode(up ? 200 : 503)
          .putHeader(HttpHeaders.CONTENT_TYPE, Responses.JSON)
          .end(new JsonObject().put("status", up ? "UP" : "DOWN").toBuffer());
    });
  }
}
