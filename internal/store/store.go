// Package store keeps the counter's events in a SQLite file (pure Go) or
// PostgreSQL: one row an event, what the contract sends and the server's
// UTC time to the second, no IP, no user agent, no header. The report reads
// a roll-up that a trigger on events keeps, so an event inserted by anyone
// (an older release, psql) is counted once.
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
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// Store is an open store of events. It is safe for concurrent use.
type Store struct {
	db                 *sql.DB
	postgres, readOnly bool
	where              string // for messages: the file, or Describe's words
}

func (s *Store) Close() error { return s.db.Close() }

// String names the store for messages, never with a password.
func (s *Store) String() string { return s.where }

// q writes a query's ? placeholders as the backend wants them.
func (s *Store) q(query string) string {
	if !s.postgres {
		return query
	}
	parts := strings.Split(query, "?")
	for i := 1; i < len(parts); i++ {
		parts[i] = "$" + strconv.Itoa(i) + parts[i]
	}
	return strings.Join(parts, "")
}

// Options tune a store for its process.
type Options struct {
	MaxConns int           // PostgreSQL connections at most; 4 when zero
	ReadOnly bool          // open for reading (a store behind is still migrated when the caller may)
	Create   bool          // make a missing SQLite file, else a mistyped path is an error
	Timeout  time.Duration // to connect to PostgreSQL; 5 s when zero
}

// Open opens the store dsn names (a PostgreSQL URL or keyword string, or a
// file), migrating one that is behind and refusing a newer one; one up to date
// gets no DDL and no lock.
func Open(ctx context.Context, dsn string, o Options) (*Store, error) {
	s := &Store{postgres: IsPostgres(dsn), readOnly: o.ReadOnly, where: Describe(dsn)}
	var err error
	if s.postgres {
		s.db, err = openPostgres(dsn, o)
	} else {
		if _, err := os.Stat(dsn); !o.Create && errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such store (a mistyped path? -import and -migrate create one)", dsn)
		}
		s.db, err = openSQLite(dsn, o.ReadOnly, false)
	}
	if err != nil {
		return nil, err
	}
	if err = s.upToDate(ctx); err == nil && s.postgres && !o.ReadOnly {
		err = s.mayAdd(ctx)
	}
	if err != nil && o.ReadOnly && !s.postgres && sqliteCode(err, 8, 14) {
		// A WAL file in a folder this user may not write: SQLite cannot make the -shm file, and
		// no writer can be at work: read the file as it is, unless a -wal holds events it leaves out.
		s.db.Close()
		if fi, err := os.Stat(dsn + "-wal"); err == nil && fi.Size() > 0 {
			return nil, fmt.Errorf("%s-wal holds events not yet in %s (its writer stopped short), which only a user who may write %s can read: run this as one", dsn, dsn, filepath.Dir(dsn))
		}
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

// mayAdd refuses a role that may not add events (a reader's URL in DATABASE_URL),
// rather than open a writer whose every batch would then fail.
func (s *Store) mayAdd(ctx context.Context) error {
	var ok bool
	if err := s.db.QueryRowContext(ctx, `SELECT has_table_privilege('events', 'INSERT')`).Scan(&ok); err != nil || ok {
		return err
	}
	return errors.New("this role may not add events (INSERT on events), as a reader's may not: give the preview a writer's URL, and -import the owner's (docs/store.md)")
}

func openPostgres(dsn string, o Options) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		// pgx's message may quote the string, password and all.
		return nil, errors.New("the PostgreSQL address cannot be read: check its form (postgres://user:password@host:port/database or host=… dbname=… user=…)")
	}
	// No prepared statements: behind PgBouncer in transaction mode (Netlify
	// Database, Neon) the next transaction may get another server connection.
	cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
	cfg.ConnectTimeout = cmp.Or(cfg.ConnectTimeout, o.Timeout, 5*time.Second)
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(cmp.Or(o.MaxConns, 4))
	db.SetMaxIdleConns(cmp.Or(o.MaxConns, 4))
	// A connection idle through a Lambda freeze may be dead on thaw:
	// database/sql drops it on error and dials anew.
	db.SetConnMaxIdleTime(2 * time.Minute)
	return db, nil
}

