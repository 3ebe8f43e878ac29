package dev.eventrouter.read;

import dev.eventrouter.config.ReportZone;
import dev.eventrouter.support.Await;
import dev.eventrouter.support.TestApp;
import dev.eventrouter.support.TestDatabase;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

import static dev.eventrouter.support.TestApp.KEY_A;
import static dev.eventrouter.support.TestApp.KEY_B;
import static dev.eventrouter.support.TestApp.WS_A;
import static dev.eventrouter.support.TestApp.WS_B;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The days of a zone 14 hours ahead of UTC, counted by PostgreSQL: as a request's {@code tz} (a region id) and as a
 * workspace's {@code report_timezone} (Etc/GMT-14, whose day rows PostgreSQL makes), a click of the 27th there is on
 * the 27th. An offset, which PostgreSQL would read with its sign flipped, is refused naming {@code tz}.
 */
@ExtendWith(VertxExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FunnelZonesTest {

  private static final String PLUS_14 = "Etc/GMT-14";
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private TestApp app;
  /** "The 27th": a few days ago, so the range is wholly past. */
  private final LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(3);

  @BeforeAll
  void start(Vertx vertx) {
    JsonObject config = TestApp.config(TestDatabase.freshDatabaseUrl())
        .put("reports", new JsonObject().put("rollup_every_ms", 100).put("rollup_lag_ms", 0));
    config.getJsonArray("workspaces").getJsonObject(1).put("report_timezone", PLUS_14);
    app = TestApp.start(vertx, config);
    // The first round's day zones first: a round still making them when the zones are deleted below would commit
    // them after the delete, with day rows made before the clicks were there.
    Await.until("the first day zones", DEADLINE, () -> app.rows("SELECT 1 FROM funnel_day_zone").size() >= 2);
    // Clicks, in A (UTC days) and B (days at +14): 1 in the last hour of the 26th at +14, 2 in the first of the
    // 27th, 4 in its last.
    for (String workspace : List.of(WS_A, WS_B)) {
      clicks(workspace, day.minusDays(1).atTime(9, 0), 1);
      clicks(workspace, day.minusDays(1).atTime(10, 0), 2);
      clicks(workspace, day.atTime(9, 0), 4);
    }
    // The day rows made again from these hours, as after a change of report_timezone, by the next round.
    app.rows("DELETE FROM funnel_day_zone");
    Await.until("the day rows made again", DEADLINE,
        () -> app.rows("SELECT 1 FROM funnel_day_zone WHERE workspace_id = $1", UUID.fromString(WS_B)).size() == 1);
  }

  @AfterAll
  void stop() {
    app.close();
  }

  private void clicks(String workspace, LocalDateTime utcHour, int n) {
    Object hour = utcHour.atOffset(ZoneOffset.UTC);
    UUID id = UUID.fromString(workspace);
    app.rows("""
        INSERT INTO funnel_rollup (workspace_id, hour, utm_source, utm_medium, utm_campaign, utm_content, utm_term,
                                   campaign_id, adset_id, ad_id, placement, bot, channel, country, step, n)
        VALUES ($1, $2, '', '', '', '', '', '', '', '', '', '', '', 'DE', '$click', $3)""", id, hour, n);
    app.rows("INSERT INTO funnel_rollup_total (workspace_id, hour, step, n) VALUES ($1, $2, '$click', $3)", id, hour,
        n);
  }

  /** Clicks by day of a report, from the 26th to the 28th. */
  private Map<String, Long> clicksByDay(String key, String query) {
    HttpResponse<Buffer> r = app.get("/api/v1/reports/funnel?from=" + day.minusDays(1) + "&to=" + day.plusDays(1)
        + "&" + query, key);
    assertThat(r.statusCode()).as(query + ": " + r.bodyAsString()).isEqualTo(200);
    Map<String, Long> days = new TreeMap<>();
    r.bodyAsJsonObject().getJsonObject("data").getJsonArray("rows").stream().map(JsonObject.class::cast)
        .forEach(row -> days.put(row.getJsonObject("group").getString("day"), row.getLong("clicks")));
    return days;
  }

  private Map<String, Long> expected() {
    Map<String, Long> days = new LinkedHashMap<>();
    days.put(day.minusDays(1).toString(), 1L);
    days.put(day.toString(), 6L);
    return days;
  }

  @ParameterizedTest(name = "{0}")
  @DisplayName("a workspace whose report_timezone is Etc/GMT-14 counts its 27th's clicks on the 27th: its day rows, "
      + "its hourly totals, and a region id of the same offset")
  @ValueSource(strings = {"group_by=day", "group_by=day,country", "group_by=day,country&tz=Pacific/Kiritimati",
      "group_by=day&tz=" + PLUS_14})
  void reportTimezoneAhead(String query) {
    assertThat(clicksByDay(KEY_B, query)).isEqualTo(expected());
    assertThat(app.rows("SELECT zone FROM funnel_day_zone WHERE workspace_id = $1", UUID.fromString(WS_B)).get(0)
        .getString("zone")).as("the zone PostgreSQL made the day rows in").isEqualTo(PLUS_14);
  }

  @ParameterizedTest(name = "{0}")
  @DisplayName("a UTC workspace's report in a zone at +14 counts the 27th's clicks on the 27th: its UTC days shifted, "
      + "and the hourly totals")
  @ValueSource(strings = {"group_by=day,country&tz=Pacific/Kiritimati", "group_by=day&tz=Pacific/Kiritimati",
      "group_by=day,country&tz=" + PLUS_14})
  void requestZoneAhead(String query) {
    assertThat(clicksByDay(KEY_A, query)).isEqualTo(expected());
  }

  @Test
  @DisplayName("an offset (+14:00, UTC+14:00, GMT+5) is a 400 naming tz, saying what to send")
  void offsetsRefused() {
    for (String tz : List.of("%2B14:00", "UTC%2B14:00", "GMT%2B5", "CET")) {
      HttpResponse<Buffer> r = app.get("/api/v1/reports/funnel?group_by=day&tz=" + tz, KEY_A);
      assertThat(r.statusCode()).as(tz).isEqualTo(400);
      assertThat(r.bodyAsJsonObject().getJsonObject("error").getJsonArray("details").getJsonObject(0))
          .isEqualTo(new JsonObject().put("field", "tz").put("message", ReportZone.RULE));
    }
  }

  @Test
  @DisplayName("every zone a report takes, PostgreSQL knows and reads as java.time does, in winter and in summer")
  void everyZoneReadAlike() {
    List<String> accepted = ZoneId.getAvailableZoneIds().stream().filter(id -> ReportZone.of(id) != null).sorted()
        .toList();
    Set<String> known = Set.copyOf(app.rows("SELECT name FROM pg_timezone_names").stream()
        .map(row -> row.getString("name")).toList());
    assertThat(accepted).as("known to PostgreSQL").isSubsetOf(known).contains("UTC", PLUS_14, "Pacific/Kiritimati");
    Instant winter = Instant.parse("2024-01-15T12:00:00Z");
    Instant summer = Instant.parse("2024-07-15T12:00:00Z");
    DateTimeFormatter format = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");
    Map<String, String> java = new TreeMap<>();
    accepted.forEach(id -> java.put(id, format.format(winter.atZone(ZoneId.of(id))) + " "
        + format.format(summer.atZone(ZoneId.of(id)))));
    Map<String, String> postgres = new TreeMap<>();
    for (Row row : app.rows("""
        SELECT z, to_char($2::timestamptz AT TIME ZONE z, 'YYYY-MM-DD HH24:MI') || ' '
                  || to_char($3::timestamptz AT TIME ZONE z, 'YYYY-MM-DD HH24:MI') AS local
          FROM unnest($1::text[]) AS z""", accepted.toArray(String[]::new), winter.atOffset(ZoneOffset.UTC),
        summer.atOffset(ZoneOffset.UTC))) {
      postgres.put(row.getString("z"), row.getString("local"));
    }
    Map<String, String> differing = new TreeMap<>();
    java.forEach((id, local) -> {
      if (!local.equals(postgres.get(id))) {
        differing.put(id, "java.time " + local + ", PostgreSQL " + postgres.get(id));
      }
    });
    assertThat(differing).isEmpty();
  }
}
