// Migrating a store: the numbered SQL files of migrations/, each applied once, under a lock.

package store

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"
)

// migration is one numbered change of the schema, in each dialect.
type migration struct {
	version          int
	sqlite, postgres []string // statements, run in order
}

// The migrations are SQL files, one a version and dialect (migrations/sqlite/0003-rollup.sql).
// One that has run on someone's store is never edited: a change is a new file in each dialect.
//
//go:embed migrations
var migrationFiles embed.FS

var migrations = func() []migration {
	ms, err := loadMigrations(migrationFiles)
	if err != nil {
		panic(err) // the files are compiled in: a test loads them
	}
	return ms
}()

// Latest is the schema version this program writes and reads.
var Latest = migrations[len(migrations)-1].version

// loadMigrations reads migrations/sqlite and migrations/postgres, which must
// hold the same versions, 1, 2, 3 and on.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	var ms []migration
	for _, dialect := range []string{"sqlite", "postgres"} {
		dir := "migrations/" + dialect
		files, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return nil, fmt.Errorf("reading the migrations: %w", err)
		}
		for i, f := range files {
			name := dir + "/" + f.Name()
			num, _, _ := strings.Cut(f.Name(), "-")
			v, err := strconv.Atoi(num)
			if err != nil || v != i+1 || !strings.HasSuffix(name, ".sql") {
				return nil, fmt.Errorf("%s: want migration %d, named %04d-what.sql", name, i+1, i+1)
			}
			b, err := fs.ReadFile(fsys, name)
			if err != nil {
				return nil, fmt.Errorf("reading the migrations: %w", err)
			}
			stmts, err := statements(string(b))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if dialect == "sqlite" {
				ms = append(ms, migration{version: v, sqlite: stmts})
			} else if i < len(ms) {
				ms[i].postgres = stmts
			}
		}
		if len(files) != len(ms) {
			return nil, fmt.Errorf("%s holds %d migrations, migrations/sqlite %d: each needs both", dir, len(files), len(ms))
		}
	}
	return ms, nil
}

// statements splits a migration file into its statements, each ending ";" at a
// line's end and separated by an empty line; comment lines before one are not sent.
func statements(file string) ([]string, error) {
	var out []string
	for _, stmt := range strings.Split(strings.TrimSpace(file), ";\n\n") {
		for strings.HasPrefix(stmt, "\n") || strings.HasPrefix(stmt, "--") {
			_, stmt, _ = strings.Cut(stmt, "\n")
		}
		stmt = strings.TrimSuffix(stmt, ";")
		if strings.TrimSpace(stmt) == "" {
			return nil, fmt.Errorf("statement %d is empty", len(out)+1)
		}
		out = append(out, stmt)
	}
	return out, nil
}

// migrateLock is the PostgreSQL advisory lock that serialises migrating
// processes; held by the transaction, it works through a pooler too.
const migrateLock = 7_274_611

// ErrBehind is the error of a store behind this program's schema that the caller could not migrate.
var ErrBehind = errors.New("the store's schema is behind this program's")

// upToDate checks the store's version with a read, no lock and no DDL, refuses
// a store newer than this program knows, and migrates one that is behind.
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
		who := "as a user who may write the file and its folder, on a disk with room"
		if s.postgres {
			who = "with a role that owns the schema"
		}
		return fmt.Errorf("%w (at version %d, this program needs %d), and migrating it failed: %v. Run `go run ./cmd/report -migrate` %s (see docs/store.md), then start this again", ErrBehind, v, Latest, err, who)
	}
	return nil
}

// version is the store's schema version: 0 for an empty store.
func (s *Store) version(ctx context.Context) (int, error) {
	query := `SELECT COUNT(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`
	if s.postgres {
		query = `SELECT to_regclass('schema_migrations') IS NOT NULL`
	}
	var exists bool
	if err := s.db.QueryRowContext(ctx, query).Scan(&exists); err != nil || !exists {
		return 0, err
	}
	var v int
	err := s.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v)
	return v, err
}

// Migrate applies each migration the store has not had, each in one transaction
// with its version row: safe twice, and from two processes at once. A store
// opened read-only migrates through a writable connection.
func (s *Store) Migrate(ctx context.Context) error {
	st := s
	if s.readOnly && !s.postgres {
		db, err := openSQLite(s.where, false, false)
		if err != nil {
			return err
		}
		defer db.Close()
		st = &Store{db: db, where: s.where}
	}
	for _, m := range migrations {
		if err := retryBusy(ctx, func() error { return st.apply(ctx, m) }); err != nil {
			return fmt.Errorf("migration %d: %w", m.version, err)
		}
	}
	return nil
}

// retryBusy calls f until it returns anything but SQLITE_BUSY (5), which two processes
// opening a new file at once can get, without the busy handler, while one turns it to WAL.
func retryBusy(ctx context.Context, f func() error) error {
	err := f()
	for try := 1; sqliteCode(err, 5) && try < 100; try++ {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(try) * 2 * time.Millisecond):
		}
		err = f()
	}
	return err
}

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
