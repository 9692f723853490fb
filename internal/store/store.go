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
	"database/sql"
	"strconv"
	"strings"
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
