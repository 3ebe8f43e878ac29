-- The clicks of the funnel's day rows by day: the funnel report's cost reads them (per object and day, to spread
-- each day's spend over them) and nothing else of the day's steps, so a month's clicks are found without reading the
-- other steps' rows, about seven in eight. Partial, on columns the rollups never change, so their updates of a day
-- row stay heap-only where they were (https://www.postgresql.org/docs/current/storage-hot.html).
CREATE INDEX funnel_rollup_day_clicks ON funnel_rollup_day (workspace_id, day) WHERE step = '$click';
