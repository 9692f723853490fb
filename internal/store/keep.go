// Keeping events: the rows an event becomes, a batch a transaction.

package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"errref/internal/event"
)

// record is an event as a row of events holds it, by column: nil (NULL)
// for an empty path, ref or checkout and for a field the event lacks,
// scrolled as 1 or 0.
type record map[string]any

// recordOf is e received at at, in UTC to the second.
func recordOf(e event.Event, at time.Time) record {
	at = at.UTC()
	null := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	r := record{"ts": at.Unix(), "day": at.Format(time.DateOnly), "name": e.Name, "path": null(e.Path),
		"visible_ms": deref(e.VisibleMS), "scrolled": nil, "ref": null(e.Ref),
		"outreach": deref(e.Outreach), "checkout": null(e.Checkout)}
	if e.Scrolled != nil {
		r["scrolled"] = map[bool]int{false: 0, true: 1}[*e.Scrolled]
	}
	for _, k := range []string{"utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"} {
		r[k] = nil
		if v, ok := e.Campaign[k]; ok {
			r[k] = v
		}
	}
	return r
}

// args are the record's values for columns, in their order.
func (r record) args(columns []string) []any {
	out := make([]any, len(columns))
	for i, c := range columns {
		x, ok := r[c]
		if !ok {
			panic("store: the events table has no column " + c) // a test reads every one of Columns
		}
		out[i] = x
	}
	return out
}

// deref is *p, or nil (SQL's NULL) for a nil p.
func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
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

// Keep stores items in one transaction, all or none, leaving out those
// whose key an earlier import took, and returns how many it stored. Two
// statements for each 2,000 items bound the round trips to PostgreSQL.
func (s *Store) Keep(ctx context.Context, items []Item) (stored int, err error) {
	defer func() {
		if err != nil {
			stored, err = 0, fmt.Errorf("%s: storing %d events: %w", s.where, len(items), err)
		}
	}()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
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
			b.WriteString("(?" + strings.Repeat(", ?", len(Columns)-1) + ")")
			args = append(args, recordOf(it.Event, it.At).args(Columns)...)
		}
		if _, err := tx.ExecContext(ctx, s.q(b.String()), args...); err != nil {
			return 0, err
		}
		stored += len(chunk)
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
	if err := cmp.Or(rows.Close(), rows.Err()); err != nil {
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
