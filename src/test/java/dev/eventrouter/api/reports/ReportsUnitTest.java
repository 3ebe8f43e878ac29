package dev.eventrouter.api.reports;

import dev.eventrouter.config.ReportConfig;
import dev.eventrouter.config.ReportZone;
import dev.eventrouter.config.WorkspaceConfig;
import dev.eventrouter.event.FunnelQuery;
import dev.eventrouter.http.ApiException;
import dev.eventrouter.http.ErrorCode;
import io.vertx.core.MultiMap;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The funnel report's parameters, and its CSV form. */
class ReportsUnitTest {

  private static final UUID WS = UUID.fromString("7c9e6679-7425-40de-944b-e07fc1f90ae7");
  private static final WorkspaceConfig WORKSPACE = new WorkspaceConfig(WS, "w", List.of(), List.of(), null, null, 28,
      List.of(), Map.of(), null, List.of(), 7, new ReportConfig("EUR", Map.of(), List.of("REG", "FTD")));
  // 23:30 UTC: already the 25th in Berlin.
  private static final Instant NOW = Instant.parse("2026-11-24T23:30:00Z");

  private static FunnelQuery query(String... pairs) {
    MultiMap params = MultiMap.caseInsensitiveMultiMap();
    for (int i = 0; i < pairs.length; i += 2) {
      params.add(pairs[i], pairs[i + 1]);
    }
    return ReportsApi.query(WORKSPACE, params, NOW);
  }

