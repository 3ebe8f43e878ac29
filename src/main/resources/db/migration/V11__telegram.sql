-- Per-visitor invite links of a workspace's channel (Bot API createChatInviteLink, creates_join_request): made
-- ahead into a small pool (session_id null), each handed to one captured session, so a join request through it names
-- the click it came from. A link's name holds at most 32 characters, too few for every session id: the binding is
-- kept here instead.
CREATE TABLE telegram_invite_links (
    workspace_id uuid        NOT NULL,
    -- The channel it opens, as configured: a changed channel_id leaves the old channel's unused links behind.
    chat_id      text        NOT NULL,
    invite_link  text        NOT NULL,
    session_id   text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    bound_at     timestamptz,
    -- The link's expire_date (the workspace's attribution window after it was made): purged after it.
    expires_at   timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, invite_link)
);

CREATE INDEX telegram_invite_links_free ON telegram_invite_links (workspace_id, chat_id, created_at)
    WHERE session_id IS NULL;
CREATE UNIQUE INDEX telegram_invite_links_by_session ON telegram_invite_links (workspace_id, session_id)
    WHERE session_id IS NOT NULL;

-- The Telegram side's outbox: what an update leaves to do (pass it through to the bot's own backend, approve a join
-- request), written before the update is answered and done with retries, like the deliveries. One row per update
-- and kind: Telegram sending an update again adds nothing.
CREATE TABLE telegram_outbox (
    workspace_id    uuid        NOT NULL,
    update_id       bigint      NOT NULL,
    -- pass_through, approve
    kind            text        NOT NULL,
    -- A pass-through's update as Telegram sent it, byte for byte (text, not jsonb, which would reorder its keys and
    -- respell its numbers); an approval's {"chat_id", "user_id"}.
    body            text        NOT NULL,
    -- pending, retrying, delivered, failed, expired
    status          text        NOT NULL DEFAULT 'pending',
    attempts        int         NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_error      text,
    done_at         timestamptz,
    received_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, update_id, kind)
);

CREATE INDEX telegram_outbox_due ON telegram_outbox (next_attempt_at) WHERE status IN ('pending', 'retrying');
CREATE INDEX telegram_outbox_done ON telegram_outbox (done_at) WHERE done_at IS NOT NULL;
CREATE INDEX telegram_invite_links_expiry ON telegram_invite_links (expires_at);
