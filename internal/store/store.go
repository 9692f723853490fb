// Package store keeps the counter's events, in a SQLite file (pure Go) or
// in PostgreSQL when a database URL is given: one row an event, what the
// contract sends and the server's UTC time to the second, no IP, no user
// agent, no header. The report reads a roll-up that a trigger on events
// keeps, so whoever inserts an event (an older release, psql) is counted
// once. Both backends share the SQL but for placeholders, the trigger and
// the migrations' lock.
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

// Columns are the events table's columns; a test holds the schema to them.
var Columns = []string{"ts", "day", "name", "path", "visible_ms", "scrolled", "ref",
	"utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "outreach", "checkout"}

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// String names the store for messages, never with a password.
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
