-- What was delivered to Meta and TikTok, per hour of the events (the event_time they were sent with), integration,
-- click ids and mapped event: our side of the reconciliation against the networks' own counts
-- (docs/reports.md#reconcile). Counted again from the deliveries over the last hours at each recount, off the
-- delivery path, so a delivery that succeeds on a later attempt is counted once it does.
CREATE TABLE delivered_counts (
    workspace_id   uuid        NOT NULL,
    hour           timestamptz NOT NULL,
    network        text        NOT NULL,
    integration_id text        NOT NULL,
    campaign_id    text        NOT NULL,
    adset_id       text        NOT NULL,
    ad_id          text        NOT NULL,
    mapped_event   text        NOT NULL,
    n              bigint      NOT NULL,
    PRIMARY KEY (workspace_id, hour, network, integration_id, campaign_id, adset_id, ad_id, mapped_event)
);
