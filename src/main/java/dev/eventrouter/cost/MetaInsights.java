package dev.eventrouter.cost;

import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.common.CurrencyCode;
import dev.eventrouter.common.RetryAfter;
import dev.eventrouter.config.CostSourceConfig;
import dev.eventrouter.cost.SpendFailure.Kind;
import dev.eventrouter.event.SpendRow;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Meta's insights per ad per day (https://developers.facebook.com/docs/marketing-api/insights/): the account's zone
 * and currency, then {@code act_<id>/insights} at {@code level=ad}, {@code time_increment=1}, paged by the
 * {@code after} cursor. The token goes in the Authorization header, and the next page is asked for with the cursor
 * alone: {@code paging.next} carries the token in its query, so it is never kept, logged or followed.
 */
final class MetaInsights implements SpendReader {

  static final String FIELDS = "ad_id,ad_name,adset_id,adset_name,campaign_id,campaign_name,account_currency,spend,"
      + "impressions,clicks,actions,date_start,date_stop";
  /** Token invalid or expired (190, 102); no permission (10, 200-299): the source needs a new token or grant. */
  private static final Set<Integer> REFUSED = Set.of(190, 102, 10);
  /** Rate limits (https://developers.facebook.com/docs/marketing-api/insights/error-codes): 4, 17, 613, 80000. */
  private static final Set<Integer> LIMITED = Set.of(4, 17, 613, 80000, 80003, 80004, 80014);
  /** Told of no wait, a rate-limited source waits this long. */
  static final long DEFAULT_WAIT_MS = TimeUnit.MINUTES.toMillis(5);

  private final CostSourceConfig source;
  private final PlatformGet get;

  MetaInsights(CheckedRequests requests, CostSourceConfig source, long timeoutMs) {
    this.source = source;
    this.get = new PlatformGet(requests, source, timeoutMs, "Meta", "Authorization", "Bearer ");
  }

  @Override
  public Future<Account> account() {
    return get(base() + "?fields=timezone_name,currency").map(body -> {
      String zone = body.getValue("timezone_name") instanceof String z ? z : null;
      String currency = body.getValue("currency") instanceof String c ? CurrencyCode.iso(c) : null;
      if (zone == null || currency == null) {
        throw new SpendFailure(Kind.FAILED, "Meta did not give the ad account's timezone_name and currency");
      }
      return new Account(zone, currency);
    });
  }

  @Override
  public Future<SpendPage> page(Account account, LocalDate from, LocalDate to, int limit, String cursor) {
    String range = new JsonObject().put("since", from.toString()).put("until", to.toString()).encode();
    // The conversions in actions dated by the conversion, as our deliveries are by their events, for the
    // reconciliation (docs/reports.md#reconcile): by default Meta dates them by the impression.
    // https://developers.facebook.com/docs/marketing-api/insights/parameters/
    String url = base() + "/insights?level=ad&time_increment=1&action_report_time=conversion&fields=" + FIELDS
        + "&limit=" + limit
        + "&time_range=" + ReportFields.encode(range) + (cursor == null ? "" : "&after=" + ReportFields.encode(cursor));
    List<Usage> usage = new ArrayList<>(1);
    return send(url, usage).map(body -> {
      if (!(body.getValue("data") instanceof JsonArray data)) {
        throw new SpendFailure(Kind.TRUNCATED, "Meta's answer has no data array");
      }
      List<SpendRow> rows = new ArrayList<>(data.size());
      for (Object item : data) {
        rows.add(row(item, account));
      }
      JsonObject paging = body.getJsonObject("paging", new JsonObject());
      String after = paging.getJsonObject("cursors", new JsonObject()).getString("after");
      // More pages only while Meta gives a next link; its cursor alone is kept.
      String next = paging.getValue("next") != null && after != null && !after.isEmpty() ? after : null;
      return new SpendPage(rows, next, usage.get(0));
    });
  }

  @Override
  public int maxDays() {
    return 30;
  }

  @Override
  public List<Integer> limits() {
    return List.of(500, 100, 50);
  }

  private String base() {
    return source.apiBase() + "/" + source.apiVersion() + "/" + source.account();
  }

