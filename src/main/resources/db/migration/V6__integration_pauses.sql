-- An integration whose token or permissions the network refused: its deliveries are held (status 'paused'), not
-- failed, until the config gives it another token or a probe with a held delivery is accepted.
CREATE TABLE integration_pauses (
    network         text        NOT NULL,
    workspace_id    uuid        NOT NULL,
    integration_id  text        NOT NULL,
    -- The network's own words, token redacted.
    reason          text        NOT NULL,
    -- SHA-256 of the token that was refused: a config with another token resumes the integration.
    token_sha256    text        NOT NULL,
    paused_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (network, workspace_id, integration_id)
);

-- The held deliveries of one integration, for the resume and the probe; empty in normal operation.
CREATE INDEX deliveries_paused ON deliveries (workspace_id, integration_id) WHERE status = 'paused';
