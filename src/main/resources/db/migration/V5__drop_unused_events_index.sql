-- events_by_user served no query: the analytics session source reads events_with_session (the same columns, rows
-- with a session only), and lookups by id use the primary key. It cost a random-order index insert per event, and
-- its pages competed for shared buffers with the ones in use (bench/RESULTS.md, the soak).
DROP INDEX events_by_user;
