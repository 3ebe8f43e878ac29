-- Layers by the click's ids alone (campaign, ad set, ad) for reports over long ranges (90 days of 240 ads) that group
-- and filter by nothing else: fewer rows to read and none left to add up.

-- The day rows' clicks by ids, in the same day zone (funnel_day_zone): the rows of the ads, not of every utm value,
-- placement and country beside them. Kept by the funnel rollups' rounds, made again with the day rows when the zone
-- changes, purged with them.
CREATE TABLE funnel_ad_clicks (
    workspace_id uuid   NOT NULL,
    day          date   NOT NULL,
    campaign_id  text   NOT NULL,
    adset_id     text   NOT NULL,
    ad_id        text   NOT NULL,
    n            bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, day, campaign_id, adset_id, ad_id)
);

INSERT INTO funnel_ad_clicks (workspace_id, day, campaign_id, adset_id, ad_id, n)
SELECT workspace_id, day, campaign_id, adset_id, ad_id, sum(n) FROM funnel_rollup_day WHERE step = '$click'
 GROUP BY workspace_id, day, campaign_id, adset_id, ad_id;

-- funnel_cohort_ads by the click's week (its Monday) instead of its day: a report over whole weeks reads a row per
-- ad, week and age rather than seven. Kept by the same statement of each round, from the same delta.
CREATE TABLE funnel_cohort_ad_weeks (
    workspace_id uuid    NOT NULL,
    click_week   date    NOT NULL,
    age          int     NOT NULL,
    campaign_id  text    NOT NULL,
    adset_id     text    NOT NULL,
    ad_id        text    NOT NULL,
    revenue      numeric NOT NULL DEFAULT 0,
    payers       bigint  NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, click_week, age, campaign_id, adset_id, ad_id)
);

INSERT INTO funnel_cohort_ad_weeks (workspace_id, click_week, age, campaign_id, adset_id, ad_id, revenue, payers)
SELECT workspace_id, date_trunc('week', click_day::timestamp)::date, age, campaign_id, adset_id, ad_id, sum(revenue),
       sum(payers)
  FROM funnel_cohort_ads
 GROUP BY workspace_id, date_trunc('week', click_day::timestamp)::date, age, campaign_id, adset_id, ad_id;