// sqliteCode reports whether err is a SQLite error whose primary code is
// one of codes (SQLITE_READONLY is 8, SQLITE_CANTOPEN 14).
func sqliteCode(err error, codes ...int) bool {
	var coded interface{ Code() int }
	return errors.As(err, &coded) && slices.Contains(codes, coded.Code()&0xff)
}

func openSQLite(path string, readOnly, immutable bool) (*sql.DB, error) {
	// Only the commands that keep a file link the driver: the function stays small.
	if !slices.Contains(sql.Drivers(), "sqlite") {
		return nil, fmt.Errorf("%s: this program cannot open a SQLite file: give a PostgreSQL URL", path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	// A file: URI escapes # ? % and spaces, so that "C# site/events.db" is
	// not a file "C" with a fragment; C:/x on Windows is file:///C:/x.
	uri := (&url.URL{Scheme: "file", Path: "/" + strings.TrimPrefix(filepath.ToSlash(abs), "/")}).String()
	v := url.Values{}
	v.Add("_pragma", "busy_timeout(5000)")
	if readOnly {
		// mode=ro opens a file the user may not write; query_only makes sure nothing tries.
		v.Set("mode", "ro")
		v.Add("_pragma", "query_only(1)")
		if immutable {
			v.Set("immutable", "1")
		}
	} else {
		// WAL lets the report read during a write; NORMAL syncs only at
		// checkpoints; BEGIN IMMEDIATE takes the write lock up front: two
		// migrating processes wait, not fail.
		v.Add("_pragma", "journal_mode(WAL)")
		v.Add("_pragma", "synchronous(NORMAL)")
		v.Add("_pragma", "cache_size(-32768)") // 32 MB: an import's keys land all over their index
		v.Set("_txlock", "immediate")
	}
	// No error: the driver is registered (above), and modernc's has no
	// OpenConnector to fail.
	db, _ := sql.Open("sqlite", uri+"?"+v.Encode())
	// One connection: SQLite serialises writes anyway; a pool's queue beats busy retries.
	db.SetMaxOpenConns(1)
	return db, nil
}

// keywordRE is the start of a libpq keyword/value string: "host=db dbname=x user=y".
var keywordRE = regexp.MustCompile(`^\s*([a-z_]+)\s*=`)

// libpqKeys make a string a connection string rather than a file whose name holds "=".
var libpqKeys = []string{"host", "hostaddr", "port", "dbname", "user", "password", "passfile",
	"sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout", "application_name",
	"options", "service", "servicefile", "target_session_attrs", "search_path"}

// IsPostgres reports whether dsn is a postgres:// URL or libpq keyword string, not a file.
func IsPostgres(dsn string) bool {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return true
	}
	m := keywordRE.FindStringSubmatch(dsn)
	return m != nil && slices.Contains(libpqKeys, m[1])
}

// Locate picks the store, and the variable that named it ("" for file):
// DATABASE_URL, else NETLIFY_DB_URL, else SITE_EVENTS_DB, else file. A database
// variable that holds no PostgreSQL address is an error, not an empty file store.
func Locate(getenv func(string) string, file string) (dsn, from string, err error) {
	for _, k := range []string{"DATABASE_URL", "NETLIFY_DB_URL", "SITE_EVENTS_DB"} {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			if k != "SITE_EVENTS_DB" && !IsPostgres(v) {
				return "", k, fmt.Errorf("%s is set but is neither a postgres:// URL nor a key=value connection string (dbname=… user=…): fix it or unset it", k)
			}
			return v, k, nil
		}
	}
	return file, "", nil
}

// Describe names the store at dsn for messages, never with the password.
func Describe(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return "an unreadable PostgreSQL address"
	}
	return fmt.Sprintf("postgres %s:%d/%s as %s", cfg.Host, cfg.Port, cfg.Database, cfg.User)
}
