-- Migration 4: daily filled again, by a trigger on events, for the
-- 77aa49a release's report, which reads it and knows no version. Refilled
-- from the events, then kept as that release keys it.
--
-- That release still adds one to daily itself, after its insert into
-- events, which the trigger has counted already. kept is how often the
-- trigger added to a row: an update of daily that leaves it as it was is
-- that release's second count, and is dropped. Its first write to a row
-- is always that update, as the trigger made the row in the same
-- transaction.

-- Writers wait while daily is refilled, as in migration 3.
LOCK TABLE events IN SHARE ROW EXCLUSIVE MODE;

ALTER TABLE daily ADD COLUMN kept BIGINT NOT NULL DEFAULT 0;

DELETE FROM daily;

INSERT INTO daily (day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled, n) SELECT day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0), COUNT(*) FROM events GROUP BY day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0);

CREATE FUNCTION events_daily() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
	INSERT INTO daily (day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled, n, kept)
	SELECT day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0), COUNT(*), 1 FROM new_events GROUP BY day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0) ORDER BY day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0)
	ON CONFLICT (day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled) DO UPDATE SET n = daily.n + excluded.n, kept = daily.kept + 1;
	RETURN NULL;
END $$;

REVOKE ALL ON FUNCTION events_daily() FROM PUBLIC;

CREATE TRIGGER events_daily AFTER INSERT ON events REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION events_daily();

-- Runs as the caller, the older writer's role: it only drops the row.
CREATE FUNCTION daily_counted_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RETURN NULL;
END $$;

CREATE TRIGGER daily_counted_once BEFORE UPDATE ON daily FOR EACH ROW WHEN (NEW.kept = OLD.kept) EXECUTE FUNCTION daily_counted_once();