  private Future<JsonObject> get(String url) {
    return send(url, new ArrayList<>(1));
  }

  private Future<JsonObject> send(String url, List<Usage> usage) {
    return get.send(url).map(response -> {
      usage.add(Usage.of(response.headers()));
      return answer(response, usage.get(0));
    });
  }

  /** The body of a 200, else the failure Meta's error says. */
  private JsonObject answer(HttpResponse<Buffer> response, Usage usage) {
    JsonObject body = PlatformGet.json(response);
    if (response.statusCode() == 200) {
      if (body == null) {
        throw new SpendFailure(Kind.TRUNCATED, "Meta's answer was cut off (not whole JSON)");
      }
      return body;
    }
    JsonObject error = body == null ? null : body.getJsonObject("error");
    if (error == null) {
      if (response.statusCode() == 429) {
        throw new SpendFailure(Kind.RATE_LIMITED, "Meta answered HTTP 429",
            wait(usage, response.getHeader("Retry-After")));
      }
      throw new SpendFailure(Kind.FAILED, "Meta answered HTTP " + response.statusCode());
    }
    int code = error.getValue("code") instanceof Number n ? n.intValue() : 0;
    int subcode = error.getValue("error_subcode") instanceof Number n ? n.intValue() : 0;
    String message = get.words(error.getString("message"));
    String words = "Meta error " + code + (subcode == 0 ? "" : "/" + subcode) + ": " + message;
    throw new SpendFailure(kind(code, subcode, message, response.statusCode()), words,
        wait(usage, response.getHeader("Retry-After")));
  }

  static Kind kind(int code, int subcode, String message, int status) {
    if (REFUSED.contains(code) || code >= 200 && code <= 299) {
      return Kind.TOKEN_REFUSED;
    }
    if (LIMITED.contains(code) || status == 429) {
      return Kind.RATE_LIMITED;
    }
    // https://developers.facebook.com/docs/marketing-api/insights/error-codes: "Try a smaller date range, fetch less
    // data"; code 1 is generic and counts only with its "reduce the amount of data" message.
    if (code == 100 && subcode == 1504018 || code == 2 && subcode == 1504038
        || code == 1 && message.toLowerCase().contains("reduce the amount of data")) {
      return Kind.TOO_MUCH_DATA;
    }
    return Kind.FAILED;
  }

  /** Meta's minutes to regain access, else Retry-After, else {@link #DEFAULT_WAIT_MS}. */
  private static long wait(Usage usage, String retryAfter) {
    long after = retryAfter == null ? 0 : RetryAfter.millis(retryAfter);
    long wait = Math.max(usage.regainMs(), Math.max(after, 0));
    return wait > 0 ? wait : DEFAULT_WAIT_MS;
  }

  private SpendRow row(Object item, Account account) {
    if (!(item instanceof JsonObject json) || !(json.getValue("ad_id") instanceof String adId)
        || !(json.getValue("date_start") instanceof String day)) {
      throw new SpendFailure(Kind.FAILED, "Meta's insights row has no ad_id or date_start");
    }
    String currency = json.getValue("account_currency") instanceof String c && CurrencyCode.iso(c) != null
        ? CurrencyCode.iso(c) : account.currency();
    return new SpendRow(SpendRow.AD, adId, ReportFields.date(day, "Meta"), account.zone(), currency,
        ReportFields.money(json.getValue("spend"), "Meta"), ReportFields.text(json, "campaign_id"),
        ReportFields.text(json, "campaign_name"), ReportFields.text(json, "adset_id"),
        ReportFields.text(json, "adset_name"),
        ReportFields.text(json, "ad_name"), ReportFields.count(json.getValue("impressions")),
        ReportFields.count(json.getValue("clicks")), actions(json.getValue("actions")));
  }

  /** Meta's own conversion counts by action type. */
  private static Map<String, Long> actions(Object value) {
    Map<String, Long> actions = new LinkedHashMap<>();
    if (value instanceof JsonArray array) {
      for (Object item : array) {
        if (item instanceof JsonObject action && action.getValue("action_type") instanceof String type) {
          Long count = ReportFields.count(action.getValue("value"));
          if (count != null) {
            actions.put(type, count);
          }
        }
      }
    }
    return actions;
  }
}
