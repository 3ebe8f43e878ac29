package dev.eventrouter.support;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * A real HTTP server standing in for Meta's Marketing API insights per ad per day
 * (https://developers.facebook.com/docs/marketing-api/insights/): {@code GET /{version}/act_<id>?fields=timezone_name,currency}
 * and {@code GET /{version}/act_<id>/insights?level=ad&time_increment=1&action_report_time=conversion
 * &time_range={...}&fields=...&limit=N}, every metric a string, paged by {@code after} cursors with a
 * {@code paging.next} URL that carries the access token. The token comes as {@code access_token} or {@code Authorization: Bearer}. Rows are the test's, dated in the account's
 * zone; days without a row are absent. {@link #script()} scripts the errors.
 */
public final class FakeMetaInsights {

  public static final String TOKEN = "meta-system-user-7c1e93ab";

  /** One ad's day, dated in the account's zone; {@code actions} maps action_type to its count. */
  public record Row(String adId, LocalDate date, String spend, long impressions, long clicks, String adName,
                    String adsetId, String adsetName, String campaignId, String campaignName,
                    Map<String, Long> actions) {

    /** A row with names and ids derived from the ad's, and no actions. */
    public static Row of(String adId, LocalDate date, String spend, long impressions, long clicks) {
      return new Row(adId, date, spend, impressions, clicks, "ad " + adId, "as" + adId, "adset " + adId,
          "c" + adId, "campaign " + adId, Map.of());
    }
  }

  /** A request as received: path, query parameters, the token it carried and the HTTP status answered. */
  public record Received(String path, MultiMap params, String token, int status) {}

  private final String accountId;
  private final String timezone;
  private final String currency;
  private final List<Row> rows = new CopyOnWriteArrayList<>();
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private final MetaInsightsScript script = new MetaInsightsScript();
  private volatile int pageSize = 25;
  private volatile String token = TOKEN;
  private HttpServer server;

  private FakeMetaInsights(String accountId, String timezone, String currency) {
    this.accountId = accountId;
    this.timezone = timezone;
    this.currency = currency;
  }

  /** An ad account {@code act_<accountId>} in this IANA zone and currency. */
  public static FakeMetaInsights start(Vertx vertx, String accountId, String timezone, String currency) {
    FakeMetaInsights fake = new FakeMetaInsights(accountId, timezone, currency);
    Router router = Router.router(vertx);
    router.get("/:version/:account").handler(fake::account);
    router.get("/:version/:account/insights").handler(fake::insights);
    fake.server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
    return fake;
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  public void close() {
    server.close().await();
  }

  public MetaInsightsScript script() {
    return script;
  }

  public void addRows(Row... added) {
    rows.addAll(Arrays.asList(added));
  }

  /** Rows a page holds at most (a smaller {@code limit} parameter makes it smaller). */
  public void pageSize(int size) {
    pageSize = size;
  }

  public void clearRows() {
    rows.clear();
  }

  /** From now on the account takes this token (a new System User token), and only this one. */
  public void resetToken(String newToken) {
    token = newToken;
    script.restoreToken();
  }

  public List<Received> received() {
    return List.copyOf(received);
  }

  private void account(RoutingContext rc) {
    String token = token(rc);
    if (refuseToken(rc, token) || refuseAccount(rc, token)) {
      return;
    }
    JsonObject all = new JsonObject().put("timezone_name", timezone).put("currency", currency);
    JsonObject body = new JsonObject();
    for (String field : fields(rc, all.fieldNames())) {
      body.put(field, all.getValue(field));
    }
    reply(rc, token, 200, body.put("id", "act_" + accountId).encode(), Map.of());
  }

  private void insights(RoutingContext rc) {
    String token = token(rc);
    if (refuseToken(rc, token) || refuseAccount(rc, token)) {
      return;
    }
    MultiMap q = rc.queryParams();
    if (!"ad".equals(q.get("level")) || !"1".equals(q.get("time_increment"))
        || !"conversion".equals(q.get("action_report_time"))) {
      fail(rc, token, 400, MetaInsightsScript.error(100, null, "OAuthException",
          "(#100) This fake serves only level=ad&time_increment=1&action_report_time=conversion"));
      return;
    }
    LocalDate since;
    LocalDate until;
    try {
      JsonObject range = new JsonObject(q.get("time_range"));
      since = LocalDate.parse(range.getString("since"));
      until = LocalDate.parse(range.getString("until"));
    } catch (DecodeException | DateTimeParseException | NullPointerException e) {
      fail(rc, token, 400, MetaInsightsScript.error(100, null, "OAuthException",
          "(#100) time_range must be {\"since\":\"YYYY-MM-DD\",\"until\":\"YYYY-MM-DD\"}"));
      return;
    }
    int usage = script.countCall();
    Map<String, String> headers = script.headers(accountId, usage);
    MetaInsightsScript.Failure failure = script.limited(usage);
    if (failure == null) {
      failure = script.tooMuchData(ChronoUnit.DAYS.between(since, until) + 1);
    }
    if (failure != null) {
      reply(rc, token, failure.status(), failure.body().encode(), headers);
      return;
    }
    List<Row> matching = rows.stream().filter(r -> !r.date().isBefore(since) && !r.date().isAfter(until))
        .sorted(Comparator.comparing(Row::date).thenComparing(Row::adId)).toList();
    int limit = Math.min(pageSize, q.contains("limit") ? Integer.parseInt(q.get("limit")) : Integer.MAX_VALUE);
    int from = q.contains("after") ? decode(q.get("after")) + 1 : 0;
    if (from < 0) {
      fail(rc, token, 400, MetaInsightsScript.error(100, null, "OAuthException", "(#100) Invalid cursor"));
      return;
    }
    int to = Math.min(matching.size(), from + limit);
    Set<String> fields = fields(rc, Set.of());
    JsonArray data = new JsonArray();
    for (int i = from; i < to; i++) {
      data.add(json(matching.get(i), fields));
    }
    JsonObject body = new JsonObject().put("data", data);
    if (from < to) {
      JsonObject paging = new JsonObject().put("cursors",
          new JsonObject().put("before", encode(from)).put("after", encode(to - 1)));
      if (to < matching.size()) {
        paging.put("next", next(rc, encode(to - 1), token));
      }
      body.put("paging", paging);
    }
    String text = body.encode();
    reply(rc, token, 200, script.takeTruncation() ? text.substring(0, text.length() / 2) : text, headers);
  }

  private JsonObject json(Row row, Set<String> fields) {
    JsonArray actions = new JsonArray();
    row.actions().forEach((type, n) -> actions.add(new JsonObject().put("action_type", type)
        .put("value", String.valueOf(n))));
    JsonObject all = new JsonObject().put("account_id", accountId).put("account_currency", currency)
        .put("campaign_id", row.campaignId()).put("campaign_name", row.campaignName())
        .put("adset_id", row.adsetId()).put("adset_name", row.adsetName())
        .put("ad_id", row.adId()).put("ad_name", row.adName())
        .put("spend", row.spend()).put("impressions", String.valueOf(row.impressions()))
        .put("clicks", String.valueOf(row.clicks()))
        .put("inline_link_clicks", String.valueOf(row.actions().getOrDefault("link_click", 0L)));
    if (!actions.isEmpty()) {
      all.put("actions", actions);
    }
    JsonObject out = new JsonObject();
    fields.stream().filter(all::containsKey).forEach(f -> out.put(f, all.getValue(f)));
    return out.put("date_start", row.date().toString()).put("date_stop", row.date().toString());
  }

  /** The request's URL with {@code after} replaced and the access token in it, as Meta's {@code next} is. */
  private String next(RoutingContext rc, String after, String token) {
    MultiMap q = MultiMap.caseInsensitiveMultiMap().addAll(rc.queryParams()).remove("after").remove("access_token")
        .add("after", after).add("access_token", token);
    return baseUrl() + rc.request().path() + "?" + q.entries().stream()
        .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
  }

  private static Set<String> fields(RoutingContext rc, Set<String> fallback) {
    String fields = rc.queryParams().get("fields");
    return fields == null ? fallback : Set.of(fields.split(","));
  }

  private static String token(RoutingContext rc) {
    String auth = rc.request().getHeader("Authorization");
    if (auth != null && auth.startsWith("Bearer ")) {
      return auth.substring("Bearer ".length());
    }
    return rc.queryParams().get("access_token");
  }

  private boolean refuseToken(RoutingContext rc, String token) {
    if (this.token.equals(token) && !script.revoked()) {
      return false;
    }
    MetaInsightsScript.Failure f = MetaInsightsScript.invalidToken(this.token.equals(token));
    fail(rc, token, f.status(), f.body());
    return true;
  }

  private boolean refuseAccount(RoutingContext rc, String token) {
    if (("act_" + accountId).equals(rc.pathParam("account"))) {
      return false;
    }
    fail(rc, token, 400, MetaInsightsScript.error(100, 33, "GraphMethodException", "Unsupported get request. Object"
        + " with ID '" + rc.pathParam("account") + "' does not exist or cannot be loaded due to missing permissions"));
    return true;
  }

  private static String encode(int index) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(("row:" + index).getBytes(StandardCharsets.UTF_8));
  }

  /** The row index a cursor names, or -2 for one this fake did not make. */
  private static int decode(String cursor) {
    try {
      String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
      return text.startsWith("row:") ? Integer.parseInt(text.substring(4)) : -2;
    } catch (IllegalArgumentException e) {
      return -2;
    }
  }

  private void fail(RoutingContext rc, String token, int status, JsonObject body) {
    reply(rc, token, status, body.encode(), Map.of());
  }

  private void reply(RoutingContext rc, String token, int status, String body, Map<String, String> headers) {
    received.add(new Received(rc.request().path(),
        MultiMap.caseInsensitiveMultiMap().addAll(rc.queryParams()), token, status));
    headers.forEach((k, v) -> rc.response().putHeader(k, v));
    rc.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body);
  }
}
