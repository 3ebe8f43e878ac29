-- The forwarders find new events past a cursor per integration, in the order their transactions committed, and
-- write each event's outbox row when they reach it, already claimed: the ingest transaction no longer writes
-- deliveries, and the claim no longer rewrites them (docs/how-it-works.md#delivery).

-- The id of the transaction that stored the event
-- (https://www.postgresql.org/docs/current/functions-info.html#FUNCTIONS-PG-SNAPSHOT): a reader takes only the
-- events of transactions that have all ended, so none that commits later is passed over. Added without a default
-- first, so the stored rows stay NULL without a rewrite: they have their outbox rows already.
ALTER TABLE events ADD COLUMN tx xid8;
ALTER TABLE events ALTER COLUMN tx SET DEFAULT pg_current_xact_id();
-- The integrations the event is for, with the network and its name there, as decided when it was stored:
-- {"<integration>": ["<network>", "<name>"]}.
ALTER TABLE events ADD COLUMN deliver_to jsonb;
CREATE INDEX events_by_commit ON events (workspace_id, tx, event_id) WHERE tx IS NOT NULL;

CREATE TABLE delivery_cursors (
    network        text        NOT NULL,
    workspace_id   uuid        NOT NULL,
    integration_id text        NOT NULL,
    -- The last event read: the next read starts after it, in (tx, event_id) order.
    tx             xid8        NOT NULL DEFAULT '0',
    event_id       bigint      NOT NULL DEFAULT 0,
    -- No event the next read can meet has a lower id (ids are made when an event is accepted, and it is stored
    -- within seconds): the partitions below it are not read.
    floor_id       bigint      NOT NULL,
    updated_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (network, workspace_id, integration_id)
);
