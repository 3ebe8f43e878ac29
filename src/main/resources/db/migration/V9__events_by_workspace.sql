-- GET /api/v1/events lists a workspace's events newest first: read down this index within the range's day
-- partitions, never a scan of other workspaces' rows. Each workspace's new ids are its largest, so inserts land at
-- the right edge of its part of the index (unlike the dropped events_by_user, keyed by telegram id).
CREATE INDEX events_by_workspace ON events (workspace_id, event_id);
