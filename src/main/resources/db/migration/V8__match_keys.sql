-- The match keys a delivered event carried (bit i: the i-th key of its network's list in MatchKeys), for the
-- match-key coverage of each integration. NULL for deliveries not (yet) delivered and for those delivered before.
-- A nullable column without a default: adding it rewrites nothing.
ALTER TABLE deliveries ADD COLUMN match_keys int;
