package dev.eventrouter.store;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.time.Duration;
import java.time.OffsetDateTime;

/**
 * SQL of the cohorts' rollups (docs/reports.md#cohorts), added by each funnel rollup round in its transaction, under
 * its lock: for each conversion with a value, its approved revenue (in the report currency, as the funnel counts it)
 * at its click's day and its age (days from the click's day to the conversion's, in the workspace's day zone); a
 * status change moves revenue at the age of the conversion it changes. Their own cursor catches up with the funnel's
 * (after an upgrade, from the oldest conversion kept), a span per round.
 */
final class CohortRollups {

  /** The oldest age kept apart; every later one is counted in it. */
  static final int LAST_AGE = 366;

  static final String READ_CURSOR = "SELECT upto FROM cohort_cursor WHERE id = 1";
  static final String ADVANCE = "UPDATE cohort_cursor SET upto = $1 WHERE id = 1";

  private static final String COLUMNS = FunnelRollups.COLUMNS;

  /**
   * The span's ($1, $2) facts: each conversion with a value written in it, each status change made in it, through
   * the conversion's click. A payer is a Telegram user (else a click session) counted once, at the age of the first
   * conversion with a value not rejected when it came.
   */
  static final String ROLL_UP = """
      WITH ev AS (
          SELECT e.event_id, e.workspace_id, e.session_id, e.telegram_id, e.received_at,
                 coalesce(e.conversion_status, 'approved') AS s,
                 CASE WHEN v.event_id IS NULL THEN e.value ELSE v.report_value END AS report_value
            FROM events e LEFT JOIN conversion_values v ON v.event_id = e.event_id AND v.seq = 0
           WHERE %1$s AND e.value > 0),
      facts (workspace_id, event_id, payer, paid, at, clicked_at, %2$s, revenue) AS (
          SELECT e.workspace_id, e.event_id, coalesce(e.telegram_id::text, 's:' || e.session_id), e.s <> 'rejected',
                 e.received_at, c.clicked_at, %3$s,
                 CASE WHEN e.s = 'approved' THEN coalesce(e.report_value, 0) ELSE 0 END
            FROM ev e %4$s
          UNION ALL
          SELECT e.workspace_id, e.event_id, NULL, false, e.received_at, c.clicked_at, %3$s,
                 CASE WHEN h.status = 'approved' THEN coalesce(nv.report_value, 0) ELSE 0 END
                   - CASE WHEN h.previous_status <> 'approved' THEN 0
                          WHEN pv.event_id IS NULL AND h.seq = 1 THEN coalesce(e.value, 0) -- the event's own, as in ev
                          ELSE coalesce(pv.report_value, 0) END
            FROM conversion_changes h JOIN events e ON e.event_id = h.event_id %4$s
            LEFT JOIN conversion_values nv ON nv.event_id = h.event_id AND nv.seq = h.seq
            LEFT JOIN conversion_values pv ON pv.event_id = h.event_id AND pv.seq = h.seq - 1
           WHERE h.changed_at >= $1 AND h.changed_at < $2),
      new_payers AS (
          INSERT INTO cohort_payers (workspace_id, payer)
          SELECT DISTINCT workspace_id, payer FROM facts WHERE paid
          ON CONFLICT DO NOTHING
          RETURNING workspace_id, payer),
      first_paid AS (
          SELECT DISTINCT ON (f.workspace_id, f.payer) f.event_id
            FROM facts f JOIN new_payers USING (workspace_id, payer)
           WHERE f.paid
           ORDER BY f.workspace_id, f.payer, f.event_id),
      delta AS (
          SELECT f.workspace_id, (f.clicked_at AT TIME ZONE z.zone)::date AS click_day,
                 least(%5$s, greatest(0, (f.at AT TIME ZONE z.zone)::date - (f.clicked_at AT TIME ZONE z.zone)::date))
                   AS age, %2$s, sum(f.revenue) AS revenue, count(p.event_id) AS payers
            FROM facts f JOIN funnel_day_zone z ON z.workspace_id = f.workspace_id
            LEFT JOIN first_paid p ON f.paid AND p.event_id = f.event_id
           GROUP BY 1, 2, 3, %2$s
          HAVING sum(f.revenue) <> 0 OR count(p.event_id) > 0),
      wide AS (
          INSERT INTO funnel_cohort (workspace_id, click_day, age, %2$s, revenue, payers)
          SELECT * FROM delta
          ON CONFLICT (workspace_id, click_day, age, %2$s) DO UPDATE
             SET revenue = funnel_cohort.revenue + EXCLUDED.revenue, payers = funnel_cohort.payers + EXCLUDED.payers),
      ads AS (
          INSERT INTO funnel_cohort_ads (workspace_id, click_day, age, campaign_id, adset_id, ad_id, revenue, payers)
          SELECT workspace_id, click_day, age, campaign_id, adset_id, ad_id, sum(revenue), sum(payers) FROM delta
           GROUP BY workspace_id, click_day, age, campaign_id, adset_id, ad_id
          ON CONFLICT (workspace_id, click_day, age, campaign_id, adset_id, ad_id) DO UPDATE
             SET revenue = funnel_cohort_ads.revenue + EXCLUDED.revenue,
                 payers = funnel_cohort_ads.payers + EXCLUDED.payers)
      INSERT INTO funnel_cohort_ad_weeks (workspace_id, click_week, age, campaign_id, adset_id, ad_id, revenue, payers)
      SELECT workspace_id, date_trunc('week', click_day::timestamp)::date, age, campaign_id, adset_id, ad_id,
             sum(revenue), sum(payers) FROM delta
       GROUP BY workspace_id, date_trunc('week', click_day::timestamp)::date, age, campaign_id, adset_id, ad_id
      ON CONFLICT (workspace_id, click_week, age, campaign_id, adset_id, ad_id) DO UPDATE
         SET revenue = funnel_cohort_ad_weeks.revenue + EXCLUDED.revenue,
             payers = funnel_cohort_ad_weeks.payers + EXCLUDED.payers"""
      .formatted(FunnelRollups.EVENTS_IN_SPAN, COLUMNS, FunnelRollups.dims("c.bot", "c.channel"),
          "JOIN click_sessions c ON c.workspace_id = e.workspace_id AND c.session_id = e.session_id", LAST_AGE);

