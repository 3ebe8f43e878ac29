-- Two coarser layers of the funnel report's rollups, kept in the same statement as the hourly rows, so a report over
-- a month reads a few thousand rows, not millions: a day's sums of the same dimensions, each day a whole day of the
-- workspace's report_timezone (for every report but one grouped by day in another zone, whose days start at other
-- hours), and an hour's sums of no dimension (for a report grouped by day alone, in any zone, with no filter).
CREATE TABLE funnel_rollup_day (
    workspace_id uuid    NOT NULL,
    day          date    NOT NULL,
    utm_source   text    NOT NULL,
    utm_medium   text    NOT NULL,
    utm_campaign text    NOT NULL,
    utm_content  text    NOT NULL,
    utm_term     text    NOT NULL,
    campaign_id  text    NOT NULL,
    adset_id     text    NOT NULL,
    ad_id        text    NOT NULL,
    placement    text    NOT NULL,
    bot          text    NOT NULL,
    channel      text    NOT NULL,
    country      text    NOT NULL,
    step         text    NOT NULL,
    n            bigint  NOT NULL DEFAULT 0,
    users        bigint  NOT NULL DEFAULT 0,
    revenue      numeric NOT NULL DEFAULT 0,
    unconverted  bigint  NOT NULL DEFAULT 0,
    pending      bigint  NOT NULL DEFAULT 0,
    approved     bigint  NOT NULL DEFAULT 0,
    rejected     bigint  NOT NULL DEFAULT 0,
    chargeback   bigint  NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, day, step, utm_source, utm_medium, utm_campaign, utm_content, utm_term, campaign_id,
                 adset_id, ad_id, placement, bot, channel, country)
);

CREATE TABLE funnel_rollup_total (
    workspace_id uuid        NOT NULL,
    hour         timestamptz NOT NULL,
    step         text        NOT NULL,
    n            bigint      NOT NULL DEFAULT 0,
    users        bigint      NOT NULL DEFAULT 0,
    revenue      numeric     NOT NULL DEFAULT 0,
    unconverted  bigint      NOT NULL DEFAULT 0,
    pending      bigint      NOT NULL DEFAULT 0,
    approved     bigint      NOT NULL DEFAULT 0,
    rejected     bigint      NOT NULL DEFAULT 0,
    chargeback   bigint      NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, hour, step)
);

-- The zone each workspace's day rows are in. A workspace whose report_timezone changes has its day rows made again
-- from the hours, by the next round; until then reports read its hours.
CREATE TABLE funnel_day_zone (
    workspace_id uuid PRIMARY KEY,
    zone         text NOT NULL
);

-- What is rolled up already (a database that ran V16's rounds) goes into both, in UTC days.
INSERT INTO funnel_day_zone SELECT DISTINCT workspace_id, 'Z' FROM funnel_rollup;

INSERT INTO funnel_rollup_day
SELECT workspace_id, (hour AT TIME ZONE 'UTC')::date, utm_source, utm_medium, utm_campaign, utm_content, utm_term,
       campaign_id, adset_id, ad_id, placement, bot, channel, country, step, sum(n), sum(users), sum(revenue),
       sum(unconverted), sum(pending), sum(approved), sum(rejected), sum(chargeback)
  FROM funnel_rollup
 GROUP BY workspace_id, (hour AT TIME ZONE 'UTC')::date, utm_source, utm_medium, utm_campaign, utm_content, utm_term,
          campaign_id, adset_id, ad_id, placement, bot, channel, country, step;

INSERT INTO funnel_rollup_total
SELECT workspace_id, hour, step, sum(n), sum(users), sum(revenue), sum(unconverted), sum(pending), sum(approved),
       sum(rejected), sum(chargeback)
  FROM funnel_rollup
 GROUP BY workspace_id, hour, step;
