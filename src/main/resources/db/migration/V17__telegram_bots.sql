-- Several bots per workspace: Telegram counts update ids per bot, so two bots' updates may share an id. An outbox
-- job is the bot's too: '' for the workspace's default bot (its first, as every job before this was), else the bot's
-- name.
ALTER TABLE telegram_outbox ADD COLUMN bot text NOT NULL DEFAULT '';
ALTER TABLE telegram_outbox DROP CONSTRAINT telegram_outbox_pkey;
ALTER TABLE telegram_outbox ADD PRIMARY KEY (workspace_id, bot, update_id, kind);
