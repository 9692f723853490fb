// Package store keeps the counter's events: in SQLite, a file beside the
// site (embedded, pure Go: go run needs no C compiler), and in PostgreSQL
// when a database URL is given. One table, one row an event, holding what
// the contract sends and the server's UTC time to the second: nothing that
// tells one reader from another, no IP, no user agent, no header.
//
// The report reads a roll-up of counts that the database itself keeps, by
// a trigger on the events table: whoever inserts an event (this release,
// an older one, psql) is counted, once.
//
// Both backends run through database/sql with the same SQL; they differ
// in placeholders, in the trigger and in how migrations take their lock.
package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"errref/internal/event"
)

// Store is an open store of events. It is safe for concurrent use.
type Store struct {
	db       *sql.DB
	dsn      string
	o        Options
	postgres bool
	where    string // for messages: the file, or the database's host and name
}

// Columns are the events table's columns: the contract's fields and the
// time. A test holds the schema to this list.
var Columns = []string{"ts", "day", "name", "path", "visible_ms", "scrolled", "ref",
	"utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "outreach", "checkout"}

// keywordRE is the start of a libpq keyword/value connection string, as
// pgx.ParseConfig reads one: "host=db dbname=x user=y".
var keywordRE = regexp.MustCompile(`^\s*([a-z_]+)\s*=`)

// libpqKeys are the keywords that make a string a connection string rather
// than a file whose name holds "=".
var libpqKeys = []string{"host", "hostaddr", "port", "dbname", "user", "password", "passfile",
	"sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout", "application_name",
	"options", "service", "servicefile", "target_session_attrs", "search_path"}

// IsPostgres reports whether dsn names a PostgreSQL database, as a
// postgres:// URL or a libpq keyword/value string, rather than a SQLite
// file.
func IsPostgres(dsn string) bool {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return true
	}
	m := keywordRE.FindStringSubmatch(dsn)
	return m != nil && slices.Contains(libpqKeys, m[1])
}

// Locate picks the store: DATABASE_URL, else Netlify Database's
// NETLIFY_DB_URL, else the file in SITE_EVENTS_DB, else file. It returns
// the store and the variable that named it ("" for file). A database
// variable that holds no PostgreSQL address is an error naming it: read
// as a file, it would be an empty store and a report of zeros.
func Locate(getenv func(string) string, file string) (dsn, from string, err error) {
	for _, k := range []string{"DATABASE_URL", "NETLIFY_DB_URL"} {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			if !IsPostgres(v) {
				return "", k, fmt.Errorf("%s is set but is neither a postgres:// URL nor a key=value connection string (dbname=… user=…): fix it or unset it", k)
			}
			return v, k, nil
		}
	}
	if v := strings.TrimSpace(getenv("SITE_EVENTS_DB")); v != "" {
		return v, "SITE_EVENTS_DB", nil
	}
	return file, "", nil
}

// Options tune a store for its process.
type Options struct {
	MaxConns int // PostgreSQL connections at most; 4 when zero
	// ReadOnly opens for reading: SQLite in read-only mode, PostgreSQL in
	// read-only transactions. A store behind this program's schema is
	// still migrated when the caller has the rights.
	ReadOnly bool
	// Create makes a SQLite file that does not exist; without it, a
	// missing file is an error (a mistyped path is not an empty store).
	Create bool
	// Timeout bounds connecting to PostgreSQL; 5 s when zero.
	Timeout time.Duration
}

// Open opens the store that dsn names, a PostgreSQL URL or keyword string,
// or a file path, and migrates it when it is behind this program's schema.
// A store at this program's version is opened without DDL and without a
// write lock; a store newer than this program knows is refused.
func Open(ctx context.Context, dsn string, o Options) (*Store, error) {
	s := &Store{dsn: dsn, o: o, postgres: IsPostgres(dsn)}
	var err error
	if s.postgres {
		s.db, s.where, err = openPostgres(dsn, o)
	} else {
		s.where = dsn
		if !o.Create {
			if _, err := os.Stat(dsn); errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s: no such store (a mistyped path? -import and -migrate create one)", dsn)
			}
		}
		s.db, err = openSQLite(dsn, o.ReadOnly, false)
	}
	if err != nil {
		return nil, err
	}
	err = s.upToDate(ctx)
	if err != nil && o.ReadOnly && !s.postgres && sqliteCode(err, 8, 14) {
		// A WAL file in a folder this user may not write: SQLite cannot
		// make the -shm file readers share. Then no writer can be at work
		// (it would need the -wal file), and the file is read as it is.
		s.db.Close()
		if s.db, err = openSQLite(dsn, true, true); err != nil {
			return nil, err
		}
		err = s.upToDate(ctx)
	}
	if err != nil {
		s.db.Close()
		return nil, fmt.Errorf("%s: %w", s.where, err)
	}
	return s, nil
}

