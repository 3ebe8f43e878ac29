-- The funnel report counts a /start, join request or join under its click's bot and channel, as it counts the
-- session's events and unsubscribes (until now: under the bot it came through, and a join under the channel it was
-- to). The rollups of those already rolled up whose invite session is still kept (the attribution window plus 7
-- days) are moved to their click's bot and channel here, in every layer but the hourly totals (which have no bot or
-- channel); older ones stay where they were counted. Only derived rows change: no session, event or delivery.

-- The rounds' lock: no round adds to the rollups meanwhile (another node's skips it).
SELECT upto FROM funnel_cursor WHERE id = 1 FOR UPDATE;

-- Each step rolled up under another bot or channel than its click's: the row it was counted in (old_bot,
-- old_channel; the other dimensions are the click's) and the one it belongs in (bot, channel). Only a click captured
-- no later than the step: its rollup read the click then (a later capture may not have been there yet).
CREATE TEMPORARY TABLE funnel_moves ON COMMIT DROP AS
SELECT i.workspace_id, date_trunc('hour', i.created_at, 'UTC') AS hour,
       CASE i.via WHEN 'api' THEN '$start' ELSE '$' || i.via END AS step,
       coalesce(c.utm->>'utm_source', '') AS utm_source, coalesce(c.utm->>'utm_medium', '') AS utm_medium,
       coalesce(c.utm->>'utm_campaign', '') AS utm_campaign, coalesce(c.utm->>'utm_content', '') AS utm_content,
       coalesce(c.utm->>'utm_term', '') AS utm_term, coalesce(c.ad->>'campaign_id', '') AS campaign_id,
       coalesce(c.ad->>'adset_id', '') AS adset_id, coalesce(c.ad->>'ad_id', '') AS ad_id,
       coalesce(c.ad->>'placement', '') AS placement, coalesce(c.country, '') AS country,
       coalesce(i.bot, c.bot, '') AS old_bot, coalesce(i.channel, c.channel, '') AS old_channel,
       coalesce(c.bot, i.bot, '') AS bot, coalesce(c.channel, i.channel, '') AS channel, count(*) AS n
  FROM invite_sessions i
  JOIN click_sessions c ON c.workspace_id = i.workspace_id AND c.session_id = i.session_id
 WHERE i.created_at < (SELECT upto FROM funnel_cursor WHERE id = 1)
   AND c.created_at <= i.created_at
   AND (coalesce(i.bot, c.bot, '') <> coalesce(c.bot, i.bot, '')
        OR coalesce(i.channel, c.channel, '') <> coalesce(c.channel, i.channel, ''))
 GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17;

-- Moved only out of an hourly row that holds them all: a click filled in by a later capture was rolled up with less
-- than it says now, and what cannot be found is left as it was rather than taken from another row.
DELETE FROM funnel_moves m
 USING (SELECT k.* FROM (SELECT workspace_id, hour, step, utm_source, utm_medium, utm_campaign, utm_content, utm_term,
                                campaign_id, adset_id, ad_id, placement, old_bot, old_channel, country, sum(n) AS n
                           FROM funnel_moves
                          GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) k
          LEFT JOIN funnel_rollup r
            ON (r.workspace_id, r.hour, r.step, r.utm_source, r.utm_medium, r.utm_campaign, r.utm_content,
                r.utm_term, r.campaign_id, r.adset_id, r.ad_id, r.placement, r.bot, r.channel, r.country)
             = (k.workspace_id, k.hour, k.step, k.utm_source, k.utm_medium, k.utm_campaign, k.utm_content,
                k.utm_term, k.campaign_id, k.adset_id, k.ad_id, k.placement, k.old_bot, k.old_channel, k.country)
         WHERE r.n IS NULL OR r.n < k.n) unfound
 WHERE (m.workspace_id, m.hour, m.step, m.utm_source, m.utm_medium, m.utm_campaign, m.utm_content, m.utm_term,
        m.campaign_id, m.adset_id, m.ad_id, m.placement, m.old_bot, m.old_channel, m.country)
     = (unfound.workspace_id, unfound.hour, unfound.step, unfound.utm_source, unfound.utm_medium, unfound.utm_campaign,
        unfound.utm_content, unfound.utm_term, unfound.campaign_id, unfound.adset_id, unfound.ad_id, unfound.placement,
        unfound.old_bot, unfound.old_channel, unfound.country);

