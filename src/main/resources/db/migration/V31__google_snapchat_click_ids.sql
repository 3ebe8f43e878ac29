-- Google's and Snapchat's click ids, captured with the click as Meta's and TikTok's are (docs/api.md, sessions):
-- gclid, gbraid, wbraid (Google, one of them per conversion), ScCid and the _scid cookie (Snapchat). Nullable
-- columns without a default: adding them rewrites nothing, and older clicks simply have none.
ALTER TABLE click_sessions ADD COLUMN gclid text;
ALTER TABLE click_sessions ADD COLUMN gbraid text;
ALTER TABLE click_sessions ADD COLUMN wbraid text;
ALTER TABLE click_sessions ADD COLUMN sccid text;
ALTER TABLE click_sessions ADD COLUMN scid text;