// Describe names the store at dsn for messages: the file, or PostgreSQL's
// host, port, database and user, never the password.
func Describe(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return "an unreadable PostgreSQL address"
	}
	return describe(cfg)
}

func describe(cfg *pgx.ConnConfig) string {
	return fmt.Sprintf("postgres %s:%d/%s as %s", cfg.Host, cfg.Port, cfg.Database, cfg.User)
}

func openPostgres(dsn string, o Options) (*sql.DB, string, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		// pgx's message may quote the string, password and all.
		return nil, "", errors.New("the PostgreSQL address cannot be read: check its form (postgres://user:password@host:port/database or host=… dbname=… user=…)")
	}
	where := describe(cfg)
	// No prepared-statement cache: behind PgBouncer in transaction mode
	// (Netlify Database, Supabase, Neon) a cached statement lives on a
	// server connection the next transaction may not get. The user cannot
	// add default_query_exec_mode to a URL the platform sets.
	cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = cmp.Or(o.Timeout, 5*time.Second)
	}
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(cmp.Or(o.MaxConns, 4))
	db.SetMaxIdleConns(cmp.Or(o.MaxConns, 4))
	// A connection idle through a Lambda freeze may be dead on thaw:
	// database/sql drops it on error and dials anew.
	db.SetConnMaxIdleTime(2 * time.Minute)
	return db, where, nil
}

// FileURI is path as a SQLite file: URI, every character that a URI gives
// a meaning to (# ? % and spaces) escaped, so that "C# site/events.db" is
// that file and not a file "C" with a fragment.
func FileURI(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x on Windows is file:///C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String(), nil
}

// sqliteCode reports whether err is a SQLite error whose primary code is
// one of codes (SQLITE_READONLY is 8, SQLITE_CANTOPEN 14).
func sqliteCode(err error, codes ...int) bool {
	var coded interface{ Code() int }
	return errors.As(err, &coded) && slices.Contains(codes, coded.Code()&0xff)
}

func openSQLite(path string, readOnly, immutable bool) (*sql.DB, error) {
	// The SQLite driver is registered by the commands that keep a file
	// (import _ "modernc.org/sqlite"), not here: the function and the
	// build, which never open one, stay small.
	if !slices.Contains(sql.Drivers(), "sqlite") {
		return nil, fmt.Errorf("%s: this program cannot open a SQLite file: give a PostgreSQL URL", path)
	}
	uri, err := FileURI(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	v := url.Values{}
	v.Add("_pragma", "busy_timeout(5000)")
	if readOnly {
		// Read-only mode opens a file the user may not write, and
		// query_only makes sure nothing here ever tries.
		v.Set("mode", "ro")
		v.Add("_pragma", "query_only(1)")
		if immutable {
			v.Set("immutable", "1")
		}
	} else {
		// WAL lets the report read while another process writes;
		// synchronous NORMAL makes a commit cheap (no fsync but at
		// checkpoints); an immediate BEGIN takes the write lock up front,
		// so two processes migrating at once wait for each other instead
		// of failing. Only writes begin transactions.
		v.Add("_pragma", "journal_mode(WAL)")
		v.Add("_pragma", "synchronous(NORMAL)")
		v.Add("_pragma", "cache_size(-32768)") // 32 MB: an import's keys land all over their index
		v.Set("_txlock", "immediate")
	}
	db, err := sql.Open("sqlite", uri+"?"+v.Encode())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	// One connection for writing: SQLite serialises writes anyway, and a
	// queue in the pool is cheaper than busy retries. A reader reads with
	// as many as Counts splits its days into.
	db.SetMaxOpenConns(1)
	if readOnly {
		db.SetMaxOpenConns(readers)
	}
	return db, nil
}

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// String names the store, for messages: the file, or the database's host,
// port and name, never a password.
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

// Item is one event to keep: the event, the time it arrived and, for an
// imported line, the line's key, so that it is taken once.
type Item struct {
	Event event.Event
	At    time.Time
	Key   string
}

// rowsPerStatement keeps a multi-row INSERT under SQLite's 32,766 bound
// values (14 a row) and PostgreSQL's 65,535.
const rowsPerStatement = 2000

// Keep stores items in one transaction, all or none. Items with a key an
// earlier import took are left out; Keep returns how many it stored. On
// PostgreSQL it makes a bounded number of round trips: two statements for
// each 2,000 items at most.
func (s *Store) Keep(ctx context.Context, items []Item) (int, error) {
	n, err := s.keep(ctx, items)
	if err != nil {
		return 0, fmt.Errorf("%s: storing %d events: %w", s.where, len(items), err)
	}
	return n, nil
}

func (s *Store) keep(ctx context.Context, items []Item) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	if !s.postgres {
		return keepSQLite(ctx, tx, items)
	}
	stored := 0
	for chunk := range slices.Chunk(items, rowsPerStatement) {
		if chunk, err = s.newLines(ctx, tx, chunk); err != nil {
			return 0, err
		}
		if len(chunk) == 0 {
			continue
		}
		var b strings.Builder
		args := make([]any, 0, len(chunk)*len(Columns))
		b.WriteString(`INSERT INTO events (` + strings.Join(Columns, ", ") + `) VALUES `)
		for i, it := range chunk {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
			args = append(args, row(it.Event, it.At)...)
		}
		if _, err := tx.ExecContext(ctx, s.q(b.String()), args...); err != nil {
			return 0, err
		}
		stored += len(chunk)
	}
	return stored, tx.Commit()
}

