// Which store an address names, and how messages name it: a PostgreSQL
// URL or keyword string, or a SQLite file.

package store

import (
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// keywordRE is the start of a libpq keyword/value connection string, as
// pgx.ParseConfig reads one: "host=db dbname=x user=y".
var keywordRE = regexp.MustCompile(`^\s*([a-z_]+)\s*=`)

// libpqKeys are the keywords that make a string a connection string rather
// than a file whose name holds "=".
var libpqKeys = []string{"host", "hostaddr", "port", "dbname", "user", "password", "passfile",
	"sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout", "application_name",
	"options", "service", "servicefile", "target_session_attrs", "search_path"}

// IsPostgres reports whether dsn is a postgres:// URL or a libpq
// keyword/value string rather than a SQLite file.
func IsPostgres(dsn string) bool {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		return true
	}
	m := keywordRE.FindStringSubmatch(dsn)
	return m != nil && slices.Contains(libpqKeys, m[1])
}

// Locate picks the store, and the variable that named it ("" for file):
// DATABASE_URL, else NETLIFY_DB_URL, else SITE_EVENTS_DB, else file. A
// database variable that holds no PostgreSQL address is an error: read as
// a file, it would be an empty store and a report of zeros.
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
	return fmt.Sprintf("postgres %s:%d/%s as %s", cfg.Host, cfg.Port, cfg.Database, cfg.User)
}

// FileURI is path as a SQLite file: URI, with # ? % and spaces escaped so
// that "C# site/events.db" is not a file "C" with a fragment.
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
