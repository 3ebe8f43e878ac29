-- What was repaired in a postback's URL before it was read (a second '?', a name mangled by HTML escaping), in the
-- service's words: shown in the postback log. Null for the postbacks logged before, and for those with nothing to
-- repair. Adding a nullable column rewrites no row.
ALTER TABLE postbacks ADD COLUMN repairs jsonb;
