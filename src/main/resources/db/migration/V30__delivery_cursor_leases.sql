-- A forwarder holds a cursor while the events it read are sent, and writes each delivery's row once, with its
-- outcome; the cursor moves past them only then (docs/how-it-works.md#delivery). The rows made by V29's takes keep
-- their lease and come due on the claim path as before.

-- Who holds the cursor: a take leases it until lease_until and counts epoch up; only the holder of that epoch moves
-- it, so a node that lost its lease (it stalled past it, and another took the cursor) cannot move it back or forth.
ALTER TABLE delivery_cursors ADD COLUMN lease_until timestamptz;
ALTER TABLE delivery_cursors ADD COLUMN epoch bigint NOT NULL DEFAULT 0;
-- Where the holder moves it when its events have their outcomes: the last event it read.
ALTER TABLE delivery_cursors ADD COLUMN lease_tx xid8;
ALTER TABLE delivery_cursors ADD COLUMN lease_event_id bigint;
