package dev.eventrouter.db;

import dev.eventrouter.support.TestDatabase;
import io.vertx.pgclient.PgConnectOptions;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * V20 on a database of the previous release: the steps its rounds counted under the bot they came through (and a
 * join under the channel it was to) move to their click's bot and channel, in the hours and the day rows; what
 * cannot be matched for sure stays where it was.
 */
class FunnelStepsMigrationTest {

  private static final String WS = "66666666-6666-4666-8666-666666666666";
  /** An hour before the cursor, rolled up by the previous release: a literal, the same in every statement. */
  private static final String HOUR = "'" + OffsetDateTime.now(ZoneOffset.UTC).minusHours(3)
      .truncatedTo(ChronoUnit.HOURS) + "'::timestamptz";

  @Test
  @DisplayName("starts and joins rolled up under another bot or channel than their click's are moved to the "
      + "click's; the rest, and the totals, are as they were")
  void movesStepsToTheirClicks() throws SQLException {
    DataSource db = PostgresServer.dataSource(PgConnectOptions.fromUri(TestDatabase.freshDatabaseUrl()));
    Flyway.configure().dataSource(db).locations("classpath:db/migration").target("19").load().migrate();
    execute(db, """
        INSERT INTO click_sessions (workspace_id, session_id, clicked_at, created_at, utm, bot, channel)
        SELECT '%1$s', s, %2$s - interval '1 hour', %2$s - interval '1 hour' + d,
               CASE WHEN s = 'g' THEN '{"utm_campaign": "autumn"}' ELSE '{"utm_campaign": "spring"}' END::jsonb,
               b, ch
          FROM (VALUES ('a1', 'alpha', '-1001', interval '0'), ('a2', 'alpha', '-1001', interval '0'),
                       ('b2', 'beta', '-1002', interval '0'), ('g', 'alpha', '-1001', interval '0'),
                       ('late', 'alpha', '-1001', interval '2 hours'), ('a3', 'alpha', '-1001', interval '0'))
               AS c(s, b, ch, d);
        -- a1 through its own bot; a2's start through beta and its join to beta's channel; b2 through alpha; late's
        -- click captured after its start; z with no click; g's click filled in later (rolled up without its
        -- campaign); a3 after the cursor, not rolled up yet.
        INSERT INTO invite_sessions (workspace_id, telegram_id, session_id, via, bot, channel, created_at)
        VALUES ('%1$s', 1, 'a1', 'start', 'alpha', NULL, %2$s + interval '5 minutes'),
               ('%1$s', 2, 'a2', 'start', 'beta', NULL, %2$s + interval '6 minutes'),
               ('%1$s', 2, 'a2', 'join', 'beta', '-1002', %2$s + interval '7 minutes'),
               ('%1$s', 3, 'b2', 'start', 'alpha', NULL, %2$s + interval '8 minutes'),
               ('%1$s', 4, 'late', 'start', 'beta', NULL, %2$s + interval '9 minutes'),
               ('%1$s', 5, 'z', 'start', 'beta', NULL, %2$s + interval '10 minutes'),
               ('%1$s', 6, 'g', 'start', 'beta', NULL, %2$s + interval '11 minutes'),
               ('%1$s', 7, 'a3', 'start', 'beta', NULL, %2$s + interval '130 minutes');
        -- The previous release's rows: each step under the bot it came through.
        INSERT INTO funnel_rollup (workspace_id, hour, utm_source, utm_medium, utm_campaign, utm_content, utm_term,
                                   campaign_id, adset_id, ad_id, placement, bot, channel, country, step, n)
        SELECT '%1$s', %2$s, '', '', campaign, '', '', '', '', '', '', bot, channel, '', step, n
          FROM (VALUES ('spring', 'alpha', '-1001', '$click', 5), ('spring', 'alpha', '-1001', '$start', 1),
                       ('spring', 'beta', '-1001', '$start', 1), ('spring', 'beta', '-1002', '$join', 1),
                       ('spring', 'alpha', '-1002', '$start', 1), ('', 'beta', '', '$start', 2),
                       ('', 'beta', '-1001', '$start', 1)) AS r(campaign, bot, channel, step, n);
        INSERT INTO funnel_day_zone VALUES ('%1$s', 'Europe/Berlin');
        INSERT INTO funnel_rollup_day
        SELECT workspace_id, (hour AT TIME ZONE 'Europe/Berlin')::date, utm_source, utm_medium, utm_campaign,
               utm_content, utm_term, campaign_id, adset_id, ad_id, placement, bot, channel, country, step, n
          FROM funnel_rollup;
        INSERT INTO funnel_rollup_total (workspace_id, hour, step, n)
        SELECT workspace_id, hour, step, sum(n) FROM funnel_rollup GROUP BY 1, 2, 3;
        UPDATE funnel_cursor SET upto = %2$s + interval '2 hours'""".formatted(WS, HOUR));
    List<String> totals = rows(db, "SELECT step || ' ' || n FROM funnel_rollup_total ORDER BY step");

    Flyway.configure().dataSource(db).locations("classpath:db/migration").load().migrate();

    List<String> expected = List.of("spring alpha -1001 $click 5", "spring alpha -1001 $join 1",
        "spring alpha -1001 $start 2", "spring beta -1002 $start 1", " beta  $start 2", " beta -1001 $start 1");
    assertThat(rows(db, "SELECT utm_campaign || ' ' || bot || ' ' || channel || ' ' || step || ' ' || n"
        + " FROM funnel_rollup WHERE hour = " + HOUR + " ORDER BY utm_campaign DESC, bot, channel, step"))
        .containsExactlyElementsOf(expected);
    assertThat(rows(db, "SELECT utm_campaign || ' ' || bot || ' ' || channel || ' ' || step || ' ' || n"
        + " FROM funnel_rollup_day WHERE day = (" + HOUR + " AT TIME ZONE 'Europe/Berlin')::date"
        + " ORDER BY utm_campaign DESC, bot, channel, step")).as("the day rows, in the workspace's zone")
        .containsExactlyElementsOf(expected);
    assertThat(rows(db, "SELECT count(*) FROM funnel_rollup_day")).containsExactly("6");
    assertThat(rows(db, "SELECT step || ' ' || n FROM funnel_rollup_total ORDER BY step")).isEqualTo(totals);
  }

  private static void execute(DataSource db, String sql) throws SQLException {
    try (Connection c = db.getConnection(); Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static List<String> rows(DataSource db, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = db.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rows.add(rs.getString(1));
      }
    }
    return rows;
  }
}
