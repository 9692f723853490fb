// Keeping events: the rows an event becomes, a batch a transaction.

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"errref/internal/event"
)

// Columns are the events table's columns; a test holds the schema to them.
var Columns = []string{"ts", "day", "name", "path", "visible_ms", "scrolled", "ref",
	"utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "outreach", "checkout"}

// row is e received at at as a row of events, in Columns' order: UTC seconds,
// NULL for an empty path, ref or checkout and a field e lacks, scrolled 1 or 0.
func row(e event.Event, at time.Time) []any {
	at = at.UTC()
	null := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	utm := func(k string) any {
		if v, ok := e.Campaign[k]; ok {
			return v
		}
		return nil
	}
	var scrolled any
	if e.Scrolled != nil {
		scrolled = map[bool]int{false: 0, true: 1}[*e.Scrolled]
	}
	return []any{at.Unix(), at.Format(time.DateOnly), e.Name, null(e.Path), deref(e.VisibleMS), scrolled, null(e.Ref),
		utm("utm_source"), utm("utm_medium"), utm("utm_campaign"), utm("utm_term"), utm("utm_content"),
		deref(e.Outreach), null(e.Checkout)}
}

// deref is *p, or nil (SQL's NULL) for a nil p.
func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// Item is one event to keep, the time it arrived and, for an imported line, its key.
type Item struct {
	Event event.Event
	At    time.Time
	Key   string
}

// rowsPerStatement keeps a multi-row INSERT under SQLite's 32,766 bound
// values (14 a row) and PostgreSQL's 65,535.
const rowsPerStatement = 2000

// Keep stores items in one transaction, all or none, but those whose key an
// earlier import took, and returns how many it stored. Two statements for each
// 2,000 items bound the round trips to PostgreSQL.
func (s *Store) Keep(ctx context.Context, items []Item) (stored int, err error) {
	defer func() {
		if err != nil {
			stored, err = 0, fmt.Errorf("%s: storing %d events: %w", s.where, len(items), err)
			if sqliteCode(err, 5) {
				err = fmt.Errorf("%w\nanother program is writing %s (a report taking a journal, an -import): run this again once it ends", err, s.where)
			}
		}
	}()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var xid int64 // to ask after a lost COMMIT; a failure here fails the INSERT too
	if s.postgres {
		tx.QueryRowContext(ctx, `SELECT txid_current()`).Scan(&xid)
	}
	values := "(?" + strings.Repeat(", ?", len(Columns)-1) + ")"
	insert := `INSERT INTO events (` + strings.Join(Columns, ", ") + `) VALUES ` + values
	for chunk := range slices.Chunk(items, rowsPerStatement) {
		if chunk, err = s.newLines(ctx, tx, chunk); err != nil {
			return 0, err
		}
		if len(chunk) == 0 {
			continue
		}
		args := make([]any, 0, len(chunk)*len(Columns))
		for _, it := range chunk {
			args = append(args, row(it.Event, it.At)...)
		}
		if _, err := tx.ExecContext(ctx, s.q(insert+strings.Repeat(", "+values, len(chunk)-1)), args...); err != nil {
			return 0, err
		}
		stored += len(chunk)
	}
	if err := tx.Commit(); err != nil {
		if took, known := s.committed(xid); !known {
			return 0, fmt.Errorf("%w: %v", errFateUnknown, err)
		} else if !took {
			return 0, err
		}
	}
	return stored, nil
}

// errFateUnknown is a batch whose COMMIT's answer was lost, from a server that
// could not be asked after: the Writer keeps it nowhere else, as it may be stored.
var errFateUnknown = errors.New("the answer to COMMIT was lost and the server could not be asked whether it took: the events may be stored, so they are not written as not stored, which -import would count twice")

// committed reports whether PostgreSQL committed xid after all, and whether it
// could tell in 2 s: a connection lost after COMMIT may have lost only its
// answer, and events both stored and logged as not stored would be counted
// twice.
func (s *Store) committed(xid int64) (took, known bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for xid != 0 && ctx.Err() == nil {
		var status sql.NullString
		if s.db.QueryRowContext(ctx, `SELECT txid_status($1)`, xid).Scan(&status) == nil && status.String != "in progress" {
			return status.String == "committed", true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false, xid == 0
}

// newLines records the keys of chunk's imported items and returns those to
// store: without a key, or with one no import (nor an earlier item) took.
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
	rows, err := tx.QueryContext(ctx, s.q(`INSERT INTO imported (line) VALUES (?)`+strings.Repeat(", (?)", len(keys)-1)+` ON CONFLICT (line) DO NOTHING RETURNING line`), keys...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	taken := map[string]bool{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		taken[k] = true
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
