-- Migration 3: the report's counts, kept by the database. A trigger on
-- events counts every row whoever inserts it (this release, an older
-- one, psql), so that nothing is counted twice or never. The roll-up is
-- filled from every event already stored, which also repairs the gap
-- daily has where an older writer ran against version 2.
--
-- The roll-up and the import keys are WITHOUT ROWID tables: their primary
-- key is the table, not a second copy of it beside a rowid, which halves
-- what each insert writes.
--
-- journal_taken is how far the report has taken each preview journal:
-- the byte offset and the key of the line that ends there, so that a
-- report reads only new lines, and a journal replaced or cut is read
-- again from the start.

CREATE TABLE rollup (
	day TEXT NOT NULL,
	name TEXT NOT NULL,
	path TEXT NOT NULL,
	ref TEXT NOT NULL,
	utm_source TEXT NOT NULL,
	utm_medium TEXT NOT NULL,
	utm_campaign TEXT NOT NULL,
	utm_term TEXT NOT NULL,
	utm_content TEXT NOT NULL,
	outreach TEXT NOT NULL,
	checkout TEXT NOT NULL,
	scrolled INTEGER NOT NULL,
	visible_s INTEGER NOT NULL,
	n BIGINT NOT NULL,
	PRIMARY KEY (day, name, path, ref, utm_source, utm_medium, utm_campaign, utm_term, utm_content, outreach, checkout, scrolled, visible_s)
) WITHOUT ROWID;

CREATE TABLE imported_keys (line TEXT PRIMARY KEY) WITHOUT ROWID;

INSERT INTO imported_keys SELECT line FROM imported;

DROP TABLE imported;

ALTER TABLE imported_keys RENAME TO imported;

CREATE TRIGGER events_rollup AFTER INSERT ON events BEGIN
	INSERT INTO rollup (day, name, path, ref, utm_source, utm_medium, utm_campaign, utm_term, utm_content, outreach, checkout, scrolled, visible_s, n) VALUES (NEW.day, NEW.name, COALESCE(NEW.path, ''), COALESCE(NEW.ref, ''), COALESCE(NEW.utm_source, ''), COALESCE(NEW.utm_medium, ''), COALESCE(NEW.utm_campaign, ''), COALESCE(NEW.utm_term, ''), COALESCE(NEW.utm_content, ''), COALESCE(NEW.outreach, ''), COALESCE(NEW.checkout, ''), COALESCE(NEW.scrolled, 0), CASE WHEN NEW.name <> 'engaged' OR NEW.visible_ms IS NULL THEN 0 WHEN NEW.visible_ms / 1000 < 100 THEN NEW.visible_ms / 1000 WHEN NEW.visible_ms / 1000 < 1000 THEN NEW.visible_ms / 1000 / 10 * 10 WHEN NEW.visible_ms / 1000 < 10000 THEN NEW.visible_ms / 1000 / 100 * 100 ELSE NEW.visible_ms / 1000 / 1000 * 1000 END, 1)
	ON CONFLICT (day, name, path, ref, utm_source, utm_medium, utm_campaign, utm_term, utm_content, outreach, checkout, scrolled, visible_s) DO UPDATE SET n = n + 1;
END;

INSERT INTO rollup (day, name, path, ref, utm_source, utm_medium, utm_campaign, utm_term, utm_content, outreach, checkout, scrolled, visible_s, n) SELECT day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(utm_term, ''), COALESCE(utm_content, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0), CASE WHEN name <> 'engaged' OR visible_ms IS NULL THEN 0 WHEN visible_ms / 1000 < 100 THEN visible_ms / 1000 WHEN visible_ms / 1000 < 1000 THEN visible_ms / 1000 / 10 * 10 WHEN visible_ms / 1000 < 10000 THEN visible_ms / 1000 / 100 * 100 ELSE visible_ms / 1000 / 1000 * 1000 END, COUNT(*) FROM events GROUP BY day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(utm_term, ''), COALESCE(utm_content, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0), CASE WHEN name <> 'engaged' OR visible_ms IS NULL THEN 0 WHEN visible_ms / 1000 < 100 THEN visible_ms / 1000 WHEN visible_ms / 1000 < 1000 THEN visible_ms / 1000 / 10 * 10 WHEN visible_ms / 1000 < 10000 THEN visible_ms / 1000 / 100 * 100 ELSE visible_ms / 1000 / 1000 * 1000 END;

CREATE TABLE journal_taken (path TEXT PRIMARY KEY, pos BIGINT NOT NULL, line TEXT NOT NULL);
