-- The session tables are purged by age (SessionStore.purge): these let each purge batch find its oldest rows
-- without reading the whole table.
CREATE INDEX click_sessions_created ON click_sessions (created_at);
CREATE INDEX invite_sessions_created ON invite_sessions (created_at);
CREATE INDEX last_sessions_updated ON last_sessions (updated_at);
