package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// migration is one numbered change of the schema, in each dialect. The
// list only grows: a migration that has run on someone's store is never
// edited, a new one is added after it.
type migration struct {
	version          int
	sqlite, postgres []string // statements, run in order
}

var migrations = []migration{
	{
		version: 1,
		// One row an event. ts is the server's time in Unix seconds and day
		// its UTC date, which every report query ranges over. No id of any
		// kind: nothing in a row names a reader.
		sqlite:   split(eventsSQL),
		postgres: split(eventsSQL),
	},
	{
		version: 2,
		// The first roll-up, kept by the 77aa49a release's insert code.
		// That release still writes it and its report reads it, so it
		// stays, and migration 4 keeps it filled; this release reads
		// rollup.
		sqlite:   split(dailySQL),
		postgres: split(dailySQL),
	},
	{
		version: 3,
		// The report's counts, kept by the database: a trigger on events
		// counts every row whoever inserts it (this release, an older
		// one, psql), so that nothing is counted twice or never. Filled
		// from every event already stored, which also repairs the gap
		// that daily has when an older writer ran against version 2.
		sqlite:   rollupSQLite,
		postgres: rollupPostgres,
	},
	{
		version: 4,
		// daily filled again, by a trigger on events, for the 77aa49a
		// release's report, which reads it and knows no version: it
		// counted none of this release's events, without a word. Refilled
		// from the events, then kept as that release kept it.
		sqlite:   dailySQLite,
		postgres: dailyPostgres,
	},
}

// Latest is the schema version this program writes and reads.
var Latest = migrations[len(migrations)-1].version

func split(stmts string) []string { return strings.Split(stmts, ";\n") }

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

// dailySQL is migration 2 as it shipped; never edit it.
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
INSERT INTO daily SELECT day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0), COUNT(*) FROM events GROUP BY day, name, COALESCE(path, ''), COALESCE(ref, ''), COALESCE(utm_source, ''), COALESCE(utm_medium, ''), COALESCE(utm_campaign, ''), COALESCE(outreach, ''), COALESCE(checkout, ''), COALESCE(scrolled, 0)`

const rollupTable = `CREATE TABLE rollup (
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
	PRIMARY KEY (` + countCols + `)
)`

// rollupCols are the roll-up's key as expressions over a row of events
// (p is "NEW." in a SQLite trigger): absent fields as ”, and an engaged
// event's visible time as VisibleBucket computes it.
func rollupCols(p string) string {
	cols := []string{p + "day", p + "name"}
	for _, c := range []string{"path", "ref", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "outreach", "checkout"} {
		cols = append(cols, "COALESCE("+p+c+", '')")
	}
	s := p + "visible_ms / 1000"
	cols = append(cols, "COALESCE("+p+"scrolled, 0)",
		"CASE WHEN "+p+"name <> 'engaged' OR "+p+"visible_ms IS NULL THEN 0"+
			" WHEN "+s+" < 100 THEN "+s+
			" WHEN "+s+" < 1000 THEN "+s+" / 10 * 10"+
			" WHEN "+s+" < 10000 THEN "+s+" / 100 * 100"+
			" ELSE "+s+" / 1000 * 1000 END")
	return strings.Join(cols, ", ")
}

// On SQLite, the roll-up and the import keys are WITHOUT ROWID tables:
// their primary key is the table, not a second copy of it beside a rowid,
// which halves what each insert writes (an import of 100,000 lines spends
// most of its time on these two keys).
var rollupSQLite = []string{
	rollupTable + ` WITHOUT ROWID`,
	`CREATE TABLE imported_keys (line TEXT PRIMARY KEY) WITHOUT ROWID`,
	`INSERT INTO imported_keys SELECT line FROM imported`,
	`DROP TABLE imported`,
	`ALTER TABLE imported_keys RENAME TO imported`,
	`CREATE TRIGGER events_rollup AFTER INSERT ON events BEGIN
	INSERT INTO rollup (` + countCols + `, n) VALUES (` + rollupCols("NEW.") + `, 1)
	ON CONFLICT (` + countCols + `) DO UPDATE SET n = n + 1;