  private static void refused(String field, String message, String... pairs) {
    assertThatThrownBy(() -> query(pairs)).isInstanceOfSatisfying(ApiException.class, e -> {
      assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_FAILED);
      assertThat(e.toJson().getJsonObject("error").getJsonArray("details")).as(String.join(" ", pairs))
          .contains(new JsonObject().put("field", field).put("message", message));
    });
  }

  @Test
  @DisplayName("defaults: the last 7 local days up to today in the zone, by day, the workspace's currency and steps")
  void defaults() {
    FunnelQuery utc = query();
    assertThat(utc.from()).isEqualTo(Instant.parse("2026-11-18T00:00:00Z"));
    assertThat(utc.to()).isEqualTo(Instant.parse("2026-11-25T00:00:00Z"));
    assertThat(utc.zone()).isEqualTo(ZoneOffset.UTC);
    assertThat(utc.groupBy()).containsExactly("day");
    assertThat(utc.filters()).isEmpty();
    assertThat(utc.currency()).isEqualTo("EUR");
    assertThat(utc.funnelEvents()).containsExactly("REG", "FTD");
    FunnelQuery berlin = query("tz", "Europe/Berlin");
    assertThat(berlin.zone()).isEqualTo(ZoneId.of("Europe/Berlin"));
    assertThat(berlin.to()).as("the 25th, Berlin's today, included").isEqualTo(Instant.parse("2026-11-25T23:00:00Z"));
    assertThat(berlin.from()).isEqualTo(Instant.parse("2026-11-18T23:00:00Z"));
    assertThat(berlin.dayZone()).as("the rollups' days are the workspace's").isEqualTo(ZoneOffset.UTC);
    WorkspaceConfig kyiv = new WorkspaceConfig(WS, "w", List.of(), List.of(), null, null, 28, List.of(), Map.of(),
        List.of(), List.of(), 7, new ReportConfig("EUR", Map.of(), List.of("REG"), ZoneId.of("Europe/Kyiv")));
    FunnelQuery local = ReportsApi.query(kyiv, MultiMap.caseInsensitiveMultiMap(), NOW);
    assertThat(local.zone()).as("without tz, the workspace's report_timezone").isEqualTo(ZoneId.of("Europe/Kyiv"));
    assertThat(local.dayZone()).isEqualTo(ZoneId.of("Europe/Kyiv"));
    assertThat(local.to()).isEqualTo(Instant.parse("2026-11-25T22:00:00Z"));
  }

  @Test
  @DisplayName("a range, two dimensions (comma-separated or repeated), filters with several values and the unknown one")
  void given() {
    FunnelQuery q = query("from", "2026-11-01", "to", "2026-11-01", "group_by", "campaign_id,ad_id",
        "filter", "utm_source:fb", "filter", "utm_source:ig", "filter", "country:", "format", "csv");
    assertThat(q.from()).isEqualTo(Instant.parse("2026-11-01T00:00:00Z"));
    assertThat(q.to()).isEqualTo(Instant.parse("2026-11-02T00:00:00Z"));
    assertThat(q.groupBy()).containsExactly("campaign_id", "ad_id");
    assertThat(q.filters()).containsEntry("utm_source", List.of("fb", "ig")).containsEntry("country", List.of(""));
    assertThat(query("group_by", "bot", "group_by", "day").groupBy()).containsExactly("bot", "day");
    assertThat(query("group_by", "bot,bot").groupBy()).containsExactly("bot");
    assertThat(query("format", "json").groupBy()).containsExactly("day");
    assertThat(query("from", "2025-11-25", "to", "2026-11-24").from()).as("366 days")
        .isEqualTo(Instant.parse("2025-11-25T00:00:00Z"));
    String[] twenty = new String[40];
    for (int i = 0; i < 20; i++) {
      twenty[2 * i] = "filter";
      twenty[2 * i + 1] = "bot:b" + i;
    }
    assertThat(query(twenty).filters().get("bot")).hasSize(20);
    assertThat(query("filter", "utm_term:" + "x".repeat(100)).filters()).containsKey("utm_term");
  }

  @Test
  @DisplayName("each bad parameter is named")
  void refusals() {
    String dimensions = "must be one or two of utm_source, utm_medium, utm_campaign, utm_content, utm_term, "
        + "campaign_id, adset_id, ad_id, placement, bot, channel, country, day";
    refused("group_by", dimensions, "group_by", "planet");
    refused("group_by", dimensions, "group_by", "bot,channel,day");
    refused("group_by", dimensions, "group_by", "bot,");
    refused("tz", ReportZone.RULE, "tz", "Mars/Base");
    refused("from", "must be a day such as 2026-11-24", "from", "yesterday");
    refused("to", "must be a day such as 2026-11-24", "to", "2026-13-01");
    refused("from", "must not be after to", "from", "2026-11-02", "to", "2026-11-01");
    refused("from", "the range may be at most 366 days", "from", "2025-11-23", "to", "2026-11-24");
    refused("format", "must be json or csv", "format", "xlsx");
    refused("limit", "is not a parameter of this report", "limit", "5");
    String filterRule = "must be <dimension>:<value> (an empty value for not known), the dimension one of "
        + "utm_source, utm_medium, utm_campaign, utm_content, utm_term, campaign_id, adset_id, ad_id, placement, "
        + "bot, channel, country, day, the value at most 100 characters";
    refused("filter", filterRule, "filter", "utm_source");
    refused("filter", filterRule, "filter", "planet:earth");
    refused("filter", filterRule, "filter", "utm_term:" + "x".repeat(101));
    String[] many = new String[42];
    for (int i = 0; i < 21; i++) {
      many[2 * i] = "filter";
      many[2 * i + 1] = "bot:b" + i;
    }
    refused("filter", "at most 20 filters", many);
  }

  @Test
  @DisplayName("tz: an IANA zone (Area/Location, or UTC) as PostgreSQL reads it too; an offset, which PostgreSQL reads "
      + "with its sign flipped, is refused naming tz, and so is a bare id it takes for a fixed abbreviation")
  void zones() {
    assertThat(ReportZone.RULE).isEqualTo("must be an IANA time zone such as Europe/Berlin or UTC, not an offset "
        + "(a fixed UTC+03:00 is Etc/GMT-3)");
    for (String offset : List.of("+14:00", "UTC+14:00", "GMT+5", "UT+3", "-03:00", "Z", "UTC+0")) {
      refused("tz", ReportZone.RULE, "tz", offset);
    }
    for (String abbreviation : List.of("CET", "EET", "MET", "WET", "GMT", "Zulu", "EST5EDT")) {
      refused("tz", ReportZone.RULE, "tz", abbreviation);
    }
    refused("tz", ReportZone.RULE, "tz", "SystemV/AST4");
    refused("tz", ReportZone.RULE, "tz", "europe/berlin");
    FunnelQuery kiritimati = query("tz", "Pacific/Kiritimati", "from", "2026-11-27", "to", "2026-11-27");
    assertThat(kiritimati.zone()).isEqualTo(ZoneId.of("Pacific/Kiritimati"));
    assertThat(kiritimati.from()).as("the 27th at +14").isEqualTo(Instant.parse("2026-11-26T10:00:00Z"));
    assertThat(query("tz", "Etc/GMT-14").zone()).isEqualTo(ZoneId.of("Etc/GMT-14"));
    assertThat(query("tz", "Etc/GMT-14").to()).as("tomorrow already at +14, included")
        .isEqualTo(Instant.parse("2026-11-25T10:00:00Z"));
    assertThat(query("tz", "UTC").zone()).isEqualTo(ZoneId.of("UTC"));
    assertThat(ReportsApi.tz(ZoneOffset.UTC)).as("a workspace's UTC, as a request names it").isEqualTo("UTC");
    assertThat(ReportsApi.tz(ZoneId.of("Etc/GMT-14"))).isEqualTo("Etc/GMT-14");
  }

  @Test
  @DisplayName("CSV: a header, a line per group with each event's columns (zeros where a group has none of it), "
      + "the totals last; formulas neutralised, commas and quotes quoted")
  void csv() {
    JsonObject event = new JsonObject().put("count", 2).put("users", 1).put("revenue", "10.50").put("unconverted", 1)
        .put("statuses", new JsonObject().put("pending", 1).put("approved", 1).put("rejected", 0)
            .put("chargeback", 0));
    JsonObject row = new JsonObject().put("group", new JsonObject().put("utm_campaign", "=HYPERLINK(\"x\")"))
        .put("clicks", 5).put("starts", 3).put("join_requests", 0).put("joins", 1).put("unsubscribes", 0)
        .put("remaining_subscribers", 1).put("revenue", "10.50").put("events", new JsonObject())
        .put("rates", new JsonObject().put("clicks_to_starts", 0.6).putNull("starts_to_joins"));
    JsonObject totals = row.copy().put("group", new JsonObject())
        .put("events", new JsonObject().put("FTD", event)).put("cost", "13.00").put("cost_per_click", "2.6000")
        .putNull("cost_per_start").put("cost_per_join", "13.0000").put("cost_per_remaining_subscriber", "13.0000")
        .put("cost_per", new JsonObject().put("FTD", "13.0000")).put("roas", 0.8077).put("profit", "-2.50")
        .put("roi", -0.1923);
    String csv = FunnelCsv.of(List.of("utm_campaign"), new JsonObject().put("rows", new JsonArray().add(row))
        .put("totals", totals));
    assertThat(csv.split("\r\n")).containsExactly(
        "utm_campaign,clicks,starts,join_requests,joins,unsubscribes,remaining_subscribers,revenue,FTD,FTD_users,"
            + "FTD_revenue,FTD_unconverted,FTD_pending,FTD_approved,FTD_rejected,FTD_chargeback,clicks_to_starts,"
            + "starts_to_joins,cost,cost_per_click,cost_per_start,cost_per_join,cost_per_remaining_subscriber,"
            + "cost_per_FTD,roas,profit,roi",
        "\"'=HYPERLINK(\"\"x\"\")\",5,3,0,1,0,1,10.50,0,0,0.00,0,0,0,0,0,0.6,,,,,,,,,,",
        "total,5,3,0,1,0,1,10.50,2,1,10.50,1,1,1,0,0,0.6,,13.00,2.6000,,13.0000,13.0000,13.0000,0.8077,-2.50,"
            + "-0.1923");
    assertThat(FunnelCsv.of(List.of("bot", "day"), new JsonObject().put("rows", new JsonArray())
        .put("totals", totals)).split("\r\n")[1]).startsWith("total,,5,");
    assertThat(FunnelCsv.cell("-2.50")).as("a number, a negative profit: no formula").isEqualTo("-2.50");
    assertThat(FunnelCsv.cell("-1")).isEqualTo("-1");
    for (String risky : List.of("=1", "+1", "-1+2", "-1.5.2", "@a")) {
      assertThat(FunnelCsv.cell(risky)).as(risky).isEqualTo("'" + risky);
    }
    assertThat(FunnelCsv.cell("\ta")).isEqualTo("\"'\ta\"");
    assertThat(FunnelCsv.cell("\ra")).isEqualTo("\"'\ra\"");
    assertThat(FunnelCsv.cell("a,b")).isEqualTo("\"a,b\"");
    assertThat(FunnelCsv.cell("a\nb")).isEqualTo("\"a\nb\"");
    assertThat(FunnelCsv.cell("a-b=c+d@e")).as("inside a cell, no formula").isEqualTo("a-b=c+d@e");
  }

  @Test
  @DisplayName("CSV: a formula after a separator of any locale (; for Excel in ru, de, fr; a comma, a tab, a line's "
      + "end) is neutralised too, and the value quoted, so it stays one cell of text")
  void csvFormulaAfterSeparator() {
    assertThat(FunnelCsv.cell("x;=1+1;")).isEqualTo("\"x;'=1+1;\"");
    assertThat(FunnelCsv.cell("x,+1")).isEqualTo("\"x,'+1\"");
    assertThat(FunnelCsv.cell("x\t-1")).isEqualTo("\"x\t'-1\"");
    assertThat(FunnelCsv.cell("x\n@SUM(A1)")).isEqualTo("\"x\n'@SUM(A1)\"");
    assertThat(FunnelCsv.cell("x\r\t=1")).isEqualTo("\"x\r'\t'=1\"");
    assertThat(FunnelCsv.cell("=a;=b")).isEqualTo("\"'=a;'=b\"");
    assertThat(FunnelCsv.cell("a;b")).as("a ; alone is quoted, nothing added").isEqualTo("\"a;b\"");
    assertThat(FunnelCsv.cell("a\"b")).isEqualTo("\"a\"\"b\"");
    assertThat(FunnelCsv.cell("x;\"=1")).as("a quote between: the = starts no cell").isEqualTo("\"x;\"\"=1\"");
    assertThat(FunnelCsv.cell("plain")).isEqualTo("plain");
    assertThat(FunnelCsv.cell("")).isEmpty();
    assertThat(FunnelCsv.cell(null)).isEmpty();
  }
}
