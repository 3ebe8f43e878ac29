package dev.eventrouter.support;

import dev.eventrouter.support.FakeMetaInsights.Row;
import dev.eventrouter.support.MetaInsightsScript.Limit;
import dev.eventrouter.support.MetaInsightsScript.TooMuchData;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The spend import's fakes speak Meta's insights and TikTok's report shapes and errors over real HTTP. */
class SpendFakesTest {

  private static final LocalDate D1 = LocalDate.of(2026, 11, 20);

  private Vertx vertx;
  private WebClient client;
  private FakeMetaInsights meta;
  private FakeTikTokReports tiktok;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    client = WebClient.create(vertx);
    meta = FakeMetaInsights.start(vertx, "1029384756", "America/Los_Angeles", "USD");
    tiktok = FakeTikTokReports.start(vertx, "7123456789012345678");
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  private HttpRequest<Buffer> insights(LocalDate since, LocalDate until) {
    return client.getAbs(meta.baseUrl() + "/v25.0/act_1029384756/insights").addQueryParam("level", "ad")
        .addQueryParam("time_increment", "1").addQueryParam("action_report_time", "conversion")
        .addQueryParam("time_range", new JsonObject().put("since", since.toString()).put("until", until.toString())
            .encode())
        .addQueryParam("fields", "ad_id,ad_name,adset_id,adset_name,campaign_id,campaign_name,account_currency,spend,"
            + "impressions,clicks,actions,date_start,date_stop")
        .addQueryParam("access_token", FakeMetaInsights.TOKEN);
  }

  private static JsonObject error(HttpResponse<Buffer> response) {
    return response.bodyAsJsonObject().getJsonObject("error");
  }

