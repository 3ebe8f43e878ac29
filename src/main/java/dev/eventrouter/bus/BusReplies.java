package dev.eventrouter.bus;

import dev.eventrouter.common.LogSafe;
import io.vertx.core.Future;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.MDC;

import java.util.Optional;

/** How the store's verticles answer a request on the bus, and log for it under the request's id. */
public final class BusReplies {

  private BusReplies() {}

  /**
   * Replies with the result; {@link BusFailure#NOT_FOUND} when it is empty; {@link BusFailure#UNAVAILABLE} when it
   * failed, logged on {@code log} with the request id (never the cause's message, which may quote a value).
   */
  public static void answer(Logger log, Message<?> message, Future<Optional<JsonObject>> result) {
    result.onComplete(done -> {
      if (done.failed()) {
        logFor(message, () -> log.warn("request {}: {} failed: {}", requestId(message), message.address(),
            LogSafe.describe(done.cause())));
        message.fail(BusFailure.UNAVAILABLE, "not done");
      } else if (done.result().isPresent()) {
        message.reply(done.result().get());
      } else {
        message.fail(BusFailure.NOT_FOUND, "no such event");
      }
    });
  }

  /** The request id the HTTP edge put on the message, or "-". */
  public static String requestId(Message<?> message) {
    String id = message.headers().get(BusHeaders.REQUEST_ID);
    return id == null ? "-" : id;
  }

  /** Logs with the request id of the message as its own field (MDC) too, for JSON logs. */
  public static void logFor(Message<?> message, Runnable log) {
    try (MDC.MDCCloseable ignored = MDC.putCloseable(BusHeaders.REQUEST_ID, requestId(message))) {
      log.run();
    }
  }
}
