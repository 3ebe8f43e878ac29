package dev.eventrouter.cost;

import dev.eventrouter.common.CheckedRequests;
import dev.eventrouter.common.CurrencyCode;
import dev.eventrouter.common.RetryAfter;
import dev.eventrouter.config.CostSourceConfig;
import dev.eventrouter.cost.SpendFailure.Kind;
import dev.eventrouter.event.SpendRow;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * TikTok's synchronous report per ad per day ({@code report/integrated/get}, {@code AUCTION_AD} by
 * {@code ["ad_id","stat_time_day"]}: https://github.com/tiktok/tiktok-business-api-sdk/blob/main/docs/ReportingApi.md),
 * at most 30 days a request, pages of up to 1,000. Every answer is HTTP 200 with an envelope whose {@code code} other
 * than 0 is the error. The days are in the zone the source's config names.
 */
final class TikTokReports implements SpendReader {

  static final String PATH = "/open_api/v1.3/report/integrated/get/";
  static final String METRICS = new JsonArray().add("spend").add("impressions").add("clicks").add("conversion")
      .add("ad_name").add("adgroup_id").add("adgroup_name").add("campaign_id").add("campaign_name").add("currency")
      .encode();
  static final String DIMENSIONS = new JsonArray().add("ad_id").add("stat_time_day").encode();

  private final CostSourceConfig source;
  private final PlatformGet get;

  TikTokReports(CheckedRequests requests, CostSourceConfig source, long timeoutMs) {
    this.source = source;
    this.get = new PlatformGet(requests, source, timeoutMs, "TikTok", "Access-Token", "");
  }

  /** TikTok's report does not say its zone: the config's; the currency comes with each row. */
  @Override
  public Future<Account> account() {
    return Future.succeededFuture(new Account(source.zone().getId(), null));
  }

  @Override
  public Future<SpendPage> page(Account account, LocalDate from, LocalDate to, int limit, String cursor) {
    int page = cursor == null ? 1 : Integer.parseInt(cursor);
    String url = source.apiBase() + PATH + "?advertiser_id=" + ReportFields.encode(source.account())
        + "&service_type=AUCTION&report_type=BASIC&data_level=AUCTION_AD&dimensions="
        + ReportFields.encode(DIMENSIONS) + "&metrics=" + ReportFields.encode(METRICS) + "&start_date=" + from
        + "&end_date=" + to + "&page=" + page + "&page_size=" + limit;
    return get.send(url).map(response -> {
      if (response.statusCode() == 429) {
        long after = RetryAfter.millis(response.getHeader("Retry-After"));
        throw new SpendFailure(Kind.RATE_LIMITED, "TikTok answered HTTP 429",
            after > 0 ? after : MetaInsights.DEFAULT_WAIT_MS);
      }
      if (response.statusCode() != 200) {
        throw new SpendFailure(Kind.FAILED, "TikTok answered HTTP " + response.statusCode());
      }
      JsonObject body = PlatformGet.json(response);
      if (body == null || !(body.getValue("code") instanceof Number code)) {
        throw new SpendFailure(Kind.TRUNCATED, "TikTok's answer was cut off (not whole JSON)");
      }
      if (code.intValue() != 0) {
        String message = get.words(body.getString("message"));
        throw new SpendFailure(kind(code.intValue(), message), "TikTok error " + code + ": " + message,
            MetaInsights.DEFAULT_WAIT_MS);
      }
      return page(body.getJsonObject("data", new JsonObject()), account, page);
    });
  }

  /**
   * TikTok's codes for refused tokens and rate limits are not documented where we could read them: 40100 to 40105
   * or a message about the token or permission is taken as a refused token, except that a message about a limit or
   * too many requests (a third-party list gives 40100 to "too many requests") is taken as a rate limit, since
   * pausing a source for a limit would stop it until someone acted.
   */
  static Kind kind(int code, String message) {
    String words = message.toLowerCase(Locale.ROOT);
    if (words.contains("limit") || words.contains("too many") || words.contains("frequen")
        || words.contains("qps") || words.contains("qpm")) {
      return Kind.RATE_LIMITED;
    }
    if (code >= 40100 && code <= 40105 || words.contains("token") || words.contains("permission")
        || words.contains("unauthori")) {
      return Kind.TOKEN_REFUSED;
    }
    return Kind.FAILED;
  }

  private SpendPage page(JsonObject data, Account account, int page) {
    if (!(data.getValue("list") instanceof JsonArray list)) {
      throw new SpendFailure(Kind.TRUNCATED, "TikTok's answer has no list");
    }
    List<SpendRow> rows = new ArrayList<>(list.size());
    for (Object item : list) {
      rows.add(row(item, account));
    }
    JsonObject info = data.getJsonObject("page_info", new JsonObject());
    int totalPages = info.getValue("total_page") instanceof Number n ? n.intValue() : page;
    return new SpendPage(rows, page < totalPages ? String.valueOf(page + 1) : null, Usage.NONE);
  }

  private SpendRow row(Object item, Account account) {
    JsonObject dimensions = item instanceof JsonObject json ? json.getJsonObject("dimensions") : null;
    JsonObject metrics = item instanceof JsonObject json ? json.getJsonObject("metrics", new JsonObject()) : null;
    if (dimensions == null || !(dimensions.getValue("ad_id") instanceof String adId)
        || !(dimensions.getValue("stat_time_day") instanceof String day)) {
      throw new SpendFailure(Kind.FAILED, "TikTok's report row has no ad_id or stat_time_day");
    }
    String currency = ReportFields.text(metrics, "currency");
    currency = currency == null ? null : CurrencyCode.iso(currency);
    if (currency == null) {
      throw new SpendFailure(Kind.FAILED, "TikTok's report row has no currency");
    }
    Long conversions = ReportFields.count(metrics.getValue("conversion"));
    return new SpendRow(SpendRow.AD, adId, ReportFields.date(day, "TikTok"), account.zone(), currency,
        ReportFields.money(metrics.getValue("spend"), "TikTok"), ReportFields.text(metrics, "campaign_id"),
        ReportFields.text(metrics, "campaign_name"), ReportFields.text(metrics, "adgroup_id"),
        ReportFields.text(metrics, "adgroup_name"), ReportFields.text(metrics, "ad_name"),
        ReportFields.count(metrics.getValue("impressions")), ReportFields.count(metrics.getValue("clicks")),
        conversions == null ? Map.of() : Map.of("conversion", conversions));
  }

  @Override
  public int maxDays() {
    return 30;
  }

  @Override
  public List<Integer> limits() {
    return List.of(1000, 500, 100);
  }
}
