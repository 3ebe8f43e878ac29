-- events and deliveries become partitioned by day, so retention drops whole partitions instead of deleting rows
-- from the hot tables (https://www.postgresql.org/docs/current/ddl-partitioning.html). The partition key is the
-- event id: it starts with the milliseconds since 2024-01-01 (EventIds), so a day is a range of ids, the status
-- endpoint's lookup by id reads one partition, and a delivery lives in the partition of its event's day.
--
-- The tables as they were become the partitions of the day this migration runs, from MINVALUE up to the next day,
-- named like every later one (events_YYYYMMDD, deliveries_YYYYMMDD): the service creates the partitions after the
-- newest one by name, and drops a day's pair once the whole day is older than database.retention_days.
--
-- Foreign keys into events go: a referenced partition cannot be dropped whole. The rows they guarded are written in
-- the same statement as their event (deliveries) or the same transaction (idempotency keys), and leave with it.

ALTER TABLE deliveries DROP CONSTRAINT deliveries_event_id_fkey;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_event_id_fkey;

-- The first id of a UTC instant: EventIds lays out milliseconds since 2024-01-01 above 22 bits of node and sequence.
CREATE FUNCTION event_id_floor(at timestamptz) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN ((extract(epoch FROM at) * 1000)::bigint - 1704067200000) << 22;

DO $$
DECLARE
    today    date   := (now() AT TIME ZONE 'UTC')::date;
    suffix   text   := to_char(today, 'YYYYMMDD');
    upper_id bigint := event_id_floor((today + 1)::timestamp AT TIME ZONE 'UTC');
BEGIN
    EXECUTE format('ALTER TABLE events RENAME TO %I', 'events_' || suffix);
    EXECUTE format('ALTER INDEX events_pkey RENAME TO %I', 'events_' || suffix || '_pkey');
    EXECUTE format('ALTER INDEX events_by_user RENAME TO %I', 'events_' || suffix || '_by_user');
    EXECUTE format('ALTER INDEX events_with_session RENAME TO %I', 'events_' || suffix || '_with_session');
    EXECUTE format('CREATE TABLE events (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)'
                   ' PARTITION BY RANGE (event_id)', 'events_' || suffix);
    ALTER TABLE events ADD PRIMARY KEY (event_id);
    CREATE INDEX events_by_user ON events (workspace_id, telegram_id, received_at DESC);
    CREATE INDEX events_with_session ON events (workspace_id, telegram_id, received_at DESC)
        WHERE session_id IS NOT NULL;
    EXECUTE format('ALTER TABLE events ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%s)',
                   'events_' || suffix, upper_id);

    EXECUTE format('ALTER TABLE deliveries RENAME TO %I', 'deliveries_' || suffix);
    -- Its key becomes (event_id, delivery_id), made at attach: a partition takes its parent's primary key.
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT deliveries_pkey', 'deliveries_' || suffix);
    EXECUTE format('ALTER INDEX deliveries_event_id_integration_id_key RENAME TO %I',
                   'deliveries_' || suffix || '_event_integration');
    EXECUTE format('ALTER INDEX deliveries_due RENAME TO %I', 'deliveries_' || suffix || '_due');
    EXECUTE format('CREATE TABLE deliveries (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)'
                   ' PARTITION BY RANGE (event_id)', 'deliveries_' || suffix);
    -- A unique key of a partitioned table must hold its partition key: deliveries are addressed by both ids.
    ALTER TABLE deliveries ADD PRIMARY KEY (event_id, delivery_id);
    ALTER TABLE deliveries ADD UNIQUE (event_id, integration_id);
    CREATE INDEX deliveries_due ON deliveries (network, next_attempt_at) WHERE status IN ('pending', 'retrying');
    -- The id sequence must outlive the first partition, which owned it.
    ALTER SEQUENCE deliveries_delivery_id_seq OWNED BY deliveries.delivery_id;
    EXECUTE format('ALTER TABLE deliveries ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%s)',
                   'deliveries_' || suffix, upper_id);
END $$;
