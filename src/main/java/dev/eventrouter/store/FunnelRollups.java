package dev.eventrouter.store;

import dev.eventrouter.event.FunnelQuery;
import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * SQL of the funnel report's hourly rollups, kept by rounds that each add what was written in a span of time (clicks,
 * invite sessions, events, status changes) under one lock. The report reads them alone ({@link FunnelReports}).
 *
 * <p>A round takes rows written before {@code now() - lag}: a row's time (its event id, its created_at) is taken
 * before its transaction commits, so the lag must exceed the longest a write may take to commit. Anything later
 * would be skipped for good.
 */
public final class FunnelRollups {

  /** The span a round adds: from the cursor, up to $1 (the lag) before now, at most $2 (the span) long. */
  static final String CLAIM = """
      SELECT upto, least(now() - make_interval(secs => $1::float8 / 1000),
                         upto + make_interval(secs => $2::float8 / 1000)) AS hi
        FROM funnel_cursor WHERE id = 1 FOR UPDATE SKIP LOCKED""";

  static final String ADVANCE = "UPDATE funnel_cursor SET upto = $1 WHERE id = 1";

  /** The events of a round's span ($1, $2), by their ids. */
  static final String EVENTS_IN_SPAN = "e.event_id >= event_id_floor($1) AND e.event_id < event_id_floor($2)";

  /** The dimensions of a fact through its click session {@code c} ('' where unknown). */
  static String dims(String bot, String channel) {
    return """
        coalesce(c.utm->>'utm_source', ''), coalesce(c.utm->>'utm_medium', ''), coalesce(c.utm->>'utm_campaign', ''),
               coalesce(c.utm->>'utm_content', ''), coalesce(c.utm->>'utm_term', ''),
               coalesce(c.ad->>'campaign_id', ''), coalesce(c.ad->>'adset_id', ''), coalesce(c.ad->>'ad_id', ''),
               coalesce(c.ad->>'placement', ''), coalesce(%s, ''), coalesce(%s, ''), coalesce(c.country, '')"""
        .formatted(bot, channel);
  }

  private static final String CLICK_OF = "LEFT JOIN click_sessions c ON c.workspace_id = %1$s.workspace_id"
      + " AND c.session_id = %1$s.session_id";

  static final String COLUMNS = String.join(", ", FunnelQuery.DIMENSIONS);
  /** The counts and amounts of a rollup row, which add up across rows, hours and days. */
  static final List<String> SUMS = List.of("n", "users", "revenue", "unconverted", "pending", "approved",
      "rejected", "chargeback");

  /** The sums of the sums, each named for its column: a rollup row made of finer rows. */
  static final String SUMMED = String.join(", ", SUMS.stream().map(sum -> "sum(" + sum + ") AS " + sum)
      .toList());

  /** An upsert's SET list adding the new sums to a table's row. */
  private static String addUp(String table) {
    return String.join(", ", SUMS.stream().map(sum -> sum + " = " + table + "." + sum + " + EXCLUDED." + sum)
        .toList());
  }