// keepSQLite stores items with two statements prepared once a batch:
// in process, a row a call costs less than parsing a 2,000-row statement.
func keepSQLite(ctx context.Context, tx *sql.Tx, items []Item) (int, error) {
	ins, err := tx.PrepareContext(ctx, insertSQL)
	if err != nil {
		return 0, err
	}
	defer ins.Close()
	var key *sql.Stmt
	stored := 0
	for _, it := range items {
		if it.Key != "" {
			if key == nil {
				if key, err = tx.PrepareContext(ctx, `INSERT INTO imported (line) VALUES (?) ON CONFLICT (line) DO NOTHING`); err != nil {
					return 0, err
				}
				defer key.Close()
			}
			res, err := key.ExecContext(ctx, it.Key)
			if err != nil {
				return 0, err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				continue // taken before
			}
		}
		if _, err := ins.ExecContext(ctx, row(it.Event, it.At)...); err != nil {
			return 0, err
		}
		stored++
	}
	return stored, tx.Commit()
}

// newLines records the keys of the imported items among chunk and returns
// the items to store: those without a key, and those whose key no import
// took before (nor an earlier item of chunk).
func (s *Store) newLines(ctx context.Context, tx *sql.Tx, chunk []Item) ([]Item, error) {
	var keys []any
	for _, it := range chunk {
		if it.Key != "" {
			keys = append(keys, it.Key)
		}
	}
	if len(keys) == 0 {
		return chunk, nil
	}
	query := `INSERT INTO imported (line) VALUES (?)` + strings.Repeat(", (?)", len(keys)-1) + ` ON CONFLICT (line) DO NOTHING RETURNING line`
	rows, err := tx.QueryContext(ctx, s.q(query), keys...)
	if err != nil {
		return nil, err
	}
	taken := map[string]bool{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			rows.Close()
			return nil, err
		}
		taken[k] = true
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []Item
	for _, it := range chunk {
		if it.Key == "" || taken[it.Key] {
			delete(taken, it.Key) // a key twice in one chunk is one line
			out = append(out, it)
		}
	}
	return out, nil
}

// Insert stores one event, received at at.
func (s *Store) Insert(ctx context.Context, e event.Event, at time.Time) error {
	_, err := s.Keep(ctx, []Item{{Event: e, At: at}})
	return err
}

// Import stores e, received at at, unless an import already stored the
// line named key: running an import twice adds nothing the second time.
// It reports whether it stored the event.
func (s *Store) Import(ctx context.Context, key string, e event.Event, at time.Time) (bool, error) {
	n, err := s.Keep(ctx, []Item{{Event: e, At: at, Key: key}})
	return n == 1, err
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
	s := int(ms / 1000)
	switch {
	case s < 100:
		return s
	case s < 1000:
		return s / 10 * 10
	case s < 10000:
		return s / 100 * 100
	}
	return s / 1000 * 1000
}

