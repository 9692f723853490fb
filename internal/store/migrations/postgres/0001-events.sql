-- Migration 1: the events. One row an event: ts is the server's time in
-- Unix seconds and day its UTC date, which every report query ranges
-- over. No id of any kind: nothing in a row names a reader.

CREATE TABLE events (
	ts BIGINT NOT NULL,
	day TEXT NOT NULL,
	name TEXT NOT NULL,
	path TEXT,
	visible_ms BIGINT,
	scrolled INTEGER CHECK (scrolled IN (0, 1)),
	ref TEXT,
	utm_source TEXT,
	utm_medium TEXT,
	utm_campaign TEXT,
	utm_term TEXT,
	utm_content TEXT,
	outreach TEXT,
	checkout TEXT CHECK (checkout IN ('gumroad', 'site'))
);

CREATE INDEX events_day_name ON events (day, name);

CREATE TABLE imported (line TEXT PRIMARY KEY);