  /**
   * Adds the span's facts to the rollups. Each fact is a row of counts; a status change moves its conversion's
   * count (and revenue, at approved) from the previous status to the new one, in its event's hour, and an
   * unsubscribe (a JoinRequest rejected for leaving the channel) is a step of its own. A /start, join request or join
   * is counted under its click's bot and channel, as the session's events and unsubscribes are, even when it came
   * through another bot or to another channel; under the bot and channel it came through only when the click names
   * none (a session no capture made).
   */
  static final String ROLL_UP = """
      WITH span_firsts AS (
          SELECT e.workspace_id, e.event_name, e.telegram_id, min(e.event_id) AS event_id FROM events e
           WHERE %1$s AND e.telegram_id IS NOT NULL
           GROUP BY e.workspace_id, e.event_name, e.telegram_id),
      firsts AS (
          INSERT INTO funnel_firsts (workspace_id, event_name, telegram_id)
          SELECT workspace_id, event_name, telegram_id FROM span_firsts
          ON CONFLICT DO NOTHING
          RETURNING workspace_id, event_name, telegram_id),
      new_users AS (
          SELECT s.event_id FROM span_firsts s JOIN firsts f USING (workspace_id, event_name, telegram_id)),
      ev AS (
          SELECT e.*, coalesce(e.conversion_status, 'approved') AS s,
                 CASE WHEN v.event_id IS NULL THEN e.value ELSE v.report_value END AS report_value,
                 v.event_id IS NOT NULL AND v.report_value IS NULL AS unconverted
            FROM events e LEFT JOIN conversion_values v ON v.event_id = e.event_id AND v.seq = 0
           WHERE %1$s),
      facts (workspace_id, at, %2$s, step, n, users, revenue, unconverted, pending, approved, rejected,
             chargeback) AS (
          SELECT c.workspace_id, c.clicked_at, %3$s, '$click', 1, 0, 0::numeric, 0, 0, 0, 0, 0
            FROM click_sessions c WHERE c.created_at >= $1 AND c.created_at < $2
          UNION ALL
          SELECT i.workspace_id, i.created_at, %4$s,
                 CASE i.via WHEN 'api' THEN '$start' ELSE '$' || i.via END, 1, 0, 0, 0, 0, 0, 0, 0
            FROM invite_sessions i %5$s
           WHERE i.created_at >= $1 AND i.created_at < $2
          UNION ALL
          SELECT e.workspace_id, e.received_at, %3$s, e.event_name, 1, (u.event_id IS NOT NULL)::int,
                 CASE WHEN e.s = 'approved' THEN coalesce(e.report_value, 0) ELSE 0 END,
                 (e.s = 'approved' AND e.unconverted)::int,
                 (e.s = 'pending')::int, (e.s = 'approved')::int, (e.s = 'rejected')::int, (e.s = 'chargeback')::int
            FROM ev e %6$s
            LEFT JOIN new_users u ON u.event_id = e.event_id
          UNION ALL
          SELECT e.workspace_id, e.received_at, %3$s, e.event_name, 0, 0,
                 CASE WHEN h.status = 'approved' THEN coalesce(nv.report_value, 0) ELSE 0 END
                   - CASE WHEN h.previous_status <> 'approved' THEN 0
                          WHEN pv.event_id IS NULL AND h.seq = 1 THEN coalesce(e.value, 0) -- the event's own, as in ev
                          ELSE coalesce(pv.report_value, 0) END,
                 (h.status = 'approved' AND nv.event_id IS NOT NULL AND nv.report_value IS NULL)::int
                   - (h.previous_status = 'approved' AND pv.event_id IS NOT NULL AND pv.report_value IS NULL)::int,
                 (h.status = 'pending')::int - (h.previous_status = 'pending')::int,
                 (h.status = 'approved')::int - (h.previous_status = 'approved')::int,
                 (h.status = 'rejected')::int - (h.previous_status = 'rejected')::int,
                 (h.status = 'chargeback')::int - (h.previous_status = 'chargeback')::int
            FROM conversion_changes h JOIN events e ON e.event_id = h.event_id %6$s
            LEFT JOIN conversion_values nv ON nv.event_id = h.event_id AND nv.seq = h.seq
            LEFT JOIN conversion_values pv ON pv.event_id = h.event_id AND pv.seq = h.seq - 1
           WHERE h.changed_at >= $1 AND h.changed_at < $2
          UNION ALL
          SELECT e.workspace_id, e.received_at, %3$s, '$unsubscribe', 1, 0, 0, 0, 0, 0, 0, 0
            FROM conversion_changes h JOIN events e ON e.event_id = h.event_id %6$s
           WHERE h.changed_at >= $1 AND h.changed_at < $2 AND h.reason = 'left_channel'),
      grouped AS (
          SELECT workspace_id, date_trunc('hour', at, 'UTC') AS hour, %2$s, step, SUMMED
            FROM facts
           GROUP BY workspace_id, date_trunc('hour', at, 'UTC'), %2$s, step),
      daily AS (
          INSERT INTO funnel_rollup_day (workspace_id, day, %2$s, step, SUMS)
          SELECT g.workspace_id, (g.hour AT TIME ZONE z.zone)::date, %2$s, step, SUMMED
            FROM grouped g JOIN funnel_day_zone z ON z.workspace_id = g.workspace_id
           GROUP BY g.workspace_id, (g.hour AT TIME ZONE z.zone)::date, %2$s, step
          ON CONFLICT (workspace_id, day, step, %2$s) DO UPDATE SET ADD_UP_DAY),
      total AS (
          INSERT INTO funnel_rollup_total (workspace_id, hour, step, SUMS)
          SELECT workspace_id, hour, step, SUMMED FROM grouped GROUP BY workspace_id, hour, step
          ON CONFLICT (workspace_id, hour, step) DO UPDATE SET ADD_UP_TOTAL),
      ad_clicks AS (
          AD_CLICKS)
      INSERT INTO funnel_rollup (workspace_id, hour, %2$s, step, SUMS)
      SELECT workspace_id, hour, %2$s, step, SUMS FROM grouped
      ON CONFLICT (workspace_id, hour, step, %2$s) DO UPDATE SET ADD_UP_HOUR"""
      .formatted(EVENTS_IN_SPAN, COLUMNS, dims("c.bot", "c.channel"),
          dims("coalesce(c.bot, i.bot)", "coalesce(c.channel, i.channel)"), CLICK_OF.formatted("i"),
          CLICK_OF.formatted("e"))
      .replace("SUMMED", SUMMED)
      .replace("SUMS", String.join(", ", SUMS))
      .replace("ADD_UP_DAY", addUp("funnel_rollup_day"))
      .replace("ADD_UP_TOTAL", addUp("funnel_rollup_total"))
      .replace("ADD_UP_HOUR", addUp("funnel_rollup"))
      .replace("AD_CLICKS", AdClicks.ROLL_UP);