  static final String PURGE = "DELETE FROM funnel_cohort WHERE click_day < (now() - make_interval(days => $1)) "
      + "AT TIME ZONE 'UTC'";
  static final String PURGE_ADS = PURGE.replace("funnel_cohort", "funnel_cohort_ads");
  /** A week goes with its last day. */
  static final String PURGE_AD_WEEKS = "DELETE FROM funnel_cohort_ad_weeks WHERE click_week + 6 < (now() - "
      + "make_interval(days => $1)) AT TIME ZONE 'UTC'";

  private CohortRollups() {}

  /**
   * Adds the cohorts of the span from the cohorts' cursor up to {@code hi} (the funnel round's end), at most
   * {@code spanMs} of it; whether they are still behind {@code hi}.
   */
  static Future<Boolean> rollUp(SqlConnection conn, OffsetDateTime hi, long spanMs) {
    return conn.query(READ_CURSOR).execute().compose(rows -> {
      Row row = rows.iterator().next();
      OffsetDateTime from = row.getOffsetDateTime("upto");
      OffsetDateTime capped = from.plus(Duration.ofMillis(spanMs));
      OffsetDateTime to = capped.isBefore(hi) ? capped : hi;
      if (!to.isAfter(from)) {
        return Future.succeededFuture(false);
      }
      return conn.preparedQuery(ROLL_UP).execute(Tuple.of(from, to))
          .compose(v -> conn.preparedQuery(ADVANCE).execute(Tuple.of(to)))
          .map(v -> to.isBefore(hi));
    });
  }
}
