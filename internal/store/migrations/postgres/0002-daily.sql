-- Migration 2: daily, the first roll-up, as the 77aa49a release shipped
-- it and still writes it from its insert code; its report reads it, so it
-- stays, and migration 4 keeps it filled. The report reads rollup.

CREATE TABLE daily (
	day TEXT NOT NULL,
	name TEXT NOT NULL,
	path TEXT NOT NULL,
	ref TEXT NOT NULL,
	utm_source TEXT NOT NULL,
	utm_medium TEXT NOT NULL,
	utm_campaign TEXT NOT NULL,
	outreach TEXT NOT NULL,
	checkout TEXT NOT NULL,
	scrolled INTEGER NOT NULL,
	n BIGINT NOT NULL,
	PRIMARY KEY (day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled)
);

INSERT INTO daily SELECT day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0), COUNT(*) FROM events GROUP BY day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0);