END`,
	`INSERT INTO rollup (` + countCols + `, n) SELECT ` + rollupCols("") + `, COUNT(*) FROM events GROUP BY ` + rollupCols(""),
	journalTaken,
}

// journalTaken is how far the report has taken each preview journal into
// this store: the byte offset and the key of the line that ends there, so
// that a report reads only new lines, and a journal replaced or cut is
// read again from the start (each line's key keeps that exact).
const journalTaken = `CREATE TABLE journal_taken (path TEXT PRIMARY KEY, pos BIGINT NOT NULL, line TEXT NOT NULL)`

// On PostgreSQL, one statement-level trigger adds a whole batch, grouped,
// in key order (two batches never lock the same rows in opposite order).
// The function runs as its owner, the role that migrated, so a writer
// role needs only INSERT on events; its search_path is fixed to the one it
// was made under, so a caller cannot point it at tables of its own.
var rollupPostgres = []string{
	// Writers wait while the roll-up is filled: an event is either in the
	// fill or counted by the trigger, never both, never neither.
	`LOCK TABLE events IN SHARE ROW EXCLUSIVE MODE`,
	rollupTable,
	`CREATE FUNCTION events_rollup() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
	INSERT INTO rollup (` + countCols + `, n)
	SELECT ` + rollupCols("") + `, COUNT(*) FROM new_events GROUP BY ` + rollupCols("") + ` ORDER BY ` + rollupCols("") + `
	ON CONFLICT (` + countCols + `) DO UPDATE SET n = rollup.n + excluded.n;
	RETURN NULL;
END $$`,
	`REVOKE ALL ON FUNCTION events_rollup() FROM PUBLIC`,
	`CREATE TRIGGER events_rollup AFTER INSERT ON events REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION events_rollup()`,
	`INSERT INTO rollup (` + countCols + `, n) SELECT ` + rollupCols("") + `, COUNT(*) FROM events GROUP BY ` + rollupCols(""),
	journalTaken,
}

// dailyCols are daily's key as expressions over a row of events (p is
// "NEW." in a SQLite trigger), as the 77aa49a release keys it.
func dailyCols(p string) string {
	cols := []string{p + "day", p + "name"}
	for _, c := range []string{"path", "ref", "utm_source", "utm_medium", "utm_campaign", "outreach", "checkout"} {
		cols = append(cols, "COALESCE("+p+c+", '')")
	}
	return strings.Join(append(cols, "COALESCE("+p+"scrolled, 0)"), ", ")
}

const dailyKey = `day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled`

// The 77aa49a release still adds one to daily itself, after its insert
// into events, which the trigger has counted already. kept is how often
// the trigger added to a row: an update of daily that leaves it as it was
// is that release's second count, and is dropped. Its first write to a
// row is always that update, as the trigger made the row in the same
// transaction.
var (
	dailyKept   = `ALTER TABLE daily ADD COLUMN kept BIGINT NOT NULL DEFAULT 0`
	dailyEmpty  = `DELETE FROM daily`
	dailyRefill = `INSERT INTO daily (` + dailyKey + `, n) SELECT ` + dailyCols("") + `, COUNT(*) FROM events GROUP BY ` + dailyCols("")
)

var dailySQLite = []string{
	dailyKept,
	dailyEmpty,
	dailyRefill,
	`CREATE TRIGGER events_daily AFTER INSERT ON events BEGIN
	INSERT INTO daily (` + dailyKey + `, n, kept) VALUES (` + dailyCols("NEW.") + `, 1, 1)
	ON CONFLICT (` + dailyKey + `) DO UPDATE SET n = n + 1, kept = kept + 1;
END`,
	`CREATE TRIGGER daily_counted_once BEFORE UPDATE ON daily WHEN NEW.kept = OLD.kept BEGIN
	SELECT RAISE(IGNORE);
END`,
}

var dailyPostgres = []string{
	`LOCK TABLE events IN SHARE ROW EXCLUSIVE MODE`,
	dailyKept,
	dailyEmpty,
	dailyRefill,
	`CREATE FUNCTION events_daily() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
