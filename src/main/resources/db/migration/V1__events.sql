-- Every accepted event, stored before the client is answered.
CREATE TABLE events (
    event_id        bigint      PRIMARY KEY,
    workspace_id    uuid        NOT NULL,
    event_name      text        NOT NULL,
    telegram_id     bigint      NOT NULL CHECK (telegram_id > 0),
    session_id      text,
    value           numeric     CHECK (value >= 0),
    currency        char(3)     NOT NULL,
    user_data       jsonb,
    idempotency_key text,
    status          text        NOT NULL,
    received_at     timestamptz NOT NULL
);

-- Session resolution and reporting look events up per user of a workspace, newest first.
CREATE INDEX events_by_user ON events (workspace_id, telegram_id, received_at DESC);

-- Idempotency-Key claims. The primary key makes concurrent duplicates store one event; rows older than 24 h
-- no longer count and are purged. The key row is written before its event in the same transaction.
CREATE TABLE idempotency_keys (
    workspace_id    uuid        NOT NULL,
    idempotency_key text        NOT NULL,
    request_hash    text        NOT NULL,
    event_id        bigint      NOT NULL REFERENCES events (event_id) DEFERRABLE INITIALLY DEFERRED,
    created_at      timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, idempotency_key)
);

CREATE INDEX idempotency_keys_by_age ON idempotency_keys (created_at);

-- Each process takes the next value at start as its event-id node number (modulo 1024).
CREATE SEQUENCE node_leases;
