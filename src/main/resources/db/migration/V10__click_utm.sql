-- The campaign's utm_* parameters of a click, read from its landing URL: {"utm_source": "fb", ...}. Nullable, so
-- adding it rewrites nothing.
ALTER TABLE click_sessions ADD COLUMN utm jsonb;
