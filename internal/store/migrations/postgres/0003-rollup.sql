-- Migration 3: the report's counts, kept by the database. A trigger on
-- events counts every row whoever inserts it (this release, an older
-- one, psql), so that nothing is counted twice or never. The roll-up is
-- filled from every event already stored, which also repairs the gap
-- daily has where an older writer ran against version 2.
--
-- One statement-level trigger adds a whole batch, grouped, in key order
-- (two batches never lock the same rows in opposite order). The function
-- runs as its owner, the role that migrated, so a writer role needs only
-- INSERT on events; its search_path is fixed to the one it was made
-- under, so a caller cannot point it at tables of its own.
--
-- journal_taken is how far the report has taken each preview journal:
-- the byte offset and the key of the line that ends there, so that a
-- report reads only new lines, and a journal replaced or cut is read
-- again from the start.

-- Writers wait while the roll-up is filled: an event is either in the
-- fill or counted by the trigger, never both, never neither.
LOCK TABLE events IN SHARE ROW EXCLUSIVE MODE;

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
);

CREATE FUNCTION events_rollup() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
	INSERT INTO rollup (day, name, path, ref, utm_source, utm_medium, utm_campaign, utm_term, utm_content, outreach, checkout, scrolled, visible_s, n)
	SELECT day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(utm_term, ''), COALESCE(utm_content, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0), CASE WHEN name <> 'engaged' OR visible_ms IS NULL THEN 0 WHEN visible_ms / 1000 < 100 THEN visible_ms / 1000 WHEN visible_ms / 1000 < 1000 THEN visible_ms / 1000 / 10 * 10 WHEN visible_ms / 1000 < 10000 THEN visible_ms / 1000 / 100 * 100 ELSE visible_ms / 1000 / 1000 * 1000 END, COUNT(*) FROM new_events GROUP BY day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(utm_term, ''), COALESCE(utm_content, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0), CASE WHEN name <> 'engaged' OR visible_ms IS NULL THEN 0 WHEN visible_ms / 1000 < 100 THEN visible_ms / 1000 WHEN visible_ms / 1000 < 1000 THEN visible_ms / 1000 / 10 * 10 WHEN visible_ms / 1000 < 10000 THEN visible_ms / 1000 / 100 * 100 ELSE visible_ms / 1000 / 1000 * 1000 END ORDER BY day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(utm_term, ''), COALESCE(utm_content, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0), CASE WHEN name <> 'engaged' OR visible_ms IS NULL THEN 0 WHEN visible_ms / 1000 < 100 THEN visible_ms / 1000 WHEN visible_ms / 1000 < 1000 THEN visible_ms / 1000 / 10 * 10 WHEN visible_ms / 1000 < 10000 THEN visible_ms / 1000 / 100 * 100 ELSE visible_ms / 1000 / 1000 * 1000 END
	ON CONFLICT (day, name, path, ref, utm_source, utm_medium, utm_campaign, utm_term, utm_content, outreach, checkout, scrolled, visible_s) DO UPDATE SET n = rollup.n + excluded.n;
	RETURN NULL;
END $$;

REVOKE ALL ON FUNCTION events_rollup() FROM PUBLIC;

CREATE TRIGGER events_rollup AFTER INSERT ON events REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION events_rollup();

INSERT INTO rollup (day, name, path, ref, utm_source, utm_medium, utm_campaign, utm_term, utm_content, outreach, checkout, scrolled, visible_s, n) SELECT day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(utm_term, ''), COALESCE(utm_content, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0), CASE WHEN name <> 'engaged' OR visible_ms IS NULL THEN 0 WHEN visible_ms / 1000 < 100 THEN visible_ms / 1000 WHEN visible_ms / 1000 < 1000 THEN visible_ms / 1000 / 10 * 10 WHEN visible_ms / 1000 < 10000 THEN visible_ms / 1000 / 100 * 100 ELSE visible_ms / 1000 / 1000 * 1000 END, COUNT(*) FROM events GROUP BY day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(utm_term, ''), COALESCE(utm_content, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0), CASE WHEN name <> 'engaged' OR visible_ms IS NULL THEN 0 WHEN visible_ms / 1000 < 100 THEN visible_ms / 1000 WHEN visible_ms / 1000 < 1000 THEN visible_ms / 1000 / 10 * 10 WHEN visible_ms / 1000 < 10000 THEN visible_ms / 1000 / 100 * 100 ELSE visible_ms / 1000 / 1000 * 1000 END;

CREATE TABLE journal_taken (path TEXT PRIMARY KEY, pos BIGINT NOT NULL, line TEXT NOT NULL);