BEGIN
	INSERT INTO daily (` + dailyKey + `, n, kept)
	SELECT ` + dailyCols("") + `, COUNT(*), 1 FROM new_events GROUP BY ` + dailyCols("") + ` ORDER BY ` + dailyCols("") + `
	ON CONFLICT (` + dailyKey + `) DO UPDATE SET n = daily.n + excluded.n, kept = daily.kept + 1;
	RETURN NULL;
END $$`,
	`REVOKE ALL ON FUNCTION events_daily() FROM PUBLIC`,
	`CREATE TRIGGER events_daily AFTER INSERT ON events REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION events_daily()`,
	// Runs as the caller, the older writer's role: it only drops the row.
	`CREATE FUNCTION daily_counted_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RETURN NULL;
END $$`,
	`CREATE TRIGGER daily_counted_once BEFORE UPDATE ON daily FOR EACH ROW WHEN (NEW.kept = OLD.kept) EXECUTE FUNCTION daily_counted_once()`,
}

// migrateLock is the PostgreSQL advisory lock every migrating process
// takes, so that two of them run one after the other. It is held by the
// transaction (pg_advisory_xact_lock), so it works through a pooler in
// transaction mode too.
const migrateLock = 7_274_611

// ErrBehind is the error of a store behind this program's schema that the
// caller could not migrate.
var ErrBehind = errors.New("the store's schema is behind this program's")

// upToDate checks the store's version with a read, no lock and no DDL,
// refuses a store newer than this program knows, and migrates one that is
// behind.
func (s *Store) upToDate(ctx context.Context) error {
	var v int
	err := retryBusy(ctx, func() (err error) {
		v, err = s.version(ctx)
		return err
	})
	if err != nil {
		return err
	}
	switch {
	case v > Latest:
		return fmt.Errorf("the store is at schema version %d, and this program knows versions up to %d: it writes nothing there. Use the newer release that migrated it (git pull), or the store it was made for", v, Latest)
	case v == Latest:
		return nil
	}
	if err := s.Migrate(ctx); err != nil {
		return fmt.Errorf("%w (at version %d, this program needs %d), and migrating it failed: %v. Run `go run ./cmd/report -migrate` with a role that owns the schema (see docs/store.md), then start this again", ErrBehind, v, Latest, err)
	}
	return nil
}

// version is the store's schema version: 0 for an empty store.
func (s *Store) version(ctx context.Context) (int, error) {
	var exists bool
	var err error
	if s.postgres {
		err = s.db.QueryRowContext(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL`).Scan(&exists)
	} else {
		err = s.db.QueryRowContext(ctx, `SELECT COUNT(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&exists)
	}
	if err != nil || !exists {
		return 0, err
	}
	var v int
	err = s.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v)
	return v, err
}

// Migrate applies, in order, each migration the store has not had, each in
// one transaction with its version row: safe to run twice, and from two
// processes at once. A store opened read-only is migrated through a
// writable connection of its own, closed after.
func (s *Store) Migrate(ctx context.Context) error {
	st := s
	if s.o.ReadOnly && !s.postgres {
		db, err := openSQLite(s.dsn, false, false)
		if err != nil {
			return err
		}
		defer db.Close()
		st = &Store{db: db, dsn: s.dsn, where: s.where}
	}
	for _, m := range migrations {
		if err := retryBusy(ctx, func() error { return st.apply(ctx, m) }); err != nil {
			return fmt.Errorf("migration %d: %w", m.version, err)
		}
	}
	return nil
}

// retryBusy calls f until it returns anything but SQLITE_BUSY: two
// processes opening a new SQLite file at once can get it without the busy
// handler being asked, while one of them turns the file to WAL.
func retryBusy(ctx context.Context, f func() error) error {
	err := f()
	for try := 1; busy(err) && try < 100; try++ {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(try) * 2 * time.Millisecond):
		}
		err = f()
	}
	return err
}

// busy reports whether err is SQLite's SQLITE_BUSY.
func busy(err error) bool { return sqliteCode(err, 5) }

func (s *Store) apply(ctx context.Context, m migration) error {
	if v, err := s.version(ctx); err == nil && v >= m.version {
		return nil // no write lock for what is done
	}
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
	for _, stmt := range stmts {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`), m.version, time.Now().Unix()); err != nil {
		return err
	}
	return tx.Commit()
}
