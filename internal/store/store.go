// Package store keeps the counter's events: in SQLite by default, a file
// beside the site (embedded, pure Go: go run needs no C compiler), and in
// PostgreSQL when a database URL is given. One table, one row an event,
// holding what the contract sends and the server's UTC time to the second:
// nothing that tells one reader from another, no IP, no user agent, no
// header.
//
// Both backends run through database/sql with the same SQL; they differ
// in placeholders, in a few column types and in how migrations take their
// lock.
package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"errref/internal/event"
)

// Store is an open store of events. It is safe for concurrent use.
type Store struct {
	db       *sql.DB
	postgres bool
	where    string // for messages: the file, or the database's host and name
}

// Columns are the events table's columns: the contract's fields and the
// time. A test holds the schema to this list.
var Columns = []string{"ts", "day", "name", "path", "visible_ms", "scrolled", "ref",
	"utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "outreach", "checkout"}

// IsURL reports whether dsn names a PostgreSQL database rather than a
// SQLite file.
func IsURL(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Locate picks the store: DATABASE_URL, else Netlify Database's
// NETLIFY_DB_URL, else the file in SITE_EVENTS_DB, else file.
func Locate(getenv func(string) string, file string) string {
	for _, k := range []string{"DATABASE_URL", "NETLIFY_DB_URL", "SITE_EVENTS_DB"} {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			return v
		}
	}
	return file
}

// Options tune a store for its process.
type Options struct {
	MaxConns int // PostgreSQL connections at most; 4 when zero
}

// Open opens the store that dsn names, a postgres:// URL or a file path,
// and applies the migrations it lacks.
func Open(ctx context.Context, dsn string, o Options) (*Store, error) {
	s := &Store{postgres: IsURL(dsn)}
	if s.postgres {
		cfg, err := pgx.ParseConfig(dsn)
		if err != nil {
			return nil, fmt.Errorf("database URL: %v", err)
		}
		s.where = fmt.Sprintf("postgres %s/%s", cfg.Host, cfg.Database)
		s.db = stdlib.OpenDB(*cfg)
		s.db.SetMaxOpenConns(cmpOr(o.MaxConns, 4))
		s.db.SetMaxIdleConns(cmpOr(o.MaxConns, 4))
		// A connection idle through a Lambda freeze may be dead on thaw:
		// database/sql drops it on error and dials anew.
		s.db.SetConnMaxIdleTime(2 * time.Minute)
	} else {
		s.where = dsn
		// WAL lets the report read while the preview writes; synchronous
		// NORMAL makes a commit cheap (no fsync but at checkpoints); an
		// immediate BEGIN takes the write lock up front, so two processes
		// migrating at once wait for each other instead of failing.
		v := url.Values{}
		for _, p := range []string{"busy_timeout(5000)", "journal_mode(WAL)", "synchronous(NORMAL)"} {
			v.Add("_pragma", p)
		}
		v.Set("_txlock", "immediate")
		// The SQLite driver is registered by the commands that keep a
		// file (import _ "modernc.org/sqlite"), not here: the function,
		// which only ever uses PostgreSQL, stays half the size.
		if !slices.Contains(sql.Drivers(), "sqlite") {
			return nil, fmt.Errorf("%s: this program cannot open a SQLite file: give a postgres:// URL", dsn)
		}
		db, err := sql.Open("sqlite", "file:"+dsn+"?"+v.Encode())
		if err != nil {
			return nil, fmt.Errorf("%s: %v", dsn, err)
		}
		// One writer at a time: SQLite serialises writes anyway, and a
		// queue in the pool is cheaper than busy retries.
		db.SetMaxOpenConns(1)
		s.db = db
	}
	if err := s.migrate(ctx); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("%s: %w", s.where, err)
	}
	return s, nil
}

func cmpOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// String names the store, for messages.
func (s *Store) String() string { return s.where }

