package dev.eventrouter.support;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Concurrent load on the events endpoint: {@code concurrency} requests always in flight, each answered request
 * followed by the next, until {@link #stop()}. Every answer is recorded.
 */
public final class LoadLoop {

  /** One answered request (status 0: no HTTP answer, the connection failed). */
  public record Answer(int sequence, int status, String eventId, String retryAfter) {}

  private final WebClient client;
  private final int port;
  private final String apiKey;
  private final IntFunction<JsonObject> events;
  private final AtomicInteger sequence = new AtomicInteger();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final AtomicInteger inFlight = new AtomicInteger();
  private final List<Answer> answers = new CopyOnWriteArrayList<>();

  private LoadLoop(Vertx vertx, int port, String apiKey, IntFunction<JsonObject> events) {
    this.client = WebClient.create(vertx);
    this.port = port;
    this.apiKey = apiKey;
    this.events = events;
  }

  /** @param events the event to send as the n-th request (n from 1) */
  public static LoadLoop start(Vertx vertx, int port, String apiKey, int concurrency, IntFunction<JsonObject> events) {
    LoadLoop loop = new LoadLoop(vertx, port, apiKey, events);
    for (int i = 0; i < concurrency; i++) {
      vertx.runOnContext(v -> loop.next());
    }
    return loop;
  }

  private void next() {
    if (!running.get()) {
      return;
    }
    int n = sequence.incrementAndGet();
    inFlight.incrementAndGet();
    client.post(port, "127.0.0.1", "/api/v1/events/custom").putHeader("x-api-key", apiKey)
        .putHeader("Content-Type", "application/json").timeout(30_000).sendJsonObject(events.apply(n))
        .onComplete(done -> {
          if (done.succeeded()) {
            var response = done.result();
            String eventId = response.statusCode() == 200
                ? response.bodyAsJsonObject().getJsonObject("data").getString("event_id") : null;
            answers.add(new Answer(n, response.statusCode(), eventId, response.getHeader("Retry-After")));
          } else {
            answers.add(new Answer(n, 0, null, null));
          }
          inFlight.decrementAndGet();
          next();
        });
  }

  public long count(int status) {
    return answers.stream().filter(a -> a.status() == status).count();
  }

  public List<Answer> answers() {
    return List.copyOf(answers);
  }

  /** Stops sending and waits for the requests in flight to be answered. */
  public List<Answer> stop() {
    running.set(false);
    Await.until("the requests in flight to be answered", java.time.Duration.ofSeconds(60), () -> inFlight.get() == 0);
    client.close();
    return answers();
  }
}