-- Each move as a count taken from one row (-n) and added to another (+n), by hour and by the day of the
-- workspace's day rows.
CREATE TEMPORARY TABLE funnel_deltas ON COMMIT DROP AS
SELECT workspace_id, hour, step, utm_source, utm_medium, utm_campaign, utm_content, utm_term, campaign_id, adset_id,
       ad_id, placement, old_bot AS bot, old_channel AS channel, country, -n AS n
  FROM funnel_moves
UNION ALL
SELECT workspace_id, hour, step, utm_source, utm_medium, utm_campaign, utm_content, utm_term, campaign_id, adset_id,
       ad_id, placement, bot, channel, country, n
  FROM funnel_moves;

INSERT INTO funnel_rollup (workspace_id, hour, utm_source, utm_medium, utm_campaign, utm_content, utm_term,
                           campaign_id, adset_id, ad_id, placement, bot, channel, country, step, n)
SELECT workspace_id, hour, utm_source, utm_medium, utm_campaign, utm_content, utm_term, campaign_id, adset_id, ad_id,
       placement, bot, channel, country, step, sum(n)
  FROM funnel_deltas
 GROUP BY workspace_id, hour, utm_source, utm_medium, utm_campaign, utm_content, utm_term, campaign_id, adset_id,
          ad_id, placement, bot, channel, country, step
ON CONFLICT (workspace_id, hour, step, utm_source, utm_medium, utm_campaign, utm_content, utm_term, campaign_id,
             adset_id, ad_id, placement, bot, channel, country)
DO UPDATE SET n = funnel_rollup.n + EXCLUDED.n;

-- A day row holds the sums of its hours, so it holds what its hours gave up.
INSERT INTO funnel_rollup_day (workspace_id, day, utm_source, utm_medium, utm_campaign, utm_content, utm_term,
                               campaign_id, adset_id, ad_id, placement, bot, channel, country, step, n)
SELECT d.workspace_id, (d.hour AT TIME ZONE z.zone)::date, utm_source, utm_medium, utm_campaign, utm_content,
       utm_term, campaign_id, adset_id, ad_id, placement, bot, channel, country, step, sum(n)
  FROM funnel_deltas d JOIN funnel_day_zone z ON z.workspace_id = d.workspace_id
 GROUP BY d.workspace_id, (d.hour AT TIME ZONE z.zone)::date, utm_source, utm_medium, utm_campaign, utm_content,
          utm_term, campaign_id, adset_id, ad_id, placement, bot, channel, country, step
ON CONFLICT (workspace_id, day, step, utm_source, utm_medium, utm_campaign, utm_content, utm_term, campaign_id,
             adset_id, ad_id, placement, bot, channel, country)
DO UPDATE SET n = funnel_rollup_day.n + EXCLUDED.n;

-- A row left with nothing in it (a group the config cannot make, such as another bot's channel) goes.
DELETE FROM funnel_rollup r USING funnel_moves m
 WHERE (r.workspace_id, r.hour, r.step, r.utm_source, r.utm_medium, r.utm_campaign, r.utm_content, r.utm_term,
        r.campaign_id, r.adset_id, r.ad_id, r.placement, r.bot, r.channel, r.country)
     = (m.workspace_id, m.hour, m.step, m.utm_source, m.utm_medium, m.utm_campaign, m.utm_content, m.utm_term,
        m.campaign_id, m.adset_id, m.ad_id, m.placement, m.old_bot, m.old_channel, m.country)
   AND r.n = 0 AND r.users = 0 AND r.revenue = 0 AND r.unconverted = 0 AND r.pending = 0 AND r.approved = 0
   AND r.rejected = 0 AND r.chargeback = 0;

DELETE FROM funnel_rollup_day r USING funnel_moves m JOIN funnel_day_zone z ON z.workspace_id = m.workspace_id
 WHERE (r.workspace_id, r.day, r.step, r.utm_source, r.utm_medium, r.utm_campaign, r.utm_content, r.utm_term,
        r.campaign_id, r.adset_id, r.ad_id, r.placement, r.bot, r.channel, r.country)
     = (m.workspace_id, (m.hour AT TIME ZONE z.zone)::date, m.step, m.utm_source, m.utm_medium, m.utm_campaign,
        m.utm_content, m.utm_term, m.campaign_id, m.adset_id, m.ad_id, m.placement, m.old_bot, m.old_channel,
        m.country)
   AND r.n = 0 AND r.users = 0 AND r.revenue = 0 AND r.unconverted = 0 AND r.pending = 0 AND r.approved = 0
   AND r.rejected = 0 AND r.chargeback = 0;
