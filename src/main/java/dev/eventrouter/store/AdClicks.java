package dev.eventrouter.store;

/**
 * SQL of the day rows' clicks by the click's ids alone (funnel_ad_clicks, V27): the clicks a report grouped and
 * filtered by campaign, ad set, ad and day reads ({@link CostClicks}, {@link CohortReports}), a row per ad and day
 * rather than one per utm value, placement and country beside them. Kept as the day rows are: by each funnel rollup
 * round's statement, made again from the hours when the workspace's day zone changes, purged with them.
 */
final class AdClicks {

  /** The layer's table. */
  static final String TABLE = "funnel_ad_clicks";

  /**
   * The round's clicks, from its grouped facts (the funnel round's {@code grouped}, by UTC hour), each in its hour's
   * day in the workspace's day zone, as the day rows count them: a part of the round's statement, so the span's
   * clicks are read once.
   */
  static final String ROLL_UP = """
      INSERT INTO funnel_ad_clicks (workspace_id, day, campaign_id, adset_id, ad_id, n)
          SELECT g.workspace_id, (g.hour AT TIME ZONE z.zone)::date, g.campaign_id, g.adset_id, g.ad_id, sum(g.n)
            FROM grouped g JOIN funnel_day_zone z ON z.workspace_id = g.workspace_id
           WHERE g.step = '$click'
           GROUP BY 1, 2, 3, 4, 5
          ON CONFLICT (workspace_id, day, campaign_id, adset_id, ad_id)
          DO UPDATE SET n = funnel_ad_clicks.n + EXCLUDED.n""";

  /** A workspace's ($1) rows dropped when its day zone changes. */
  static final String REZONE = "DELETE FROM funnel_ad_clicks WHERE workspace_id = $1";

  /** A workspace's ($1) rows made again in the local days of its new zone ($2), from its hours. */
  static final String REZONE_FILL = """
      INSERT INTO funnel_ad_clicks (workspace_id, day, campaign_id, adset_id, ad_id, n)
      SELECT workspace_id, (hour AT TIME ZONE $2)::date, campaign_id, adset_id, ad_id, sum(n) FROM funnel_rollup
       WHERE workspace_id = $1 AND step = '$click'
       GROUP BY workspace_id, (hour AT TIME ZONE $2)::date, campaign_id, adset_id, ad_id""";

  /** The rows of days older than $1 days, as the day rows go. */
  static final String PURGE = "DELETE FROM funnel_ad_clicks WHERE day < (now() - make_interval(days => $1)) "
      + "AT TIME ZONE 'UTC'";

  private AdClicks() {}
}
