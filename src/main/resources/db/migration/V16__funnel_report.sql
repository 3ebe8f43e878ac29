-- The funnel report: what a click carried beyond its UTM, how each invite session was made, the rates that turn
-- revenue into one currency, and rollups kept per hour so a report never reads raw events.

-- The ad ids the landing URL's macros filled in ({"campaign_id", "adset_id", "ad_id", "placement"}), the bot and
-- channel the visitor was sent to, and their country when the page or a CDN told it. All nullable: rewrites nothing.
ALTER TABLE click_sessions ADD COLUMN ad jsonb;
ALTER TABLE click_sessions ADD COLUMN bot text;
ALTER TABLE click_sessions ADD COLUMN channel text;
ALTER TABLE click_sessions ADD COLUMN country text;

-- How an invite session was made: 'start' (/start in a bot), 'join_request', 'join' (a member joined through an
-- attributed link), or 'api' (POST /api/v1/sessions/invites, and every row stored before this migration). A user's
-- request and their join through the same session are two rows, so the funnel counts both steps.
ALTER TABLE invite_sessions ADD COLUMN via text NOT NULL DEFAULT 'api';
ALTER TABLE invite_sessions ADD COLUMN bot text;
ALTER TABLE invite_sessions ADD COLUMN channel text;
ALTER TABLE invite_sessions DROP CONSTRAINT invite_sessions_pkey;
ALTER TABLE invite_sessions ADD PRIMARY KEY (workspace_id, telegram_id, session_id, via);

-- Reference rates, units of a currency per euro (the ECB's form, https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html),
-- imported from the operator's rates file.
CREATE TABLE fx_rates (
    currency char(3) NOT NULL,
    day      date    NOT NULL,
    per_eur  numeric NOT NULL CHECK (per_eur > 0),
    PRIMARY KEY (currency, day)
);

-- A currency's rate on a day: the newest of the 7 days up to it (the ECB publishes none on weekends and holidays);
-- null when the file has none that recent. The euro is 1.
CREATE FUNCTION fx_per_eur(cur text, on_day date) RETURNS numeric LANGUAGE sql STABLE PARALLEL SAFE
    RETURN CASE WHEN cur = 'EUR' THEN 1 ELSE
        (SELECT per_eur FROM fx_rates WHERE currency = cur AND day <= on_day AND day > on_day - 7
          ORDER BY day DESC LIMIT 1) END;

-- A conversion's value in its workspace's report currency, converted once with the rate of the conversion's day
-- and kept: a rate corrected later changes no past report. seq 0 is the event as received, n its change n.
-- report_value is null when no rate was known.
CREATE TABLE conversion_values (
    event_id        bigint  NOT NULL,
    seq             int     NOT NULL,
    report_value    numeric,
    report_currency char(3) NOT NULL,
    PRIMARY KEY (event_id, seq)
);

-- Each (workspace, event name, user) once: the event that added its row counts the user as unique.
CREATE TABLE funnel_firsts (
    workspace_id uuid   NOT NULL,
    event_name   text   NOT NULL,
    telegram_id  bigint NOT NULL,
    PRIMARY KEY (workspace_id, event_name, telegram_id)
);

-- The counts of each hour (UTC) by every dimension ('' = not known) and step: '$click', '$start',
-- '$join_request', '$join', '$unsubscribe', or an event name. Status counts and revenue are of the conversions as
-- they stand now: a status change moves them.
CREATE TABLE funnel_rollup (
    workspace_id uuid        NOT NULL,
    hour         timestamptz NOT NULL,
    utm_source   text        NOT NULL,
    utm_medium   text        NOT NULL,
    utm_campaign text        NOT NULL,
    utm_content  text        NOT NULL,
    utm_term     text        NOT NULL,
    campaign_id  text        NOT NULL,
    adset_id     text        NOT NULL,
    ad_id        text        NOT NULL,
    placement    text        NOT NULL,
    bot          text        NOT NULL,
    channel      text        NOT NULL,
    country      text        NOT NULL,
    step         text        NOT NULL,
    n            bigint      NOT NULL DEFAULT 0,
    users        bigint      NOT NULL DEFAULT 0,
    revenue      numeric     NOT NULL DEFAULT 0,
    unconverted  bigint      NOT NULL DEFAULT 0,
    pending      bigint      NOT NULL DEFAULT 0,
    approved     bigint      NOT NULL DEFAULT 0,
    rejected     bigint      NOT NULL DEFAULT 0,
    chargeback   bigint      NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, hour, step, utm_source, utm_medium, utm_campaign, utm_content, utm_term, campaign_id,
                 adset_id, ad_id, placement, bot, channel, country)
);

-- Everything written before this instant is in the rollups. One row; the node that holds its lock rolls up.
-- It starts at the oldest row kept, so an upgraded database's rows are counted too (an hour per round); a new one
-- starts now. An event id's time is its top bits: milliseconds since 2024-01-01 (V4's event_id_floor).
CREATE TABLE funnel_cursor (
    id   int         PRIMARY KEY CHECK (id = 1),
    upto timestamptz NOT NULL
);
INSERT INTO funnel_cursor
SELECT 1, date_trunc('hour', least(
    (SELECT min(created_at) FROM click_sessions),
    (SELECT min(created_at) FROM invite_sessions),
    (SELECT to_timestamp(((min(event_id) >> 22) + 1704067200000) / 1000.0) FROM events),
    (SELECT min(changed_at) FROM conversion_changes),
    now()), 'UTC');

CREATE INDEX conversion_changes_changed ON conversion_changes (changed_at);
