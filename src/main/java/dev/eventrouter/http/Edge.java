package dev.eventrouter.http;

import dev.eventrouter.config.KeyRole;
import dev.eventrouter.config.WorkspaceConfig;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.regex.Pattern;

/** What every authenticated route does at the edge: authenticate, rate-limit, require JSON, read its own body. */
public final class Edge {

  static final String API_KEY = "x-api-key";
  private static final String WORKSPACE = "workspace";
  private static final String VISITOR = "visitor";
  private static final String GRANT = "grant";

  private Edge() {}

  /**
   * A workspace's API key, or, where {@code publishableAllowed} (creating a click session), a publishable key used
   * from one of its allowed origins and within the per-IP limit; a publishable key anywhere else is a 403.
   */
  public static Handler<RoutingContext> authenticate(AccessControl access, boolean publishableAllowed) {
    return authenticate(access, publishableAllowed, rc -> rc.request().getHeader(API_KEY));
  }

  /**
   * A workspace's API key as Keitaro's admin API takes it ({@code Api-Key}, https://admin-api.docs.keitaro.io/), as
   * a bearer token (the tools that push to Keitaro-compatible trackers send either), or as {@code x-api-key}.
   */
  public static Handler<RoutingContext> authenticateAdmin(AccessControl access) {
    return authenticate(access, false, rc -> {
      String key = rc.request().getHeader("Api-Key");
      String authorization = rc.request().getHeader(HttpHeaders.AUTHORIZATION);
      if (key == null && authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
        key = authorization.substring(7).trim();
      }
      return key != null ? key : rc.request().getHeader(API_KEY);
    });
  }

  private static Handler<RoutingContext> authenticate(AccessControl access, boolean publishableAllowed,
                                                      Function<RoutingContext, String> keyOf) {
    return rc -> {
      String key = keyOf.apply(rc);
      Grant grant = access.authenticate(key);
      if (grant != null) {
        grant(rc, grant);
        rc.next();
        return;
      }
      ApiKeyAuthenticator.Publishable publishable = access.publishable(key);
      if (publishable == null) {
        rc.fail(new ApiException(ErrorCode.UNAUTHORIZED));
      } else if (!publishableAllowed) {
        rc.fail(new ApiException(ErrorCode.FORBIDDEN, "A publishable key can only create click sessions "
            + "(POST /api/v1/sessions).", null, null));
      } else if (!allowedOrigin(publishable, rc.request().getHeader("Origin"))) {
        rc.fail(new ApiException(ErrorCode.FORBIDDEN, "This publishable key may not be used from this origin; "
            + "add it to the key's allowed_origins.", null, null));
      } else {
        String ip = access.clientIp(rc.request());
        long retryAfter = access.tryAcquireForIp(ip);
        if (retryAfter > 0) {
          rc.fail(ApiException.retryLater(ErrorCode.RATE_LIMITED, retryAfter));
          return;
        }
        rc.put(WORKSPACE, publishable.workspace());
        rc.put(VISITOR, new Visitor(ip, rc.request().getHeader(HttpHeaders.USER_AGENT)));
        rc.next();
      }
    };
  }

  /** A request without an Origin is not from a page (the key's list never holds null). */
  private static boolean allowedOrigin(ApiKeyAuthenticator.Publishable publishable, String origin) {
    return origin != null && publishable.key().allowedOrigins().contains(origin);
  }

  /** The visitor's browser, for a request made with a publishable key from the page itself. */
  public record Visitor(String ip, String userAgent) {}

  /** The browser that made the request, or null when it came from a server with a workspace key. */
  public static Visitor visitor(RoutingContext rc) {
    return rc.get(VISITOR);
  }

  /**
   * Whether the key's role may do what the route does (docs/api.md, "Roles"): else the documented 403, from the
   * headers alone. A publishable key passed authentication only where it may create a click session, an ingest.
   */
  public static Handler<RoutingContext> allow(KeyRole.Permission permission) {
    return rc -> {
      Grant grant = grant(rc);
      if (grant != null && !grant.key().role().may(permission)) {
        rc.fail(new ApiException(ErrorCode.FORBIDDEN, "This key (\"" + grant.key().name() + "\", role "
            + grant.key().role().id + ") may not " + WHAT.get(permission) + ".", null, null));
        return;
      }
      rc.next();
    };
  }

  private static final Map<KeyRole.Permission, String> WHAT = Map.of(
      KeyRole.Permission.INGEST, "post events, sessions, invites or spend",
      KeyRole.Permission.READ, "read the workspace's events, deliveries or reports",
      KeyRole.Permission.READ_ALL, "read what a buyer's scope cannot narrow (integrations, postbacks, reconcile)",
      KeyRole.Permission.ACT, "act (redeliver, test, pause, resume, poll now) or read the audit log");

  /** The request's key: null for a publishable key's request. */
  public static Grant grant(RoutingContext rc) {
    return rc.get(GRANT);
  }

  /** The request's key and its workspace, once authenticated. */
  static void grant(RoutingContext rc, Grant grant) {
    rc.put(WORKSPACE, grant.workspace());
    rc.put(GRANT, grant);
  }

  public static Handler<RoutingContext> rateLimit(AccessControl access) {
    return rc -> {
      long retryAfter = access.tryAcquire(workspace(rc).id(), visitor(rc) != null);
      if (retryAfter > 0) {
        rc.fail(ApiException.retryLater(ErrorCode.RATE_LIMITED, retryAfter));
        return;
      }
      rc.next();
    };
  }

  /** Every answer's: a browser must never read one as another type than it says (an API answer run as script). */
  public static void noSniff(RoutingContext rc) {
    rc.response().putHeader("X-Content-Type-Options", "nosniff");
    rc.next();
  }

  /**
   * A query string Vert.x cannot decode (a {@code %} without two hex digits) is the documented 400 here: left to
   * the router, a route with a path parameter decodes it to add the parameter, and answers a bare 400 after logging
   * the whole URL. The paths that read their own query, leniently (a partner's postback), are let through.
   */
  public static Handler<RoutingContext> readableQuery(Pattern lenientPaths) {
    return rc -> {
      if (rc.request().query() != null && !lenientPaths.matcher(rc.request().path()).matches()) {
        try {
          rc.request().params();
        } catch (IllegalArgumentException unreadable) {
          rc.fail(new ApiException(ErrorCode.BAD_REQUEST, "The query string cannot be read: each '%' must start an "
              + "escape of two hex digits (a '%' itself is written %25).", null, null));
          return;
        }
      }
      rc.next();
    };
  }

  public static void requireJson(RoutingContext rc) {
    String type = rc.request().getHeader(HttpHeaders.CONTENT_TYPE);
    String mediaType = type == null ? "" : type.split(";", 2)[0].trim();
    if (!mediaType.equalsIgnoreCase("application/json")) {
      rc.fail(new ApiException(ErrorCode.UNSUPPORTED_MEDIA_TYPE));
      return;
    }
    rc.next();
  }

  /** The workspace of the request's API key. */
  public static WorkspaceConfig workspace(RoutingContext rc) {
    return rc.get(WORKSPACE);
  }

  /** The body as a JSON object whose workspace_id, when well-formed, is the key's own (else 403). */
  public static JsonObject ownBody(RoutingContext rc) {
    JsonObject body = JsonBody.parse(rc.body().buffer());
    UUID named = Fields.namedWorkspace(body);
    if (named != null && !named.equals(workspace(rc).id())) {
      throw new ApiException(ErrorCode.FORBIDDEN);
    }
    return body;
  }
}
