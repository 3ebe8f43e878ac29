package dev.eventrouter;

import dev.eventrouter.common.LogSafe;
import dev.eventrouter.config.LiveConfig;
import dev.eventrouter.db.Database;
import dev.eventrouter.forward.BreakerBoard;
import dev.eventrouter.forward.PauseBoard;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.healthchecks.Status;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What {@code GET /health/ready} checks, by name: the database answers, the schema this process needs is applied,
 * the config is loaded and, in a cluster, the node is a member. Any of them down makes the answer 503 naming it.
 * The integrations' breakers, and the integrations paused on a refused token, are shown as a detail only: a network
 * being down or a token refused is no reason to stop taking events, which wait in the outbox.
 */
final class Readiness {

  /** Each probe's own limit; below the health handler's, so a slow database is a 503 DOWN, not a 500. */
  static final long PROBE_TIMEOUT_MS = 1_500;
  private static final long HANDLER_TIMEOUT_MS = 3_000;

  private Readiness() {}

  /**
   * @param breakers the integrations' breakers on this node, or null on a node that does not forward
   * @param pauses   the integrations paused on a refused token, or null on a node that does not forward
   * @param cluster  this node's cluster manager, or null when it is not clustered
   */
  static HealthChecks checks(Vertx vertx, Database database, LiveConfig live, BreakerBoard breakers,
                             PauseBoard pauses, ClusterManager cluster) {
    HealthChecks checks = HealthChecks.create(vertx);
    checks.register("database", HANDLER_TIMEOUT_MS, promise -> probe(promise, database.ping()
        .map(v -> Status.OK())));
    checks.register("migrations", HANDLER_TIMEOUT_MS, promise -> probe(promise, database.schemaApplied()
        .map(applied -> new Status().setOk(applied)
            .setData(new JsonObject().put("version", database.schemaVersion())))));
    checks.register("config", promise -> promise.complete(Status.OK(new JsonObject()
        .put("workspaces", live.current().workspaces().size()))));
    if (cluster != null) {
      // The members as this node sees them: a member that froze is still counted until the cluster drops it.
      checks.register("cluster", promise -> {
        List<String> nodes = cluster.getNodes();
        promise.complete(new Status().setOk(nodes.contains(cluster.getNodeId()))
            .setData(new JsonObject().put("members", nodes.size())));
      });
    }
    if (breakers != null) {
      checks.register("integrations", promise -> {
        JsonObject states = new JsonObject();
        breakers.snapshot().forEach(states::put);
        JsonObject paused = new JsonObject();
        pauses.snapshot().forEach(paused::put);
        promise.complete(Status.OK(new JsonObject().put("breakers", states).put("paused", paused)));
      });
    }
    return checks;
  }

  private static void probe(Promise<Status> promise, Future<Status> check) {
    check.timeout(PROBE_TIMEOUT_MS, TimeUnit.MILLISECONDS).onComplete(done -> promise.complete(done.succeeded()
        ? done.result()
        : Status.KO(new JsonObject().put("error", LogSafe.describe(done.cause())))));
  }
}
