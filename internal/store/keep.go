// Keeping events: the rows an event becomes, and writing batches of them
// in one transaction, each imported line once.

package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"errref/internal/event"
)

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