// q writes a query's ? placeholders as the backend wants them.
func (s *Store) q(query string) string {
	if !s.postgres {
		return query
	}
	var b strings.Builder
	n := 0
	for _, c := range query {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

const insertSQL = `INSERT INTO events (ts, day, name, path, visible_ms, scrolled, ref,
	utm_source, utm_medium, utm_campaign, utm_term, utm_content, outreach, checkout)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// row is e as the columns hold it, at the server's time at, in UTC, to
// the second.
func row(e event.Event, at time.Time) []any {
	at = at.UTC()
	null := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	var visible, scrolled, outreach any
	if e.VisibleMS != nil {
		visible = *e.VisibleMS
	}
	if e.Scrolled != nil {
		scrolled = 0
		if *e.Scrolled {
			scrolled = 1
		}
	}
	if e.Outreach != nil {
		outreach = *e.Outreach
	}
	args := []any{at.Unix(), at.Format(time.DateOnly), e.Name, null(e.Path), visible, scrolled, null(e.Ref)}
	for _, k := range event.CampaignKeys {
		if v, ok := e.Campaign[k]; ok {
			args = append(args, v)
		} else {
			args = append(args, nil)
		}
	}
	return append(args, outreach, null(e.Checkout))
}

// countSQL adds one to the event's count in the daily roll-up.
const countSQL = `INSERT INTO daily (day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled, n)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
	ON CONFLICT (day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled)
	DO UPDATE SET n = daily.n + 1`

// counted is row's fields as the roll-up keys them.
func counted(args []any) []any {
	str := func(v any) any {
		if v == nil {
			return ""
		}
		return v
	}
	scrolled := args[5]
	if scrolled == nil {
		scrolled = 0
	}
	// day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled
	return []any{args[1], args[2], str(args[3]), str(args[6]), str(args[7]), str(args[8]), str(args[9]), str(args[12]), str(args[13]), scrolled}
}

// Insert stores one event, received at at, and counts it.
func (s *Store) Insert(ctx context.Context, e event.Event, at time.Time) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("%s: storing an event: %w", s.where, err)
	}
	defer tx.Rollback()
	if err := s.insert(ctx, tx, e, at); err != nil {
		return fmt.Errorf("%s: storing an event: %w", s.where, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("%s: storing an event: %w", s.where, err)
	}
	return nil
}

func (s *Store) insert(ctx context.Context, tx *sql.Tx, e event.Event, at time.Time) error {
	args := row(e, at)
	if _, err := tx.ExecContext(ctx, s.q(insertSQL), args...); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, s.q(countSQL), counted(args)...)
	return err
}

// Import stores e, received at at, unless an import already stored the
// line named key: running an import twice adds nothing the second time.
// It reports whether it stored the event.
func (s *Store) Import(ctx context.Context, key string, e event.Event, at time.Time) (bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, s.q(`INSERT INTO imported (line) VALUES (?) ON CONFLICT (line) DO NOTHING`), key)
	if err != nil {
		return false, fmt.Errorf("%s: importing: %w", s.where, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	if err := s.insert(ctx, tx, e, at); err != nil {
		return false, fmt.Errorf("%s: importing: %w", s.where, err)
	}
	return true, tx.Commit()
}

// Count is how many events of one kind a day holds: those that agree on
// every field below. The report adds them up in whichever way it needs.
type Count struct {
	Day, Name, Path, Ref                              string
	Source, Medium, Campaign, Term, Content, Outreach string
	Checkout                                          string
	Scrolled                                          bool
	VisibleS                                          int // engaged events only: see VisibleBucket; 0 for every other event
	N                                                 int
}

// VisibleBucket is the roll-up's key for an engaged event's visible_ms: whole seconds
// to two significant figures (95 s, 140 s, 1,200 s), so that a median and quartiles
// read from the roll-up are within 10% of the raw figure while the roll-up stays small.
func VisibleBucket(ms int64) int {
	s := ms / 1000
	switch {
	case s < 100:
		return int(s)
	case s < 1000:
		return int(s / 10 * 10)
	case s < 10000:
		return int(s / 100 * 100)
	}
	return int(s / 1000 * 1000)
}

// Counts returns the counts of the UTC days from to to, both included
// (YYYY-MM-DD), from the daily roll-up.
func (s *Store) Counts(ctx context.Context, from, to string) ([]Count, error) {
	return s.counts(ctx, `SELECT day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled, n
		FROM daily WHERE day >= ? AND day <= ?
		ORDER BY day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled`, from, to)
}

// countEvents is Counts from the raw events, for a test to hold the
// roll-up to.
func (s *Store) countEvents(ctx context.Context, from, to string) ([]Count, error) {
	return s.counts(ctx, `SELECT `+groupCols+`, COUNT(*) FROM events WHERE day >= ? AND day <= ?
		GROUP BY `+groupCols+` ORDER BY `+groupCols, from, to)
}

func (s *Store) counts(ctx context.Context, query, from, to string) ([]Count, error) {
	rows, err := s.db.QueryContext(ctx, s.q(query), from, to)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.where, err)
	}
	defer rows.Close()
	var out []Count
	for rows.Next() {
		var c Count
		var scrolled int
		if err := rows.Scan(&c.Day, &c.Name, &c.Path, &c.Ref, &c.Source, &c.Medium, &c.Campaign, &c.Outreach, &c.Checkout, &scrolled, &c.N); err != nil {
			return nil, fmt.Errorf("%s: %w", s.where, err)
		}
		c.Scrolled = scrolled == 1
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", s.where, err)
	}
	return out, nil
}

// Total is the number of events stored.
func (s *Store) Total(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM events`).Scan(&n)
	return n, err
}
