-- Revenue by days since the click (docs/reports.md#cohorts): for each click day and age (days from the click's day to
-- the conversion's, both in the workspace's day zone of funnel_day_zone when rolled up), the approved revenue of the
-- conversions of those clicks and the users who paid for the first time at that age. Kept by the funnel rollups'
-- rounds, in the same transaction: a status change moves revenue at the age of the conversion it changes.
CREATE TABLE funnel_cohort (
    workspace_id uuid    NOT NULL,
    click_day    date    NOT NULL,
    -- 0 to 366; 366 holds every later age.
    age          int     NOT NULL,
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
    revenue      numeric NOT NULL DEFAULT 0,
    payers       bigint  NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, click_day, age, utm_source, utm_medium, utm_campaign, utm_content, utm_term,
                 campaign_id, adset_id, ad_id, placement, bot, channel, country)
);

-- The same cohorts by the click's ids alone (its campaign, ad set and ad): what a report grouped and filtered by
-- those reads, so it adds up the rows of the ads rather than of every utm value, placement and country beside them.
CREATE TABLE funnel_cohort_ads (
    workspace_id uuid    NOT NULL,
    click_day    date    NOT NULL,
    age          int     NOT NULL,
    campaign_id  text    NOT NULL,
    adset_id     text    NOT NULL,
    ad_id        text    NOT NULL,
    revenue      numeric NOT NULL DEFAULT 0,
    payers       bigint  NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, click_day, age, campaign_id, adset_id, ad_id)
);

-- Who has paid (a conversion with a value, not rejected when it came): a user counts as a payer once, at the age of
-- that first payment. A Telegram user by id, else the click session.
CREATE TABLE cohort_payers (
    workspace_id uuid NOT NULL,
    payer        text NOT NULL,
    PRIMARY KEY (workspace_id, payer)
);

-- The cohorts' own reach: rounds add the cohorts of what was written before it. It starts at the oldest event or
-- status change kept, so an upgraded database's conversions are counted too (a span per round, as the funnel's
-- rollups began); a new database starts where the funnel's rollups are. An event id's time is its top bits:
-- milliseconds since 2024-01-01 (V4's event_id_floor).
CREATE TABLE cohort_cursor (
    id   int         PRIMARY KEY CHECK (id = 1),
    upto timestamptz NOT NULL
);
INSERT INTO cohort_cursor
SELECT 1, date_trunc('hour', least(
    (SELECT to_timestamp(((min(event_id) >> 22) + 1704067200000) / 1000.0) FROM events),
    (SELECT min(changed_at) FROM conversion_changes),
    (SELECT upto FROM funnel_cursor WHERE id = 1),
    now()), 'UTC');
