-- The last known session (the third session source) is now read from the events themselves: the newest event of the
-- user that carried a session, older than the attribution window, while events are kept (database.retention_days).
-- Keeping a copy of it in last_sessions cost an upsert with every event (about a third of PostgreSQL's work per
-- stored event in the benchmark) for what the events_with_session index already answers.
DROP TABLE last_sessions;
