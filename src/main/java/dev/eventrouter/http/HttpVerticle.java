package dev.eventrouter.http;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.IngestFailure;
import dev.eventrouter.bus.IngestReply;
import dev.eventrouter.bus.IngestRequest;
import dev.eventrouter.config.HttpConfig;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.ConversionEvent;
import dev.eventrouter.http.ApiException.FieldError;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The public API. Authenticates, rate-limits and validates at the edge, then hands the event over the event bus to
 * the SessionVerticle and answers only with what it replies: 200 only for an event that is committed.
 */
public final class HttpVerticle extends VerticleBase {

  static final String EVENTS_PATH = "/api/v1/events/custom";
  static final String EVENTS_ALIAS = "/v1/events/custom";
  static final String IDEMPOTENCY_KEY = "Idempotency-Key";
  static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";
  static final String API_KEY = "x-api-key";
  static final long UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

  private static final String WORKSPACE = "workspace";
  private static final Pattern IDEMPOTENCY_KEY_TEXT = Pattern.compile("[\\x20-\\x7E]{1,255}");

  private final HttpConfig config;
  private final ApiKeyAuthenticator authenticator;
  private final RateLimiter rateLimiter;
  private HttpServer server;

  public HttpVerticle(HttpConfig config, ApiKeyAuthenticator authenticator, RateLimiter rateLimiter) {
    this.config = config;
    this.authenticator = authenticator;
    this.rateLimiter = rateLimiter;
  }

  @Override
  public Future<?> start() {
    Router router = Router.router(vertx);
    router.route().handler(RequestIds::assign);
    router.get("/health").handler(rc -> Responses.ok(rc, new JsonObject().put("status", "up")));
    for (String path : List.of(EVENTS_PATH, EVENTS_ALIAS)) {
      // Vert.x runs body handlers before user handlers; the size limit caps what an unknown caller can send.
      router.post(path)
          .handler(BodyHandler.create(false).setBodyLimit(config.maxBodyBytes()))
          .handler(this::authenticate)
          .handler(this::rateLimit)
          .handler(HttpVerticle::requireJson)
          .handler(this::ingestEvent);
    }
    ErrorResponder errors = new ErrorResponder();
    router.route().failureHandler(errors);
    for (int status : new int[] {404, 405, 413, 415, 500}) {
      router.errorHandler(status, errors);
    }
    return vertx.createHttpServer(new HttpServerOptions().setHost(config.host()).setPort(config.port()))
        .requestHandler(router)
        .listen()
        .onSuccess(s -> server = s);
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

  private void authenticate(RoutingContext rc) {
    WorkspaceConfig workspace = authenticator.authenticate(rc.request().getHeader(API_KEY));
    if (workspace == null) {
      rc.fail(new ApiException(ErrorCode.UNAUTHORIZED));
      return;
    }
    rc.put(WORKSPACE, workspace);
    rc.next();
  }

  private void rateLimit(RoutingContext rc) {
    WorkspaceConfig workspace = rc.get(WORKSPACE);
    long retryAfter = rateLimiter.tryAcquire(workspace.id());
    if (retryAfter > 0) {
      rc.fail(ApiException.retryLater(ErrorCode.RATE_LIMITED, retryAfter));
      return;
    }
    rc.next();
  }

  private static void requireJson(RoutingContext rc) {
    String type = rc.request().getHeader(HttpHeaders.CONTENT_TYPE);
    String mediaType = type == null ? "" : type.split(";", 2)[0].trim();
    if (!mediaType.equalsIgnoreCase("application/json")) {
      rc.fail(new ApiException(ErrorCode.UNSUPPORTED_MEDIA_TYPE));
      return;
    }
    rc.next();
  }

  private void ingestEvent(RoutingContext rc) {
    WorkspaceConfig workspace = rc.get(WORKSPACE);
    Instant receivedAt = Instant.now();
    JsonObject body = parseObject(rc);
    UUID named = EventValidator.namedWorkspace(body);
    if (named != null && !named.equals(workspace.id())) {
      throw new ApiException(ErrorCode.FORBIDDEN);
    }
    ConversionEvent event = EventValidator.validate(body);
    String idempotencyKey = idempotencyKey(rc);
    IngestRequest request = new IngestRequest(event, receivedAt, idempotencyKey,
        idempotencyKey == null ? null : event.contentHash());
    vertx.eventBus()
        .<JsonObject>request(Addresses.EVENTS_INGEST, request.toJson(),
            new DeliveryOptions().setSendTimeout(config.requestTimeoutMs()))
        .onSuccess(reply -> {
          IngestReply stored = IngestReply.fromJson(reply.body());
          if (stored.replayed()) {
            rc.response().putHeader(IDEMPOTENT_REPLAYED, "true");
          }
          Responses.ok(rc, new JsonObject()
              .put("event_id", stored.eventId())
              .put("session_id", stored.sessionId())
              .put("status", stored.status()));
        })
        .onFailure(failure -> rc.fail(storeFailure(failure)));
  }

  private static JsonObject parseObject(RoutingContext rc) {
    try {
      Buffer body = rc.body().buffer();
      if (body != null && body.length() > 0 && Json.decodeValue(body) instanceof JsonObject object) {
        return object;
      }
    } catch (DecodeException notJson) {
      // answered below
    }
    throw new ApiException(ErrorCode.INVALID_JSON);
  }

  private static String idempotencyKey(RoutingContext rc) {
    String key = rc.request().getHeader(IDEMPOTENCY_KEY);
    if (key == null) {
      return null;
    }
    if (!IDEMPOTENCY_KEY_TEXT.matcher(key).matches()) {
      throw ApiException.validation(List.of(
          new FieldError(IDEMPOTENCY_KEY, "must be 1 to 255 printable ASCII characters")));
    }
    return key;
  }

  /** Whatever kept the event from being stored, the client is told to retry, never that it was accepted. */
  private static Throwable storeFailure(Throwable failure) {
    if (failure instanceof ReplyException reply && reply.failureCode() == IngestFailure.IDEMPOTENCY_CONFLICT) {
      return new ApiException(ErrorCode.IDEMPOTENCY_CONFLICT);
    }
    return ApiException.retryLater(ErrorCode.UNAVAILABLE, UNAVAILABLE_RETRY_AFTER_SECONDS);
  }
}
