-- Click sessions registered by the prelanding page when a user arrives from an ad.
CREATE TABLE click_sessions (
    workspace_id uuid        NOT NULL,
    session_id   text        NOT NULL,
    fbclid       text,
    fbc          text,
    fbp          text,
    ttclid       text,
    ttp          text,
    client_ip    text,
    user_agent   text,
    landing_url  text,
    clicked_at   timestamptz NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, session_id)
);

-- Source 1: a Telegram user joined through a session's invite link.
CREATE TABLE invite_sessions (
    workspace_id uuid        NOT NULL,
    telegram_id  bigint      NOT NULL CHECK (telegram_id > 0),
    session_id   text        NOT NULL,
    invite_link  text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, telegram_id, session_id)
);
CREATE INDEX invite_sessions_newest ON invite_sessions (workspace_id, telegram_id, created_at DESC);

-- Source 2 reads events: the newest event of a user that carries a session.
CREATE INDEX events_with_session ON events (workspace_id, telegram_id, received_at DESC)
    WHERE session_id IS NOT NULL;

-- Source 3: the last session any event of a user ended with, kept with the event write.
CREATE TABLE last_sessions (
    workspace_id uuid        NOT NULL,
    telegram_id  bigint      NOT NULL,
    session_id   text        NOT NULL,
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, telegram_id)
);

-- How each event's session was found: supplied, invite, analytics, last_known or none.
ALTER TABLE events ADD COLUMN session_source text;
UPDATE events SET session_source = CASE WHEN session_id IS NULL THEN 'none' ELSE 'supplied' END;
ALTER TABLE events ALTER COLUMN session_source SET NOT NULL;

INSERT INTO last_sessions (workspace_id, telegram_id, session_id, updated_at)
SELECT DISTINCT ON (workspace_id, telegram_id) workspace_id, telegram_id, session_id, received_at
  FROM events WHERE session_id IS NOT NULL
 ORDER BY workspace_id, telegram_id, received_at DESC;
