-- The outbox: one row per event and enabled integration, written in the transaction that stores the event.
CREATE TABLE deliveries (
    delivery_id     bigserial   PRIMARY KEY,
    event_id        bigint      NOT NULL REFERENCES events (event_id),
    workspace_id    uuid        NOT NULL,
    integration_id  text        NOT NULL,
    network         text        NOT NULL,
    mapped_event    text        NOT NULL,
    -- pending, retrying, delivered, failed, expired, dry_run
    status          text        NOT NULL,
    attempts        int         NOT NULL DEFAULT 0,
    -- When it is due; a claim moves it forward by a lease, so work of a crashed node comes back by itself.
    next_attempt_at timestamptz NOT NULL,
    last_error      text,
    delivered_at    timestamptz,
    payload         jsonb,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (event_id, integration_id)
);

CREATE INDEX deliveries_due ON deliveries (network, next_attempt_at) WHERE status IN ('pending', 'retrying');
