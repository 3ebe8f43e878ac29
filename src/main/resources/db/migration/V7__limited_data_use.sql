-- The event's own Limited Data Use choice (the consent state of the user), sent on to Meta as
-- data_processing_options and to TikTok as limited_data_use; NULL leaves it to each integration's default.
-- A nullable column without a default: adding it rewrites nothing.
ALTER TABLE events ADD COLUMN limited_data_use boolean;
