package dev.eventrouter.support;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server standing in for TikTok's synchronous report per ad per day,
 * {@code GET /open_api/v1.3/report/integrated/get/}
 * (https://github.com/tiktok/tiktok-business-api-sdk/blob/main/docs/ReportingApi.md): the {@code Access-Token}
 * header, {@code report_type=BASIC}, {@code data_level=AUCTION_AD}, {@code dimensions=["ad_id","stat_time_day"]},
 * at most 30 days, {@code page}/{@code page_size} (1 to 1000). Every answer is HTTP 200 with TikTok's envelope; an
 * error is a {@code code} other than 0. Metric values are strings, {@code "-"} where a row has none. Rows are the
 * test's; whether their dates are the advertiser's zone or UTC is unconfirmed and left to the test.
 */
public final class FakeTikTokReports {

  public static final String TOKEN = "tiktok-advertiser-token-41d2e0";
  public static final String PATH = "/open_api/v1.3/report/integrated/get/";
  /** A refused token. The sources say only "40100-40105 or an auth-like message": unconfirmed which one. */
  public static final int TOKEN_CODE = 40105;
  /** Too many requests; a third-party code list has 40100 (QPS/QPM/QPD exceeded), our sources leave it open. */
  public static final int RATE_LIMIT_CODE = 40100;
  /** A bad parameter, here also a range over 30 days: TikTok's code for it is unconfirmed. */
  public static final int PARAM_CODE = 40002;
  public static final int DEFAULT_PAGE_SIZE = 10;

  /** One ad's day; metrics by name, as strings ("ad_name", "campaign_id", "currency" are metrics too). */
  public record Row(String adId, LocalDate date, Map<String, String> metrics) {}

  /** A request as received: its query, the Access-Token header, and the envelope's code answered. */
  public record Received(MultiMap params, String token, int code) {}

  private final String advertiserId;
  private final List<Row> rows = new CopyOnWriteArrayList<>();
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final AtomicInteger rateLimited = new AtomicInteger();
  private final AtomicInteger requests = new AtomicInteger();
  private volatile boolean revoked;
  private HttpServer server;

  private FakeTikTokReports(String advertiserId) {
    this.advertiserId = advertiserId;
  }

  public static FakeTikTokReports start(Vertx vertx, String advertiserId) {
    FakeTikTokReports fake = new FakeTikTokReports(advertiserId);
    Router router = Router.router(vertx);
    router.get(PATH).handler(fake::report);
    fake.server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
    return fake;
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  public void close() {
    server.close().await();
  }

  public void addRows(Row... added) {
    rows.addAll(Arrays.asList(added));
  }

  public void revokeToken() {
    revoked = true;
  }

  /** The next {@code calls} requests are answered with {@link #RATE_LIMIT_CODE}. */
  public void rateLimitNext(int calls) {
    rateLimited.set(calls);
  }

  public List<Received> received() {
    return List.copyOf(received);
  }

  private void report(RoutingContext rc) {
    MultiMap q = rc.queryParams();
    String token = rc.request().getHeader("Access-Token");
    if (!TOKEN.equals(token) || revoked) {
      answer(rc, token, TOKEN_CODE, "Access token is incorrect or has been revoked.", null);
      return;
    }
    if (rateLimited.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      answer(rc, token, RATE_LIMIT_CODE, "Too many requests. Please retry in some time.", null);
      return;
    }
    String problem = problem(q);
    if (problem != null) {
      answer(rc, token, PARAM_CODE, problem, null);
      return;
    }
    LocalDate start = LocalDate.parse(q.get("start_date"));
    LocalDate end = LocalDate.parse(q.get("end_date"));
    int page = q.contains("page") ? Integer.parseInt(q.get("page")) : 1;
    int size = q.contains("page_size") ? Integer.parseInt(q.get("page_size")) : DEFAULT_PAGE_SIZE;
    JsonArray metrics = new JsonArray(q.get("metrics"));
    List<Row> matching = rows.stream().filter(r -> !r.date().isBefore(start) && !r.date().isAfter(end))
        .sorted(Comparator.comparing(Row::date).thenComparing(Row::adId)).toList();
    JsonArray list = new JsonArray();
    for (int i = (page - 1) * size; i < Math.min(matching.size(), page * size); i++) {
      Row row = matching.get(i);
      JsonObject values = new JsonObject();
      metrics.forEach(m -> values.put((String) m, row.metrics().getOrDefault((String) m, "-")));
      list.add(new JsonObject().put("dimensions", new JsonObject().put("ad_id", row.adId())
          .put("stat_time_day", row.date() + " 00:00:00")).put("metrics", values));
    }
    JsonObject pageInfo = new JsonObject().put("page", page).put("page_size", size)
        .put("total_number", matching.size()).put("total_page", (matching.size() + size - 1) / size);
    answer(rc, token, 0, "OK", new JsonObject().put("list", list).put("page_info", pageInfo));
  }

  /** What is wrong with the request, worded as TikTok's parameter errors are, or null. */
  private String problem(MultiMap q) {
    if (!advertiserId.equals(q.get("advertiser_id"))) {
      return "advertiser_id: No permission to operate advertiser " + q.get("advertiser_id") + ".";
    }
    if (!"BASIC".equals(q.get("report_type")) || !"AUCTION_AD".equals(q.get("data_level"))) {
      return "report_type / data_level: this fake serves BASIC / AUCTION_AD only.";
    }
    try {
      if (!new JsonArray(q.get("dimensions")).equals(new JsonArray().add("ad_id").add("stat_time_day"))) {
        return "dimensions: this fake serves [\"ad_id\",\"stat_time_day\"] only.";
      }
      if (new JsonArray(q.get("metrics")).isEmpty()) {
        return "metrics: Length must be between 1 and 100.";
      }
    } catch (DecodeException | NullPointerException | ClassCastException e) {
      return "dimensions / metrics: Not a valid list.";
    }
    LocalDate start;
    LocalDate end;
    try {
      start = LocalDate.parse(q.get("start_date"));
      end = LocalDate.parse(q.get("end_date"));
    } catch (DateTimeParseException | NullPointerException e) {
      return "start_date / end_date: Not a valid date (YYYY-MM-DD).";
    }
    if (end.isBefore(start)) {
      return "end_date: must not be earlier than start_date.";
    }
    if (ChronoUnit.DAYS.between(start, end) + 1 > 30) {
      return "The time span between start_date and end_date cannot exceed 30 days when stat_time_day is used.";
    }
    try {
      int page = q.contains("page") ? Integer.parseInt(q.get("page")) : 1;
      int size = q.contains("page_size") ? Integer.parseInt(q.get("page_size")) : DEFAULT_PAGE_SIZE;
      if (page < 1 || size < 1 || size > 1000) {
        return "page / page_size: page must be at least 1 and page_size between 1 and 1000.";
      }
    } catch (NumberFormatException e) {
      return "page / page_size: Not a valid integer.";
    }
    return null;
  }

  private void answer(RoutingContext rc, String token, int code, String message, JsonObject data) {
    received.add(new Received(MultiMap.caseInsensitiveMultiMap().addAll(rc.queryParams()), token, code));
    JsonObject body = new JsonObject().put("code", code).put("message", message)
        .put("request_id", "2026112718" + String.format("%06d", requests.incrementAndGet()))
        .put("data", data == null ? new JsonObject() : data);
    rc.response().setStatusCode(200).putHeader("Content-Type", "application/json").end(body.encode());
  }
}
