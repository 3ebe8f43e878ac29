-- How many claims of a delivery in a row ended without an outcome: every claim adds one, every outcome (sent,
-- retried, failed, held, deferred, re-queued) sets it back to 0. A row whose processing fails every time (it makes
-- the forwarder fail, or its node crash) would otherwise be claimed again after each lease, forever; past
-- DeliveryStore.MAX_CLAIMS it is failed instead, with a last_error that says so (poison-row quarantine).
-- Adding a column with a constant default rewrites no partition
-- (https://www.postgresql.org/docs/current/sql-altertable.html, notes).
ALTER TABLE deliveries ADD COLUMN claims int NOT NULL DEFAULT 0;
