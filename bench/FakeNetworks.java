import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Meta and TikTok stand-ins for the benchmark: they answer as the real APIs do on success (Meta's
 * {"events_received": n}, TikTok's {"code": 0}) and count every event by event_id, so the benchmark can tell how
 * many were delivered, lost or sent twice. Run from the shaded jar's classpath (the JDK's source launcher):
 * java -cp target/event-router.jar bench/FakeNetworks.java PORT
 *
 * GET /stats answers {"meta": {"received": n, "unique": u}, "tiktok": {...}}; POST /reset clears the counts.
 */
public final class FakeNetworks {

  private record Counts(LongAdder received, Set<Long> unique) {
    Counts() {
      this(new LongAdder(), ConcurrentHashMap.newKeySet());
    }

    JsonObject toJson() {
      return new JsonObject().put("received", received.sum()).put("unique", unique.size());
    }
  }

  private static final Map<String, Counts> COUNTS = new ConcurrentHashMap<>(
      Map.of("meta", new Counts(), "tiktok", new Counts()));

  public static void main(String[] args) {
    int port = Integer.parseInt(args[0]);
    Vertx vertx = Vertx.vertx();
    vertx.createHttpServer().requestHandler(FakeNetworks::handle).listen(port, "127.0.0.1").await();
    System.out.println("fake networks on " + port);
  }

  private static void handle(HttpServerRequest request) {
    String path = request.path();
    if (path.equals("/stats")) {
      request.response().end(new JsonObject().put("meta", COUNTS.get("meta").toJson())
          .put("tiktok", COUNTS.get("tiktok").toJson()).encode());
    } else if (path.equals("/reset")) {
      COUNTS.replaceAll((network, counts) -> new Counts());
      request.response().end("{}");
    } else if (path.startsWith("/open_api/")) {
      request.body().onSuccess(body -> {
        count("tiktok", body.toJsonObject().getJsonArray("data"));
        request.response().putHeader("Content-Type", "application/json")
            .end("{\"code\":0,\"message\":\"OK\",\"request_id\":\"bench\",\"data\":{}}");
      });
    } else if (path.endsWith("/events")) {
      request.body().onSuccess(body -> {
        JsonArray data = body.toJsonObject().getJsonArray("data");
        count("meta", data);
        request.response().putHeader("Content-Type", "application/json")
            .end("{\"events_received\":" + data.size() + ",\"messages\":[],\"fbtrace_id\":\"bench\"}");
      });
    } else {
      request.response().setStatusCode(404).end();
    }
  }

  private static void count(String network, JsonArray data) {
    Counts counts = COUNTS.get(network);
    for (int i = 0; i < data.size(); i++) {
      String id = data.getJsonObject(i).getString("event_id");
      counts.received().increment();
      counts.unique().add(Long.parseLong(id.substring("evt_".length())));
    }
  }
}
