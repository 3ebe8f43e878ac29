import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Meta, TikTok, Snapchat and Google Ads stand-ins for the benchmark: they answer as the real APIs do on success
 * (Meta's {"events_received": n}, TikTok's {"code": 0}, Snapchat's {"status": "VALID"}, Google's results without a
 * partial failure, and an access token at /token) and count every event by event_id (Google's by order id), so the
 * benchmark can tell how many were delivered, lost or sent twice. Run from the shaded jar's classpath (the JDK's
 * source launcher): java -cp target/event-router.jar bench/FakeNetworks.java PORT
 *
 * GET /stats answers {"meta": {"received": n, "unique": u}, "tiktok": {...}, "snapchat": {...}, "google_ads": {...}};
 * POST /reset clears the counts.
 *
 * <p>It is also Meta's insights for the cost import's benchmark: ad account act_1 (UTC, USD) with {@link #ADS} ads,
 * each spending every day, answered as Meta pages them ({@code limit} rows a page, an {@code after} cursor, every
 * metric a string).
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

  /** The ads of act_1, each with a row every day. */
  static final int ADS = Integer.getInteger("bench.ads", 10_000);

  private static final Map<String, Counts> COUNTS = new ConcurrentHashMap<>(
      Map.of("meta", new Counts(), "tiktok", new Counts(), "snapchat", new Counts(), "google_ads", new Counts()));

  public static void main(String[] args) {
    int port = Integer.parseInt(args[0]);
    Vertx vertx = Vertx.vertx();
    vertx.createHttpServer().requestHandler(FakeNetworks::handle).listen(port, "127.0.0.1").await();
    System.out.println("fake networks on " + port);
  }

  private static void handle(HttpServerRequest request) {
    String path = request.path();
    if (path.equals("/stats")) {
      JsonObject stats = new JsonObject();
      COUNTS.forEach((network, counts) -> stats.put(network, counts.toJson()));
      request.response().end(stats.encode());
    } else if (path.equals("/reset")) {
      COUNTS.replaceAll((network, counts) -> new Counts());
      request.response().end("{}");
    } else if (path.startsWith("/open_api/")) {
      request.body().onSuccess(body -> {
        count("tiktok", body.toJsonObject().getJsonArray("data"));
        request.response().putHeader("Content-Type", "application/json")
            .end("{\"code\":0,\"message\":\"OK\",\"request_id\":\"bench\",\"data\":{}}");
      });
    } else if (path.equals("/token")) {
      request.response().putHeader("Content-Type", "application/json")
          .end("{\"access_token\":\"ya29.bench\",\"expires_in\":3599,\"token_type\":\"Bearer\"}");
    } else if (path.endsWith(":uploadClickConversions")) {
      request.body().onSuccess(body -> {
        JsonArray rows = body.toJsonObject().getJsonArray("conversions");
        count("google_ads", rows, "orderId");
        request.response().putHeader("Content-Type", "application/json")
            .end(new JsonObject().put("results", rows).put("jobId", "1").encode());
      });
    } else if (path.startsWith("/v3/")) {
      request.body().onSuccess(body -> {
        count("snapchat", body.toJsonObject().getJsonArray("data"));
        request.response().putHeader("Content-Type", "application/json")
            .end("{\"status\":\"VALID\",\"reason\":\"bench\"}");
      });
    } else if (path.endsWith("/act_1")) {
      request.response().putHeader("Content-Type", "application/json")
          .end("{\"timezone_name\":\"UTC\",\"currency\":\"USD\",\"id\":\"act_1\"}");
    } else if (path.endsWith("/act_1/insights")) {
      request.response().putHeader("Content-Type", "application/json").end(insights(request).encode());
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

  /** A page of act_1's rows of the range, ordered by day then ad; the cursor is the index of the page's last row. */
  private static JsonObject insights(HttpServerRequest request) {
    JsonObject range = new JsonObject(request.getParam("time_range"));
    java.time.LocalDate since = java.time.LocalDate.parse(range.getString("since"));
    long days = java.time.temporal.ChronoUnit.DAYS.between(since, java.time.LocalDate.parse(range.getString("until")))
        + 1;
    int limit = Integer.parseInt(request.getParam("limit", "25"));
    String after = request.getParam("after");
    long from = after == null ? 0 : Long.parseLong(after) + 1;
    long total = days * ADS;
    long to = Math.min(total, from + limit);
    JsonArray data = new JsonArray();
    for (long i = from; i < to; i++) {
      long ad = i % ADS;
      String day = since.plusDays(i / ADS).toString();
      data.add(new JsonObject().put("ad_id", String.valueOf(3000 + ad)).put("ad_name", "ad " + ad)
          .put("adset_id", String.valueOf(2000 + ad / 5)).put("adset_name", "adset " + ad / 5)
          .put("campaign_id", String.valueOf(1000 + ad / 20)).put("campaign_name", "campaign " + ad / 20)
          .put("account_currency", "USD").put("spend", String.format("%d.%02d", 1 + ad % 97, ad % 100))
          .put("impressions", String.valueOf(1000 + ad)).put("clicks", String.valueOf(10 + ad % 50))
          .put("actions", new JsonArray().add(new JsonObject().put("action_type", "link_click")
              .put("value", String.valueOf(10 + ad % 50))))
          .put("date_start", day).put("date_stop", day));
    }
    JsonObject paging = new JsonObject().put("cursors", new JsonObject().put("before", String.valueOf(from))
        .put("after", String.valueOf(to - 1)));
    if (to < total) {
      paging.put("next", "http://127.0.0.1/next?after=" + (to - 1) + "&access_token=bench-token");
    }
    return new JsonObject().put("data", data).put("paging", paging);
  }

  private static void count(String network, JsonArray data) {
    count(network, data, "event_id");
  }

  private static void count(String network, JsonArray data, String idField) {
    Counts counts = COUNTS.get(network);
    for (int i = 0; i < data.size(); i++) {
      String id = data.getJsonObject(i).getString(idField);
      counts.received().increment();
      counts.unique().add(Long.parseLong(id.substring("evt_".length())));
    }
  }
}
