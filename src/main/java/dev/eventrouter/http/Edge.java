package dev.eventrouter.http;

import dev.eventrouter.config.WorkspaceConfig;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.UUID;

/** What every authenticated route does at the edge: authenticate, rate-limit, require JSON, read its own body. */
final class Edge {

  static final String API_KEY = "x-api-key";
  private static final String WORKSPACE = "workspace";

  private Edge() {}

  static Handler<RoutingContext> authenticate(AccessControl access) {
    return rc -> {
      WorkspaceConfig workspace = access.authenticate(rc.request().getHeader(API_KEY));
      if (workspace == null) {
        rc.fail(new ApiException(ErrorCode.UNAUTHORIZED));
        return;
      }
      rc.put(WORKSPACE, workspace);
      rc.next();
    };
  }

  static Handler<RoutingContext> rateLimit(AccessControl access) {
    return rc -> {
      long retryAfter = access.tryAcquire(workspace(rc).id());
      if (retryAfter > 0) {
        rc.fail(ApiException.retryLater(ErrorCode.RATE_LIMITED, retryAfter));
        return;
      }
      rc.next();
    };
  }

  static void requireJson(RoutingContext rc) {
    String type = rc.request().getHeader(HttpHeaders.CONTENT_TYPE);
    String mediaType = type == null ? "" : type.split(";", 2)[0].trim();
    if (!mediaType.equalsIgnoreCase("application/json")) {
      rc.fail(new ApiException(ErrorCode.UNSUPPORTED_MEDIA_TYPE));
      return;
    }
    rc.next();
  }

  /** The workspace of the request's API key. */
  static WorkspaceConfig workspace(RoutingContext rc) {
    return rc.get(WORKSPACE);
  }

  /** The body as a JSON object whose workspace_id, when well-formed, is the key's own (else 403). */
  static JsonObject ownBody(RoutingContext rc) {
    JsonObject body = JsonBody.parse(rc.body().buffer());
    UUID named = Fields.namedWorkspace(body);
    if (named != null && !named.equals(workspace(rc).id())) {
      throw new ApiException(ErrorCode.FORBIDDEN);
    }
    return body;
  }
}
