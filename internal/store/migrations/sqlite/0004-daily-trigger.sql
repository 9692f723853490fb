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

ALTER TABLE daily ADD COLUMN kept BIGINT NOT NULL DEFAULT 0;

DELETE FROM daily;

INSERT INTO daily (day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled, n) SELECT day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0), COUNT(*) FROM events GROUP BY day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0);

CREATE TRIGGER events_daily AFTER INSERT ON events BEGIN
	INSERT INTO daily (day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled, n, kept) VALUES (NEW.day, NEW.name, COALESCE(NEW.path, ''), COALESCE(NEW.ref, ''), COALESCE(NEW.utm_source, ''), COALESCE(NEW.utm_medium, ''), COALESCE(NEW.utm_campaign, ''), COALESCE(NEW.outreach, ''), COALESCE(NEW.checkout, ''), COALESCE(NEW.scrolled, 0), 1, 1)
	ON CONFLICT (day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled) DO UPDATE SET n = n + 1, kept = kept + 1;
END;

CREATE TRIGGER daily_counted_once BEFORE UPDATE ON daily WHEN NEW.kept = OLD.kept BEGIN
	SELECT RAISE(IGNORE);
END;