  @Test
  void metaAccountGivesItsZoneAndCurrencyToABearerToken() {
    HttpResponse<Buffer> response = client.getAbs(meta.baseUrl() + "/v25.0/act_1029384756")
        .addQueryParam("fields", "timezone_name,currency")
        .putHeader("Authorization", "Bearer " + FakeMetaInsights.TOKEN).send().await();

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.bodyAsJsonObject()).isEqualTo(new JsonObject().put("timezone_name", "America/Los_Angeles")
        .put("currency", "USD").put("id", "act_1029384756"));
  }

  @Test
  void metaPagesFollowTheAfterCursorToTheEndAndGiveEveryRowOnceWithStringMetrics() {
    List<String> expected = new ArrayList<>();
    for (int day = 0; day < 3; day++) {
      for (String ad : day == 2 ? List.of("611") : List.of("611", "612", "613")) {
        meta.addRows(Row.of(ad, D1.plusDays(day), "12.3" + day, 9708, 215));
        expected.add(ad + "@" + D1.plusDays(day));
      }
    }
    meta.addRows(Row.of("611", D1.plusDays(3), "99.00", 1, 1), new Row("614", D1, "0.50", 40, 3, "Ad 614",
        "as9", "Set 9", "c9", "Campaign 9", Map.of("link_click", 2L, "offsite_conversion.fb_pixel_purchase", 1L)));
    expected.add("614@" + D1);
    meta.pageSize(3);

    List<String> seen = new ArrayList<>();
    List<String> nexts = new ArrayList<>();
    JsonObject page = insights(D1, D1.plusDays(2)).send().await().bodyAsJsonObject();
    while (true) {
      for (Object item : page.getJsonArray("data")) {
        JsonObject row = (JsonObject) item;
        seen.add(row.getString("ad_id") + "@" + row.getString("date_start"));
        assertThat(row.getValue("spend")).isInstanceOf(String.class);
        assertThat(row.getValue("impressions")).isInstanceOf(String.class);
        assertThat(row.getValue("clicks")).isInstanceOf(String.class);
        assertThat(row.getString("date_stop")).isEqualTo(row.getString("date_start"));
        if (row.getString("ad_id").equals("614")) {
          assertThat(row.getString("spend")).isEqualTo("0.50");
          assertThat(row.getString("campaign_name")).isEqualTo("Campaign 9");
          assertThat(row.getString("adset_id")).isEqualTo("as9");
          assertThat(row.getJsonArray("actions")).contains(new JsonObject()
              .put("action_type", "offsite_conversion.fb_pixel_purchase").put("value", "1"));
        }
      }
      assertThat(page.getJsonObject("paging").getJsonObject("cursors").fieldNames())
          .containsExactlyInAnyOrder("before", "after");
      String next = page.getJsonObject("paging").getString("next");
      if (next == null) {
        break;
      }
      nexts.add(next);
      page = client.getAbs(next).send().await().bodyAsJsonObject();
    }

    assertThat(seen).containsExactlyInAnyOrderElementsOf(expected).doesNotHaveDuplicates();
    assertThat(nexts).hasSize(2).allMatch(n -> n.contains("access_token=" + FakeMetaInsights.TOKEN));
    assertThat(meta.received()).hasSize(3);
  }

  @Test
  void metaRefusesAMissingTokenAndARevokedOneWith190() {
    HttpResponse<Buffer> missing = client.getAbs(meta.baseUrl() + "/v25.0/act_1029384756/insights").send().await();
    assertThat(missing.statusCode()).isEqualTo(400);
    assertThat(error(missing).getInteger("code")).isEqualTo(190);
    assertThat(error(missing).getString("type")).isEqualTo("OAuthException");

    assertThat(insights(D1, D1).send().await().statusCode()).isEqualTo(200);
    meta.script().revokeToken();
    HttpResponse<Buffer> revoked = insights(D1, D1).send().await();
    assertThat(revoked.statusCode()).isEqualTo(400);
    assertThat(error(revoked).getInteger("code")).isEqualTo(190);
    assertThat(error(revoked).getString("message")).contains("session has been invalidated");
    assertThat(error(revoked).getString("fbtrace_id")).isNotBlank();
  }

  @Test
  void metaAsksForLessDataForRangesOverTheSetDays() {
    meta.script().maxDays(7, TooMuchData.CODE_1);
    HttpResponse<Buffer> tooLong = insights(D1, D1.plusDays(7)).send().await();
    assertThat(tooLong.statusCode()).isEqualTo(500);
    assertThat(error(tooLong).getInteger("code")).isEqualTo(1);
    assertThat(error(tooLong).getString("message")).contains("reduce the amount of data");
    assertThat(insights(D1, D1.plusDays(6)).send().await().statusCode()).isEqualTo(200);

    meta.script().maxDays(1, TooMuchData.CODE_100_1504018);
    HttpResponse<Buffer> subcode = insights(D1, D1.plusDays(1)).send().await();
    assertThat(subcode.statusCode()).isEqualTo(400);
    assertThat(error(subcode).getInteger("code")).isEqualTo(100);
    assertThat(error(subcode).getInteger("error_subcode")).isEqualTo(1504018);
  }

  @Test
  void metaUsageHeadersRiseToTheLimitThenItRefusesUntilReset() {
    meta.script().usage(25, Limit.USER_17, 5);
    List<Integer> counts = new ArrayList<>();
    for (int call = 0; call < 4; call++) {
      HttpResponse<Buffer> ok = insights(D1, D1).send().await();
      assertThat(ok.statusCode()).isEqualTo(200);
      JsonObject usage = new JsonObject(ok.getHeader("X-Business-Use-Case-Usage")).getJsonArray("1029384756")
          .getJsonObject(0);
      assertThat(usage.getInteger("estimated_time_to_regain_access")).isZero();
      counts.add(usage.getInteger("call_count"));
      assertThat(new JsonObject(ok.getHeader("X-Ad-Account-Usage")).getInteger("acc_id_util_pct"))
          .isEqualTo(usage.getInteger("call_count"));
    }
    assertThat(counts).containsExactly(25, 50, 75, 100);

    for (int call = 0; call < 2; call++) {
      HttpResponse<Buffer> limited = insights(D1, D1).send().await();
      assertThat(limited.statusCode()).isEqualTo(400);
      assertThat(error(limited).getInteger("code")).isEqualTo(17);
      assertThat(error(limited).getInteger("error_subcode")).isEqualTo(2446079);
      JsonObject usage = new JsonObject(limited.getHeader("X-Business-Use-Case-Usage"))
          .getJsonArray("1029384756").getJsonObject(0);
      assertThat(usage.getInteger("call_count")).isEqualTo(100);
      assertThat(usage.getInteger("estimated_time_to_regain_access")).isEqualTo(5);
    }
    meta.script().resetUsage();
    assertThat(insights(D1, D1).send().await().statusCode()).isEqualTo(200);
  }

  @Test
  void metaCutsOneOkPageOffMidJsonOnce() {
    meta.addRows(Row.of("611", D1, "1.00", 10, 1));
    meta.script().truncateNextPage();

    HttpResponse<Buffer> cut = insights(D1, D1).send().await();
    assertThat(cut.statusCode()).isEqualTo(200);
    assertThatThrownBy(cut::bodyAsJsonObject).isInstanceOf(DecodeException.class);
    HttpResponse<Buffer> whole = insights(D1, D1).send().await();
    assertThat(whole.bodyAsJsonObject().getJsonArray("data").getJsonObject(0).getString("ad_id")).isEqualTo("611");
    assertThat(cut.bodyAsString()).isEqualTo(whole.bodyAsString().substring(0, whole.bodyAsString().length() / 2));
  }

  private HttpRequest<Buffer> report(LocalDate start, LocalDate end, int page, int pageSize) {
    return client.getAbs(tiktok.baseUrl() + FakeTikTokReports.PATH).putHeader("Access-Token", FakeTikTokReports.TOKEN)
        .addQueryParam("advertiser_id", "7123456789012345678").addQueryParam("service_type", "AUCTION")
        .addQueryParam("report_type", "BASIC").addQueryParam("data_level", "AUCTION_AD")
        .addQueryParam("dimensions", "[\"ad_id\",\"stat_time_day\"]")
        .addQueryParam("metrics", "[\"spend\",\"impressions\",\"clicks\",\"conversion\",\"currency\"]")
        .addQueryParam("start_date", start.toString()).addQueryParam("end_date", end.toString())
        .addQueryParam("page", String.valueOf(page)).addQueryParam("page_size", String.valueOf(pageSize));
  }

  @Test
  void tiktokPagesTheEnvelopeToTheEndWithStringMetricsAndDashes() {
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      String ad = "17800000000000" + (10 + i % 5);
      tiktok.addRows(new FakeTikTokReports.Row(ad, D1.plusDays(i / 5),
          Map.of("spend", "175.2" + i, "impressions", "40000", "clicks", "220", "currency", "USD")));
      expected.add(ad + "@" + D1.plusDays(i / 5) + " 00:00:00");
    }
    tiktok.addRows(new FakeTikTokReports.Row("1780000000000099", D1.plusDays(9), Map.of("spend", "1.00")));

    List<String> seen = new ArrayList<>();
    for (int page = 1; page <= 3; page++) {
      HttpResponse<Buffer> response = report(D1, D1.plusDays(4), page, 10).send().await();
      JsonObject body = response.bodyAsJsonObject();
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(body.getInteger("code")).isZero();
      assertThat(body.getString("message")).isEqualTo("OK");
      assertThat(body.getString("request_id")).isNotBlank();
      assertThat(body.getJsonObject("data").getJsonObject("page_info")).isEqualTo(new JsonObject().put("page", page)
          .put("page_size", 10).put("total_number", 25).put("total_page", 3));
      for (Object item : body.getJsonObject("data").getJsonArray("list")) {
        JsonObject dimensions = ((JsonObject) item).getJsonObject("dimensions");
        JsonObject metrics = ((JsonObject) item).getJsonObject("metrics");
        seen.add(dimensions.getString("ad_id") + "@" + dimensions.getString("stat_time_day"));
        assertThat(metrics.fieldNames()).containsExactlyInAnyOrder("spend", "impressions", "clicks", "conversion",
            "currency");
        assertThat(metrics.getValue("impressions")).isEqualTo("40000");
        assertThat(metrics.getValue("conversion")).isEqualTo("-");
      }
    }
    assertThat(seen).containsExactlyInAnyOrderElementsOf(expected).doesNotHaveDuplicates();
    JsonObject past = report(D1, D1.plusDays(4), 4, 10).send().await().bodyAsJsonObject().getJsonObject("data");
    assertThat(past.getJsonArray("list")).isEmpty();
  }

  @Test
  void tiktokRefusesTokensRangesOverThirtyDaysPageSizesOverAThousandAndRateLimitsIn200s() {
    HttpResponse<Buffer> noToken = report(D1, D1, 1, 10).putHeader("Access-Token", "wrong").send().await();
    assertThat(noToken.statusCode()).isEqualTo(200);
    assertThat(noToken.bodyAsJsonObject().getInteger("code")).isEqualTo(FakeTikTokReports.TOKEN_CODE);

    assertThat(report(D1, D1.plusDays(29), 1, 1000).send().await().bodyAsJsonObject().getInteger("code")).isZero();
    JsonObject tooLong = report(D1, D1.plusDays(30), 1, 10).send().await().bodyAsJsonObject();
    assertThat(tooLong.getInteger("code")).isEqualTo(FakeTikTokReports.PARAM_CODE);
    assertThat(tooLong.getString("message")).contains("30 days");
    assertThat(report(D1, D1, 1, 1001).send().await().bodyAsJsonObject().getInteger("code"))
        .isEqualTo(FakeTikTokReports.PARAM_CODE);

    tiktok.rateLimitNext(1);
    assertThat(report(D1, D1, 1, 10).send().await().bodyAsJsonObject().getInteger("code"))
        .isEqualTo(FakeTikTokReports.RATE_LIMIT_CODE);
    assertThat(report(D1, D1, 1, 10).send().await().bodyAsJsonObject().getInteger("code")).isZero();

    tiktok.revokeToken();
    JsonObject revoked = report(D1, D1, 1, 10).send().await().bodyAsJsonObject();
    assertThat(revoked.getInteger("code")).isEqualTo(FakeTikTokReports.TOKEN_CODE);
    assertThat(revoked.getString("message")).contains("revoked");
    assertThat(tiktok.received()).extracting(FakeTikTokReports.Received::code).containsExactly(
        FakeTikTokReports.TOKEN_CODE, 0, FakeTikTokReports.PARAM_CODE, FakeTikTokReports.PARAM_CODE,
        FakeTikTokReports.RATE_LIMIT_CODE, 0, FakeTikTokReports.TOKEN_CODE);
  }
}
