-- The audit log (docs/api.md, "Audit log"): each action taken through the API (redeliver, test, pause, resume,
-- poll now) with the name of the key that took it, and each config applied. A new table: nothing existing changes.
CREATE TABLE audit_log (
    id           bigserial   PRIMARY KEY,
    workspace_id uuid        NOT NULL,
    at           timestamptz NOT NULL DEFAULT now(),
    -- The key's name from the config (never the key), or "config file" for a reload.
    key_name     text        NOT NULL,
    action       text        NOT NULL,
    -- What it acted on: an event id, an integration, a cost source, the config's digest.
    target       text        NOT NULL,
    -- The answer given: "200 ok", "404 not_found", a credential test's verdict.
    outcome      text        NOT NULL
);

-- A workspace's log, newest first, a page at a time.
CREATE INDEX audit_log_by_workspace ON audit_log (workspace_id, id DESC);
