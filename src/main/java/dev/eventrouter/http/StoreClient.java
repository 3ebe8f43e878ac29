package dev.eventrouter.http;

import dev.eventrouter.bus.Addresses;
import dev.eventrouter.bus.BusFailure;
import dev.eventrouter.bus.BusHeaders;
import dev.eventrouter.bus.IngestReply;
import dev.eventrouter.bus.IngestRequest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * The one way the API handlers ask the SessionVerticle: request/reply over the event bus, bounded by the request
 * timeout, with its failures turned into the documented API errors.
 */
public final class StoreClient {

  static final long UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
  public static final String NO_HANDLER = "No running node can answer this now (a credential test needs a node with "
      + "the forward role); retry after the Retry-After delay.";
  /** Time for a forwarder's answer to travel back once the network answered or its request timed out. */
  static final long FORWARDER_MARGIN_MS = 2_000;

  private final Vertx vertx;
  private final long timeoutMs;

  public StoreClient(Vertx vertx, long timeoutMs) {
    this.vertx = vertx;
    this.timeoutMs = timeoutMs;
  }

  /** How long a request waits for its answer before it is told 503. */
  public long timeoutMs() {
    return timeoutMs;
  }

  /**
   * Asks this node's own SessionVerticle (local only: on a clustered bus an answer must never depend on, or be given
   * by, another member), with the request id as a header for its log lines. Any failure but a documented one means
   * "not confirmed, retry later".
   */
  public Future<JsonObject> ask(String address, JsonObject message, RoutingContext rc) {
    return request(address, message, rc, localOnly());
  }

  /** Asks this node's SessionVerticle to store an event: the request and its reply travel as records. */
  public Future<IngestReply> ingest(IngestRequest request, RoutingContext rc) {
    return request(Addresses.EVENTS_INGEST, request, rc, localOnly());
  }

  /** Asks this node's own verticle with a message carried as the object itself (a {@code LocalCodec} type). */
  public <T> Future<T> askLocal(String address, Object message, RoutingContext rc) {
    return request(address, message, rc, localOnly());
  }

  private DeliveryOptions localOnly() {
    return new DeliveryOptions().setSendTimeout(timeoutMs).setLocalOnly(true);
  }

  /**
   * Asks a ForwarderVerticle, on this node or another (a node without the forward role has none), for an answer
   * that takes a request to a network, which the forwarder bounds by the request timeout: this waits a margin more.
   */
  public Future<JsonObject> askForwarder(String address, JsonObject message, RoutingContext rc) {
    return request(address, message, rc, new DeliveryOptions().setSendTimeout(timeoutMs + FORWARDER_MARGIN_MS));
  }

  private <T> Future<T> request(String address, Object message, RoutingContext rc, DeliveryOptions options) {
    options.addHeader(BusHeaders.REQUEST_ID, RequestIds.of(rc));
    return vertx.eventBus()
        .<T>request(address, message, options)
        .map(Message::body)
        .recover(failure -> Future.failedFuture(toApiError(failure)));
  }

  private static ApiException toApiError(Throwable failure) {
    if (failure instanceof ReplyException reply && reply.failureType() == ReplyFailure.NO_HANDLERS) {
      return new ApiException(ErrorCode.UNAVAILABLE, NO_HANDLER, null, UNAVAILABLE_RETRY_AFTER_SECONDS);
    }
    if (failure instanceof ReplyException reply) {
      switch (reply.failureCode()) {
        case BusFailure.NOT_FOUND:
          return new ApiException(ErrorCode.NOT_FOUND);
        case BusFailure.IDEMPOTENCY_CONFLICT:
          return new ApiException(ErrorCode.IDEMPOTENCY_CONFLICT);
        case BusFailure.REFUSED:
          return new ApiException(ErrorCode.VALIDATION_FAILED, reply.getMessage(), null, null);
        default:
          break;
      }
    }
    return ApiException.retryLater(ErrorCode.UNAVAILABLE, UNAVAILABLE_RETRY_AFTER_SECONDS);
  }
}
