-- Alerts to a workspace's Telegram chats and webhooks (docs/alerts.md).

-- One row: the rounds' cursor. A round holds its lock (FOR UPDATE SKIP LOCKED), so across a cluster one node at a
-- time evaluates the conditions, and at most one round runs per check interval.
CREATE TABLE alert_rounds (
    id      int         PRIMARY KEY CHECK (id = 1),
    last_at timestamptz NOT NULL
);
INSERT INTO alert_rounds VALUES (1, now());

-- What each condition of each workspace is, per subject (an integration, a postback source, a channel; '' for the
-- workspace), and what its targets were last told: kept while it fires, or while messages are grouped.
CREATE TABLE alert_states (
    workspace_id   uuid        NOT NULL,
    condition      text        NOT NULL,
    subject        text        NOT NULL,
    -- When the condition was first seen holding, null when it does not hold.
    active_since   timestamptz,
    firing         boolean     NOT NULL,
    -- 'firing' or 'resolved': what the last message said; null before any.
    told           text,
    last_sent_at   timestamptz,
    -- Occurrences since the last message, for the next summary, with the latest words about them.
    pending        bigint      NOT NULL DEFAULT 0,
    detail         text,
    PRIMARY KEY (workspace_id, condition, subject)
);

-- One row per message and target, sent by whichever node claims it (FOR UPDATE SKIP LOCKED, then a lease), so a
-- message goes out once across the cluster; a failing target is retried on its own and never holds another.
CREATE TABLE alert_outbox (
    alert_id        bigserial   PRIMARY KEY,
    workspace_id    uuid        NOT NULL,
    -- The target as configured ("telegram:<chat>" or "webhook:<sha256 of its URL>"): a message whose target is no
    -- longer configured is dropped.
    target          text        NOT NULL,
    message         jsonb       NOT NULL,
    -- pending, retrying, sent, dropped
    status          text        NOT NULL DEFAULT 'pending',
    attempts        int         NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    done_at         timestamptz
);
CREATE INDEX alert_outbox_due ON alert_outbox (next_attempt_at) WHERE status IN ('pending', 'retrying');
CREATE INDEX alert_outbox_done ON alert_outbox (done_at) WHERE done_at IS NOT NULL;

-- Deliveries that ended failed or expired, by when: the "deliveries failed" alert reads a recent window of them.
-- Partial, so the rows of the hot path (pending, delivered) never enter it.
CREATE INDEX deliveries_ended_badly ON deliveries (updated_at) WHERE status IN ('failed', 'expired');
