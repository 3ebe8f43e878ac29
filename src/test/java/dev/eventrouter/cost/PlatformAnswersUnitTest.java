package dev.eventrouter.cost;

import dev.eventrouter.cost.SpendFailure.Kind;
import io.vertx.core.MultiMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the platforms answer, read as data: their words, usage headers, report values and error codes. */
class PlatformAnswersUnitTest {

  @Test
  @DisplayName("a platform's words are kept on one line, bounded, without NUL or the token")
  void words() {
    assertThat(SpendFailure.words("bad\u0000token tok-123\nnext\r\nline", "tok-123"))
        .isEqualTo("bad token *** next line");
    assertThat(SpendFailure.words("x".repeat(1000), null)).hasSize(SpendFailure.MAX_MESSAGE + 3).endsWith("...");
    assertThat(SpendFailure.words(null, "t")).isEmpty();
    assertThat(SpendFailure.words("=HYPERLINK(1)", "")).isEqualTo("=HYPERLINK(1)");
  }

  @Test
  @DisplayName("usage: the highest percent of any header, Meta's minutes to regain; a header of another shape says "
      + "nothing")
  void usage() {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add("X-Business-Use-Case-Usage", "{\"1\":[{\"call_count\":42,\"total_cputime\":91,\"total_time\":8,"
            + "\"estimated_time_to_regain_access\":3}]}")
        .add("X-FB-Ads-Insights-Throttle", "{\"app_id_util_pct\":0.5,\"acc_id_util_pct\":60}")
        .add("X-App-Usage", "[1,2]");
    Usage usage = Usage.of(headers);
    assertThat(usage.percent()).isEqualTo(91);
    assertThat(usage.regainMs()).isEqualTo(180_000);
    assertThat(Usage.of(MultiMap.caseInsensitiveMultiMap().add("X-Ad-Account-Usage", "{\"acc_id_util_pct\":77.2}"))
        .percent()).isEqualTo(78);
    assertThat(Usage.of(MultiMap.caseInsensitiveMultiMap().add("X-App-Usage", "{\"call_count\":\"NaN\"}"))
        .percent()).isZero();
    assertThat(Usage.of(MultiMap.caseInsensitiveMultiMap())).isEqualTo(Usage.NONE);
  }

  @Test
  @DisplayName("pacing: none below 75%, then 15, 60 and 300 units; never less than Meta's regain time")
  void pacing() {
    assertThat(new Usage(74.9, 0).pauseMs(1000)).isZero();
    assertThat(new Usage(75, 0).pauseMs(1000)).isEqualTo(15_000);
    assertThat(new Usage(89, 0).pauseMs(1000)).isEqualTo(15_000);
    assertThat(new Usage(90, 0).pauseMs(1000)).isEqualTo(60_000);
    assertThat(new Usage(95, 0).pauseMs(1000)).isEqualTo(300_000);
    assertThat(new Usage(10, 420_000).pauseMs(1000)).isEqualTo(420_000);
  }

  @Test
  @DisplayName("report values: strings read as numbers, '-' and blanks as absent, junk spend refused, junk counts "
      + "absent")
  void values() {
    assertThat(ReportFields.money("12.34", "Meta")).isEqualByComparingTo("12.34");
    assertThat(ReportFields.money("-", "TikTok")).isEqualByComparingTo(BigDecimal.ZERO);
    assertThat(ReportFields.money(null, "Meta")).isEqualByComparingTo(BigDecimal.ZERO);
    for (String bad : List.of("-1", "1e999999999999", "12,34", "ab", "\u0000")) {
      assertThatThrownBy(() -> ReportFields.money(bad, "Meta")).as(bad).isInstanceOf(SpendFailure.class)
          .hasMessage("Meta reported a spend that is not an amount");
    }
    assertThat(ReportFields.count("9708")).isEqualTo(9708L);
    assertThat(ReportFields.count("1.5")).isNull();
    assertThat(ReportFields.count(" - ")).isNull();
    assertThat(ReportFields.date("2026-11-23 00:00:00", "TikTok")).isEqualTo(LocalDate.of(2026, 11, 23));
    assertThatThrownBy(() -> ReportFields.date("23.11.2026", "TikTok")).isInstanceOf(SpendFailure.class);
  }

  @Test
  @DisplayName("Meta's codes: token and permission refused, rate limits, 'reduce the amount of data', the rest")
  void metaKinds() {
    assertThat(MetaInsights.kind(190, 0, "x", 400)).isEqualTo(Kind.TOKEN_REFUSED);
    assertThat(MetaInsights.kind(102, 0, "x", 400)).isEqualTo(Kind.TOKEN_REFUSED);
    assertThat(MetaInsights.kind(200, 0, "x", 403)).isEqualTo(Kind.TOKEN_REFUSED);
    assertThat(MetaInsights.kind(299, 0, "x", 403)).isEqualTo(Kind.TOKEN_REFUSED);
    assertThat(MetaInsights.kind(17, 2446079, "x", 400)).isEqualTo(Kind.RATE_LIMITED);
    assertThat(MetaInsights.kind(80000, 0, "x", 400)).isEqualTo(Kind.RATE_LIMITED);
    assertThat(MetaInsights.kind(0, 0, "x", 429)).isEqualTo(Kind.RATE_LIMITED);
    assertThat(MetaInsights.kind(100, 1504018, "x", 400)).isEqualTo(Kind.TOO_MUCH_DATA);
    assertThat(MetaInsights.kind(2, 1504038, "x", 400)).isEqualTo(Kind.TOO_MUCH_DATA);
    assertThat(MetaInsights.kind(1, 0, "Please reduce the amount of data you're asking for", 500))
        .isEqualTo(Kind.TOO_MUCH_DATA);
    assertThat(MetaInsights.kind(1, 0, "An unknown error occurred", 500)).isEqualTo(Kind.FAILED);
    assertThat(MetaInsights.kind(100, 33, "x", 400)).isEqualTo(Kind.FAILED);
    assertThat(MetaInsights.kind(300, 0, "x", 400)).isEqualTo(Kind.FAILED);
  }

  @Test
  @DisplayName("TikTok's codes: a message about a limit is a rate limit even under 40100, a token's is refused")
  void tiktokKinds() {
    assertThat(TikTokReports.kind(40105, "Access token is incorrect or has been revoked."))
        .isEqualTo(Kind.TOKEN_REFUSED);
    assertThat(TikTokReports.kind(40100, "Too many requests. Please retry in some time."))
        .isEqualTo(Kind.RATE_LIMITED);
    assertThat(TikTokReports.kind(40100, "")).isEqualTo(Kind.TOKEN_REFUSED);
    assertThat(TikTokReports.kind(40001, "No permission to operate advertiser")).isEqualTo(Kind.TOKEN_REFUSED);
    assertThat(TikTokReports.kind(40002, "end_date: must not be earlier than start_date.")).isEqualTo(Kind.FAILED);
    assertThat(TikTokReports.kind(51021, "QPS limit exceeded")).isEqualTo(Kind.RATE_LIMITED);
  }

  @Test
  @DisplayName("the range plan steps down days (30, 7, 1), then rows (500, 100, 50), then gives up")
  void rangePlan() {
    RangePlan plan = new RangePlan(30, List.of(500, 100, 50));
    StringBuilder steps = new StringBuilder(plan.days() + "/" + plan.limit());
    while (plan.shrink()) {
      steps.append(" ").append(plan.days()).append("/").append(plan.limit());
    }
    assertThat(steps).hasToString("30/500 7/500 1/500 1/100 1/50");
  }
}
