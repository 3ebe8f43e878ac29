package dev.eventrouter.http;

import dev.eventrouter.common.IpBlock;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.config.PublishableKey;
import dev.eventrouter.config.WorkspaceConfig;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.CorsHandler;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.LongSupplier;

/** Who may call, and how often: rebuilt when the config is reloaded, shared by all HttpVerticle instances. */
public final class AccessControl {

  /** How long a browser may reuse a CORS preflight's answer. */
  static final int PREFLIGHT_MAX_AGE_S = 600;

  private final List<IpBlock> trustedProxies;
  private final IpRateLimiter perIp;
  private volatile ApiKeyAuthenticator authenticator;
  private volatile RateLimiter rateLimiter;
  private volatile Handler<RoutingContext> cors;
  private volatile Map<UUID, WorkspaceConfig> byId;
  private volatile PostbackSources postbacks;
  private final LongSupplier nanoClock;

  public AccessControl(List<WorkspaceConfig> workspaces, LongSupplier nanoClock) {
    this(workspaces, new HttpConfig("127.0.0.1", 0, 1, 1, 1), nanoClock);
  }

  public AccessControl(List<WorkspaceConfig> workspaces, HttpConfig http, LongSupplier nanoClock) {
    trustedProxies = http.trustedProxies().stream().map(IpBlock::parse).toList();
    perIp = new IpRateLimiter(http.publishableRateLimit(), nanoClock);
    authenticator = new ApiKeyAuthenticator(workspaces);
    rateLimiter = new RateLimiter(workspaces, http.publishableShare(), nanoClock);
    cors = cors(workspaces);
    byId = byId(workspaces);
    this.nanoClock = nanoClock;
    postbacks = new PostbackSources(workspaces, nanoClock, null);
  }

  /** Keys are replaced; rate-limit buckets carry over for the workspaces whose limit is unchanged. */
  public void update(List<WorkspaceConfig> workspaces) {
    authenticator = new ApiKeyAuthenticator(workspaces);
    rateLimiter = rateLimiter.reloaded(workspaces);
    cors = cors(workspaces);
    byId = byId(workspaces);
    postbacks = new PostbackSources(workspaces, nanoClock, postbacks);
  }

  /** The postback source whose URL token this is, or null. */
  public PostbackSources.Entry postbackSource(String token) {
    return postbacks.find(token);
  }

  /** The per-source limit of postbacks: 0, or the seconds to wait. */
  public long tryAcquirePostback(PostbackSources.Entry source) {
    return postbacks.tryAcquire(source);
  }

  private static Map<UUID, WorkspaceConfig> byId(List<WorkspaceConfig> workspaces) {
    Map<UUID, WorkspaceConfig> map = new HashMap<>();
    workspaces.forEach(w -> map.put(w.id(), w));
    return map;
  }

  /** The workspace of this id, or null: for a route that names it instead of presenting a key. */
  public WorkspaceConfig workspace(UUID id) {
    return byId.get(id);
  }

  Grant authenticate(String key) {
    return authenticator.authenticate(key, Instant.now());
  }

  ApiKeyAuthenticator.Publishable publishable(String key) {
    return authenticator.publishable(key);
  }

  long tryAcquire(UUID workspaceId, boolean publishableKey) {
    return rateLimiter.tryAcquire(workspaceId, publishableKey);
  }

  /** The per-IP limit of publishable-key requests. */
  long tryAcquireForIp(String ip) {
    return perIp.tryAcquire(ip);
  }

  String clientIp(HttpServerRequest request) {
    return ClientIp.of(request, trustedProxies);
  }

  /** CORS for the route publishable keys may call: the origins of every workspace's publishable keys, none else. */
  public Handler<RoutingContext> cors() {
    return cors;
  }

  /**
   * vertx-web's CorsHandler over the union of the allowed origins: a preflight from one of them is granted (POST,
   * with the x-api-key and Content-Type headers), from any other refused 403; the request itself is then checked
   * against its own key's origins at authentication. Without any origin configured nothing is granted (a CorsHandler
   * without origins would grant every origin).
   */
  private static Handler<RoutingContext> cors(List<WorkspaceConfig> workspaces) {
    Set<String> origins = new TreeSet<>();
    workspaces.forEach(w -> w.publishableKeys().stream().map(PublishableKey::allowedOrigins).forEach(origins::addAll));
    if (origins.isEmpty()) {
      return RoutingContext::next;
    }
    CorsHandler granted = CorsHandler.create().addOrigins(List.copyOf(origins)).allowedMethod(HttpMethod.POST)
        .allowedHeaders(Set.of("content-type", Edge.API_KEY)).maxAgeSeconds(PREFLIGHT_MAX_AGE_S);
    return rc -> {
      String origin = rc.request().getHeader("Origin");
      if (origin != null && !origins.contains(origin)) {
        // Refused here rather than by CorsHandler, so the answer says why in the documented error body.
        rc.fail(new ApiException(ErrorCode.FORBIDDEN, "This origin is not an allowed origin of any publishable "
            + "key.", null, null));
        return;
      }
      granted.handle(rc);
    };
  }
}
