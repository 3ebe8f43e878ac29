-- Ad spend (docs/costs.md): what each campaign, ad set or ad cost per day of its account's zone, imported from the
-- networks' reporting APIs or pushed by the buyer's tools, for the report's cost, ROAS and profit.

-- A polled cost source's state, one row per configured source. A poll holds the row's lease, so across a cluster one
-- node at a time reads a source.
CREATE TABLE cost_sources (
    workspace_id     uuid        NOT NULL,
    source_id        text        NOT NULL,
    -- meta or tiktok
    kind             text        NOT NULL,
    -- ok, failing (tried again later), paused (the token was refused: a new token resumes)
    state            text        NOT NULL DEFAULT 'ok',
    -- SHA-256 (hex) of the token that was refused.
    refused_token    text,
    -- The account's zone and currency as the platform reported them (TikTok's: the configured zone).
    account_zone     text,
    account_currency text,
    -- Incremented by each poll; the rows a poll wrote carry it, so a re-read drops the rows it no longer has.
    poll_seq         bigint      NOT NULL DEFAULT 0,
    -- Whether a poll has read the first, long range.
    first_read       boolean     NOT NULL DEFAULT false,
    next_poll_at     timestamptz NOT NULL DEFAULT now(),
    lease_until      timestamptz,
    last_poll_at     timestamptz,
    last_success_at  timestamptz,
    -- The platform's own words on the last failure, token never included.
    last_error       text,
    -- When the polls began to fail (or the source was paused); null while they succeed. The alerts read it.
    failing_since    timestamptz,
    PRIMARY KEY (workspace_id, source_id)
);

-- One row per (source, level, object, account-local day): a re-read or a push over the day overwrites it, never
-- adds to it.
CREATE TABLE ad_spend (
    workspace_id  uuid          NOT NULL,
    source_id     text          NOT NULL,
    -- campaign, adset or ad: which of a click's ids object_id is
    level         text          NOT NULL,
    object_id     text          NOT NULL,
    day           date          NOT NULL,
    -- The account's zone, in which day is dated (an IANA id or an offset).
    zone          text          NOT NULL,
    currency      text          NOT NULL,
    spend         numeric(24,6) NOT NULL CHECK (spend >= 0),
    campaign_id   text,
    campaign_name text,
    adset_id      text,
    adset_name    text,
    ad_name       text,
    impressions   bigint,
    clicks        bigint,
    -- The platform's own conversion counts by action type.
    actions       jsonb,
    -- The poll that wrote it (0 for a push).
    poll_seq      bigint        NOT NULL DEFAULT 0,
    updated_at    timestamptz   NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, source_id, level, object_id, day)
);
-- The report reads a workspace's days (their total), and the days of the objects its clicks name.
CREATE INDEX ad_spend_by_day ON ad_spend (workspace_id, day);
CREATE INDEX ad_spend_by_object ON ad_spend (workspace_id, level, object_id, day);

-- The zones a workspace's spend is dated in: the report works out the clicks' days in each.
CREATE TABLE ad_spend_zones (
    workspace_id uuid NOT NULL,
    zone         text NOT NULL,
    PRIMARY KEY (workspace_id, zone)
);
