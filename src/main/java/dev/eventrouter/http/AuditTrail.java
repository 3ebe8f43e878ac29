package dev.eventrouter.http;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.common.LogSafe;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Records each action (redeliver, test, pause, resume, poll now) in the audit log once it is answered: the key's
 * name, the action, its target and the answer given. A refusal by role is recorded too, once a minute per key and
 * action: a key that keeps trying is seen without filling the log. The entry is written after the answer: a write
 * that fails is logged, and the action stands.
 */
public final class AuditTrail {

  private static final Logger LOG = LoggerFactory.getLogger(AuditTrail.class);
  private static final String OUTCOME = "audit.outcome";
  private static final String TARGET = "audit.target";
  /** How often a key's refusals of one action are recorded at most. */
  static final long REFUSAL_EVERY_MS = 60_000;
  /** Keys and actions whose last refusal is remembered at most (keys of configs since replaced age out). */
  static final int MAX_REFUSERS = 10_000;

  private final Vertx vertx;
  private final LongSupplier clock;
  private final Map<String, Long> refused = new ConcurrentHashMap<>();

  public AuditTrail(Vertx vertx) {
    this(vertx, System::currentTimeMillis);
  }

  AuditTrail(Vertx vertx, LongSupplier clock) {
    this.vertx = vertx;
    this.clock = clock;
  }

  /** A route's handler: records {@code action} on {@code target} (read from the request) when the answer ends. */
  public Handler<RoutingContext> of(String action, Function<RoutingContext, String> target) {
    return rc -> {
      Grant grant = Edge.grant(rc);
      if (grant == null) {
        rc.next();
        return;
      }
      JsonObject who = new JsonObject().put("workspace_id", grant.workspace().id().toString())
          .put("key_name", grant.key().name()).put("action", action);
      rc.addEndHandler(ended -> {
        if (rc.response().getStatusCode() == ErrorCode.FORBIDDEN.status && !firstRefusal(grant, action)) {
          return;
        }
        String what = rc.get(TARGET) != null ? rc.get(TARGET) : target.apply(rc);
        JsonObject entry = who.put("target", what).put("outcome", outcome(rc));
        vertx.eventBus().request(Addresses.AUDIT_RECORD, entry, new DeliveryOptions().setLocalOnly(true))
            .onFailure(e -> LOG.warn("the audit log did not record {} on {}: {}", action, what,
                LogSafe.describe(e)));
      });
      rc.next();
    };
  }

  /** Whether this refusal is the key's first of this action in a minute. */
  boolean firstRefusal(Grant grant, String action) {
    if (refused.size() > MAX_REFUSERS) {
      refused.clear();
    }
    long now = clock.getAsLong();
    String who = grant.workspace().id() + " " + grant.key().name() + " " + action;
    Long last = refused.get(who);
    if (last != null && now - last < REFUSAL_EVERY_MS) {
      return false;
    }
    refused.put(who, now);
    return true;
  }

  /** What the handler says of its outcome, instead of the answer's status (a credential test's verdict). */
  public static void outcome(RoutingContext rc, String outcome) {
    rc.put(OUTCOME, outcome);
  }

  /** What the handler acted on, when the request's path does not say it (the deliveries a filter named). */
  public static void target(RoutingContext rc, String target) {
    rc.put(TARGET, target);
  }

  /** The answer's status and error code ({@code 404 not_found}), or the handler's own words after its status. */
  static String outcome(RoutingContext rc) {
    int status = rc.response().getStatusCode();
    String told = rc.get(OUTCOME);
    if (told != null) {
      return status + " " + told;
    }
    if (rc.failure() instanceof ApiException error) {
      return status + " " + error.code().code;
    }
    return status + (status < 300 ? " ok" : " " + ErrorCode.forStatus(status).code);
  }
}
