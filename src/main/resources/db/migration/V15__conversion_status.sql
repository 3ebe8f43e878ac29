-- Conversion statuses and partner postbacks. A conversion is an event whose status can move (pending -> approved ->
-- rejected or chargeback) and whose value can change, reported again by its sender under the same transaction id.
-- The event row keeps what was first received; each later change is a row of conversion_changes, and each delivery
-- names the change it carries (0: the event as first received).

-- The status it was received with; null (events stored before statuses existed) reads as approved.
ALTER TABLE events ADD COLUMN conversion_status text;
-- The sender's own id of the conversion, when it gave one.
ALTER TABLE events ADD COLUMN transaction_id text;
-- A partner's conversion can match a click whose Telegram user is not known (no /start or join through it yet).
ALTER TABLE events ALTER COLUMN telegram_id DROP NOT NULL;

-- Which event a sender's transaction id made: source is 'api' for the JSON route, 'postback:<source id>' for a
-- partner, so one partner's ids never collide with another's. A postback without a transaction id is keyed by a
-- digest of its click id, event and value (expires_at: it identifies the conversion only for a while).
CREATE TABLE conversions (
    workspace_id   uuid        NOT NULL,
    source         text        NOT NULL,
    transaction_id text        NOT NULL,
    event_id       bigint      NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    expires_at     timestamptz,
    PRIMARY KEY (workspace_id, source, transaction_id)
);
CREATE INDEX conversions_created ON conversions (created_at);

-- Every change of a conversion after it was first stored, in order (seq from 1).
CREATE TABLE conversion_changes (
    event_id        bigint      NOT NULL,
    seq             int         NOT NULL,
    status          text        NOT NULL,
    previous_status text        NOT NULL,
    value           numeric     CHECK (value >= 0),
    currency        char(3)     NOT NULL,
    -- Why, when the service changed it itself (left_channel).
    reason          text,
    -- Who reported it: api, postback:<source id>, telegram.
    origin          text        NOT NULL,
    changed_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (event_id, seq)
);

-- The change a delivery carries: a webhook gets one delivery per change, an ad network one per conversion.
ALTER TABLE deliveries ADD COLUMN change_seq int NOT NULL DEFAULT 0;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_event_integration_change UNIQUE (event_id, integration_id, change_seq);
ALTER TABLE deliveries DROP CONSTRAINT deliveries_event_id_integration_id_key;

-- Every postback a partner fired with a valid token: what it carried (secrets and user data masked), what became of
-- it, the conversion it made, and the answer it got (a re-fired one gets the first's).
CREATE TABLE postbacks (
    postback_id       bigserial   PRIMARY KEY,
    workspace_id      uuid        NOT NULL,
    source_id         text        NOT NULL,
    received_at       timestamptz NOT NULL DEFAULT now(),
    method            text        NOT NULL,
    params            jsonb       NOT NULL,
    -- matched, unmatched, duplicate, macro_not_expanded, refused
    outcome           text        NOT NULL,
    detail            text,
    dedupe_key        text,
    click_id          text,
    telegram_id       bigint,
    event_name        text,
    conversion_status text,
    value             numeric,
    currency          char(3),
    transaction_id    text,
    event_id          bigint,
    answer            jsonb,
    matched_at        timestamptz
);
-- A re-fired postback finds the first: among those that were taken (matched, or kept unmatched).
CREATE UNIQUE INDEX postbacks_dedupe ON postbacks (workspace_id, source_id, dedupe_key)
    WHERE outcome IN ('matched', 'unmatched');
CREATE INDEX postbacks_unmatched ON postbacks (workspace_id, click_id) WHERE outcome = 'unmatched';
CREATE INDEX postbacks_by_workspace ON postbacks (workspace_id, postback_id);
CREATE INDEX postbacks_received ON postbacks (received_at);

-- A partner's click id is a session: its Telegram user is read from the invite sessions by session.
CREATE INDEX invite_sessions_by_session ON invite_sessions (workspace_id, session_id, created_at DESC);