  static final String PURGE = """
      WITH cohorts AS (%s),
      cohort_ads AS (%s),
      cohort_ad_weeks AS (%s),
      ad_clicks AS (%s),
      daily AS (
          DELETE FROM funnel_rollup_day WHERE day < (now() - make_interval(days => $1)) AT TIME ZONE 'UTC'),
      total AS (
          DELETE FROM funnel_rollup_total WHERE hour < now() - make_interval(days => $1))
      DELETE FROM funnel_rollup WHERE hour < now() - make_interval(days => $1)""".formatted(CohortRollups.PURGE,
      CohortRollups.PURGE_ADS, CohortRollups.PURGE_AD_WEEKS, AdClicks.PURGE);

  /** What one round did: the instant the rollups now reach, and whether the backlog goes on past it. */
  public record Round(OffsetDateTime upto, boolean behind) {}

  private final Pool pool;

  public FunnelRollups(Pool pool) {
    this.pool = pool;
  }

  /**
   * One round: rolls up what was written since the last round and before {@code now() - lagMs} (at most
   * {@code spanMs} of it), or nothing when another node holds the round. Empty when there was nothing to take.
   *
   * @param reportCurrencies each configured workspace's report currency
   * @param reportZones      each configured workspace's report zone (an id java.time and PostgreSQL both read)
   * @param cohorts          whether the round keeps the cohorts too ({@link CohortRollups})
   */
  public Future<Round> rollUp(long lagMs, long spanMs, Map<UUID, String> reportCurrencies,
                              Map<UUID, String> reportZones, boolean cohorts) {
    UUID[] workspaces = reportCurrencies.keySet().toArray(UUID[]::new);
    String[] currencies = valuesOf(workspaces, reportCurrencies);
    return pool.withTransaction(conn -> conn.preparedQuery(CLAIM).execute(Tuple.of(lagMs, spanMs)).compose(rows -> {
      if (rows.size() == 0) {
        return Future.succeededFuture((Round) null); // another node's round is running
      }
      Row row = rows.iterator().next();
      OffsetDateTime from = row.getOffsetDateTime("upto");
      OffsetDateTime to = row.getOffsetDateTime("hi");
      if (!to.isAfter(from)) {
        return Future.succeededFuture(new Round(from, false));
      }
      Tuple span = Tuple.of(from, to, workspaces, currencies);
      return DayZones.rezone(conn, workspaces, valuesOf(workspaces, reportZones))
          .compose(v -> ReportCurrency.convert(conn, span))
          .compose(v -> conn.preparedQuery(ROLL_UP).execute(Tuple.of(from, to)))
          .compose(v -> cohorts ? CohortRollups.rollUp(conn, to, spanMs) : Future.succeededFuture(false))
          .compose(cohortsBehind -> conn.preparedQuery(ADVANCE).execute(Tuple.of(to))
              .map(v -> new Round(to, cohortsBehind || !to.isBefore(from.plus(Duration.ofMillis(spanMs))))));
    }));
  }

  /** The map's value of each workspace, in the array's order: a column for {@code unnest}. */
  private static String[] valuesOf(UUID[] workspaces, Map<UUID, String> values) {
    return Arrays.stream(workspaces).map(values::get).toArray(String[]::new);
  }

  /** Deletes the rollups of hours older than the days given; how many rows went. */
  public Future<Integer> purge(int days) {
    return pool.preparedQuery(PURGE).execute(Tuple.of(days)).map(rows -> rows.rowCount());
  }
}
