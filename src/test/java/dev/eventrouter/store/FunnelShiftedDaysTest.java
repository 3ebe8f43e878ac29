package dev.eventrouter.store;

import dev.eventrouter.event.FunnelQuery;
import dev.eventrouter.support.ServiceTest;
import io.vertx.sqlclient.Row;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Days of a zone other than the day layer's (UTC here), read from the day layer shifted by the hours between the
 * zones, add up to what the hours say: ahead of UTC and behind it, across a change to summer time, filtered, and while
 * the day layer is in another zone (the hours then).
 */
class FunnelShiftedDaysTest extends ServiceTest {

  private static final LocalDate FIRST = LocalDate.of(2026, 3, 27);
  /** Europe/Berlin and America/New_York move their clocks on 2026-03-29 and 2026-03-08. */
  private static final int DAYS = 4;

  private UUID workspace;
  private FunnelReports store;

  /** A workspace of each test's own: the class shares one service and database. */
  @BeforeEach
  void seed() {
    workspace = UUID.randomUUID();
    store = new FunnelReports(app.pool());
    // Every hour of four UTC days, a click row by country, each hour's counts its own.
    app.rows("""
        INSERT INTO funnel_rollup (workspace_id, hour, utm_source, utm_medium, utm_campaign, utm_content, utm_term,
                                   campaign_id, adset_id, ad_id, placement, bot, channel, country, step, n, users,
                                   revenue)
        SELECT $1, h, '', '', '', '', '', '', '', '', '', '', '', c, '$click', extract(hour FROM h)::int + i, i,
               (extract(hour FROM h) + i) * 1.5
          FROM generate_series($2::timestamptz, $3::timestamptz - interval '1 hour', interval '1 hour') AS h,
               unnest(ARRAY['DE', 'FR'], ARRAY[1, 2]) AS x(c, i)""", workspace,
        FIRST.atStartOfDay(ZoneOffset.UTC).toOffsetDateTime(),
        FIRST.plusDays(DAYS).atStartOfDay(ZoneOffset.UTC).toOffsetDateTime());
    // The day layer as a round keeps it, in UTC days.
    app.rows(DayZones.REZONE, workspace, "Z");
    app.rows(DayZones.REZONE_FILL, workspace, "Z");
  }

  @ParameterizedTest(name = "{0}, {1} days from {2}, filter {3}")
  @DisplayName("the days of another zone, from the day layer and the hours between, are the hours' own days")
  @CsvSource({
      "Europe/Berlin, 3, 2026-03-27, ''",
      "Europe/Berlin, 1, 2026-03-29, DE",
      "America/New_York, 2, 2026-03-28, FR",
      "Asia/Kolkata, 2, 2026-03-28, ''",
      "Asia/Tokyo, 3, 2026-03-28, DE"})
  void shiftedDaysAddUp(String zoneName, int days, LocalDate from, String country) {
    ZoneId zone = ZoneId.of(zoneName);
    FunnelQuery query = query(zone, from, days, country);

    assertThat(report(query)).isNotEmpty().isEqualTo(fromHours(query, country));
  }

  @ParameterizedTest(name = "{0}")
  @DisplayName("while the day layer is in another zone than the workspace's (a change of report_timezone not yet "
      + "made again), the hours are read")
  @CsvSource({"Europe/Berlin", "America/New_York"})
  void dayLayerOfAnotherZone(String zoneName) {
    app.rows("UPDATE funnel_day_zone SET zone = 'Europe/Paris' WHERE workspace_id = $1", workspace);
    FunnelQuery query = query(ZoneId.of(zoneName), LocalDate.of(2026, 3, 28), 2, "");

    assertThat(report(query)).isNotEmpty().isEqualTo(fromHours(query, ""));
  }

  @ParameterizedTest(name = "{0}")
  @DisplayName("a day of another zone filtered on, not grouped by, is that zone's day too")
  @CsvSource({"America/New_York", "Asia/Tokyo"})
  void dayFilteredInAnotherZone(String zoneName) {
    ZoneId zone = ZoneId.of(zoneName);
    LocalDate day = LocalDate.of(2026, 3, 29);
    FunnelQuery query = new FunnelQuery(workspace, day.minusDays(1).atStartOfDay(zone).toInstant(),
        day.plusDays(2).atStartOfDay(zone).toInstant(), zone, List.of("country"),
        Map.of(FunnelQuery.DAY, List.of(day.toString())), "USD", List.of(), ZoneOffset.UTC);

    List<String> expected = fromHours(query, "").stream().filter(line -> line.startsWith("[" + day + ","))
        .map(line -> line.replace(day + ", ", "")).toList();
    assertThat(report(query)).hasSize(2).isEqualTo(expected);
  }

  private FunnelQuery query(ZoneId zone, LocalDate from, int days, String country) {
    Instant start = from.atStartOfDay(zone).toInstant();
    Instant end = from.plusDays(days).atStartOfDay(zone).toInstant();
    return new FunnelQuery(workspace, start, end, zone, List.of(FunnelQuery.DAY, "country"),
        country.isEmpty() ? Map.of() : Map.of("country", List.of(country)), "USD", List.of(), ZoneOffset.UTC);
  }

  private List<String> report(FunnelQuery query) {
    return store.sums(query, query.groupBy(), 1000).await().stream()
        .map(s -> s.group() + " " + s.step() + " n=" + s.n() + " users=" + s.users() + " revenue="
            + s.revenue().stripTrailingZeros().toPlainString())
        .toList();
  }

  /** The same sums straight from the hours. */
  private List<String> fromHours(FunnelQuery query, String country) {
    return app.rows("""
            SELECT to_char(hour AT TIME ZONE $4, 'YYYY-MM-DD') AS day, country, step, sum(n) AS n,
                   sum(users) AS users, sum(revenue) AS revenue
              FROM funnel_rollup
             WHERE workspace_id = $1 AND hour >= $2 AND hour < $3 AND ($5 = '' OR country = $5)
             GROUP BY 1, 2, 3 ORDER BY 1, 2, 3""", workspace, query.from().atOffset(ZoneOffset.UTC),
            query.to().atOffset(ZoneOffset.UTC), query.zone().getId(), country).stream()
        .map(FunnelShiftedDaysTest::line).toList();
  }

  private static String line(Row row) {
    return List.of(row.getString("day"), row.getString("country")) + " " + row.getString("step") + " n="
        + row.getLong("n") + " users=" + row.getLong("users") + " revenue="
        + row.getBigDecimal("revenue").stripTrailingZeros().toPlainString();
  }
}
