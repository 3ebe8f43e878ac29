-- Each workspace's spend per account-local day and currency, whatever source or object it came from: the funnel
-- report's spend_unmatched starts from it, so a report over a month reads about thirty rows instead of every ad's
-- (300,000 rows for 10,000 ads). Kept by statement triggers on ad_spend, in the same transaction as every write to
-- it (a poll's page, a push's replace, a re-read's sweep), from the rows each statement changed: its transition
-- tables (https://www.postgresql.org/docs/current/sql-createtrigger.html). Each adds its changes in key order, so
-- two writers lock the total rows they share in the same order.
CREATE TABLE ad_spend_days (
    workspace_id uuid          NOT NULL,
    day          date          NOT NULL,
    currency     text          NOT NULL,
    spend        numeric(30,6) NOT NULL,
    PRIMARY KEY (workspace_id, day, currency)
);

INSERT INTO ad_spend_days SELECT workspace_id, day, currency, sum(spend) FROM ad_spend GROUP BY 1, 2, 3;

CREATE FUNCTION ad_spend_days_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ad_spend_days (workspace_id, day, currency, spend)
  SELECT workspace_id, day, currency, sum(spend) FROM added GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (workspace_id, day, currency) DO UPDATE SET spend = ad_spend_days.spend + EXCLUDED.spend;
  RETURN NULL;
END $$;

CREATE FUNCTION ad_spend_days_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ad_spend_days (workspace_id, day, currency, spend)
  SELECT workspace_id, day, currency, sum(spend)
    FROM (SELECT workspace_id, day, currency, spend FROM added
          UNION ALL
          SELECT workspace_id, day, currency, -spend FROM removed) change
   GROUP BY 1, 2, 3 HAVING sum(spend) <> 0 ORDER BY 1, 2, 3
  ON CONFLICT (workspace_id, day, currency) DO UPDATE SET spend = ad_spend_days.spend + EXCLUDED.spend;
  RETURN NULL;
END $$;

CREATE FUNCTION ad_spend_days_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ad_spend_days (workspace_id, day, currency, spend)
  SELECT workspace_id, day, currency, -sum(spend) FROM removed GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
  ON CONFLICT (workspace_id, day, currency) DO UPDATE SET spend = ad_spend_days.spend + EXCLUDED.spend;
  RETURN NULL;
END $$;

CREATE TRIGGER ad_spend_days_inserted AFTER INSERT ON ad_spend REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION ad_spend_days_inserted();
CREATE TRIGGER ad_spend_days_updated AFTER UPDATE ON ad_spend REFERENCING OLD TABLE AS removed NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION ad_spend_days_updated();
CREATE TRIGGER ad_spend_days_deleted AFTER DELETE ON ad_spend REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION ad_spend_days_deleted();