// countCols are the roll-up's key columns, in Count's order.
const countCols = `day, name, path, ref, utm_source, utm_medium, utm_campaign, utm_term, utm_content, outreach, checkout, scrolled, visible_s`

// Counts returns the counts of the UTC days from to to, both included
// (YYYY-MM-DD), from the roll-up the database keeps, in a stable order
// (see SortCounts).
func (s *Store) Counts(ctx context.Context, from, to string) ([]Count, error) {
	const query = `SELECT ` + countCols + `, n FROM rollup WHERE day >= ? AND day <= ?`
	if !s.o.ReadOnly || s.postgres {
		return s.counts(ctx, query, from, to)
	}
	// Read-only SQLite: reading the rows is most of a report's time, and
	// the driver reads one row after another, so the days are read in
	// parts side by side, each on its own connection.
	parts, err := splitDays(from, to, readers)
	if err != nil {
		return nil, err
	}
	res := make([][]Count, len(parts))
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Go(func() { res[i], errs[i] = s.counts(ctx, query, p[0], p[1]) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	out := slices.Concat(res...)
	SortCounts(out)
	return out, nil
}

// readers is how many connections a read-only SQLite store reads with.
const readers = 2

// splitDays splits the UTC days from to to into at most n runs of days
// that follow each other, as [first, last] pairs.
func splitDays(from, to string, n int) ([][2]string, error) {
	a, err1 := time.Parse(time.DateOnly, from)
	b, err2 := time.Parse(time.DateOnly, to)
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	days := int(b.Sub(a).Hours()/24) + 1
	if days < n {
		return [][2]string{{from, to}}, nil
	}
	var out [][2]string
	for i := range n {
		first := a.AddDate(0, 0, i*days/n)
		last := a.AddDate(0, 0, (i+1)*days/n-1)
		out = append(out, [2]string{first.Format(time.DateOnly), last.Format(time.DateOnly)})
	}
	return out, nil
}

// countEvents is Counts from the raw events, for a test to hold the
// roll-up to.
func (s *Store) countEvents(ctx context.Context, from, to string) ([]Count, error) {
	return s.counts(ctx, `SELECT `+rollupCols("")+`, COUNT(*) FROM events WHERE day >= ? AND day <= ?
		GROUP BY `+rollupCols(""), from, to)
}

func (s *Store) counts(ctx context.Context, query, from, to string) ([]Count, error) {
	// A read-only transaction: a SELECT-only role reads, and nothing here
	// can write. SQLite's connection is read-only already when opened so.
	var tx *sql.Tx
	var err error
	if s.postgres {
		tx, err = s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.where, err)
	}
	var rows *sql.Rows
	if tx != nil {
		defer tx.Rollback()
		rows, err = tx.QueryContext(ctx, s.q(query), from, to)
	} else {
		rows, err = s.db.QueryContext(ctx, s.q(query), from, to)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.where, err)
	}
	defer rows.Close()
	var out []Count
	for rows.Next() {
		var c Count
		var scrolled int
		if err := rows.Scan(&c.Day, &c.Name, &c.Path, &c.Ref, &c.Source, &c.Medium, &c.Campaign, &c.Term, &c.Content, &c.Outreach, &c.Checkout, &scrolled, &c.VisibleS, &c.N); err != nil {
			return nil, fmt.Errorf("%s: %w", s.where, err)
		}
		c.Scrolled = scrolled == 1
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", s.where, err)
	}
	SortCounts(out)
	return out, nil
}

// SortCounts puts counts in the order of their fields, compared as bytes:
// the same in every backend, whatever the database's collation.
func SortCounts(cs []Count) {
	slices.SortFunc(cs, func(a, b Count) int {
		return cmp.Or(
			strings.Compare(a.Day, b.Day), strings.Compare(a.Name, b.Name),
			strings.Compare(a.Path, b.Path), strings.Compare(a.Ref, b.Ref),
			strings.Compare(a.Source, b.Source), strings.Compare(a.Medium, b.Medium),
			strings.Compare(a.Campaign, b.Campaign), strings.Compare(a.Term, b.Term),
			strings.Compare(a.Content, b.Content), strings.Compare(a.Outreach, b.Outreach),
			strings.Compare(a.Checkout, b.Checkout), boolCmp(a.Scrolled, b.Scrolled),
			cmp.Compare(a.VisibleS, b.VisibleS))
	})
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// Total is the number of events stored.
func (s *Store) Total(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM events`).Scan(&n)
	return n, err
}
