package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// migration is one numbered change of the schema, in each dialect (so far
// the two read the same). The list only grows: a migration that has run on
// someone's store is never edited, a new one is added after it.
type migration struct {
	version          int
	sqlite, postgres string // statements separated by ";\n"
}

var migrations = []migration{
	{
		version: 1,
		// One row an event. ts is the server's time in Unix seconds and day
		// its UTC date, which every report query ranges over. No id of any
		// kind: nothing in a row names a reader.
		sqlite:   eventsSQL,
		postgres: eventsSQL,
	},
	{
		version: 2,
		// The report's counts, kept by day as events arrive: grouping a
		// million raw rows took 2.7 s on SQLite, reading this takes a
		// fraction. Empty strings stand for absent fields, since a NULL
		// never conflicts in a key. Filled from the events already stored.
		sqlite:   dailySQL,
		postgres: dailySQL,
	},
}

const eventsSQL = `CREATE TABLE events (
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
CREATE TABLE imported (line TEXT PRIMARY KEY)`

const dailySQL = `CREATE TABLE daily (
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
INSERT INTO daily SELECT ` + groupCols + `, COUNT(*) FROM events GROUP BY ` + groupCols

// groupCols are the fields the report counts by, absent ones as ”.
const groupCols = `day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0)`

// migrateLock is the PostgreSQL advisory lock every migrating process
// takes, so that two of them run one after the other.
const migrateLock = 7_274_611

// migrate applies, in order, each migration the store has not had, each in
// one transaction with its version row: safe to run twice, and from two
// processes at once.
func (s *Store) migrate(ctx context.Context) error {
	for _, m := range migrations {
		err := s.apply(ctx, m)
		// Two processes opening a new SQLite file at once can get
		// SQLITE_BUSY without the busy handler being asked, while one of
		// them turns the file to WAL: wait and try again.
		for try := 1; busy(err) && try < 100; try++ {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Duration(try) * 2 * time.Millisecond):
			}
			err = s.apply(ctx, m)
		}
		if err != nil {
			return fmt.Errorf("migration %d: %w", m.version, err)
		}
	}
	return nil
}

// busy reports whether err is SQLite's SQLITE_BUSY.
func busy(err error) bool {
	var coded interface{ Code() int }
	return errors.As(err, &coded) && coded.Code()&0xff == 5
}

func (s *Store) apply(ctx context.Context, m migration) error {
	tx, err := s.db.BeginTx(ctx, nil) // SQLite: BEGIN IMMEDIATE, the write lock
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmts := m.sqlite
	if s.postgres {
		stmts = m.postgres
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, migrateLock); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)`); err != nil {
		return err
	}
	var n int
	if err := tx.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM schema_migrations WHERE version = ?`), m.version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	for _, stmt := range strings.Split(stmts, ";\n") {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`), m.version, time.Now().Unix()); err != nil {
		return err
	}
	return tx.Commit()
}
