package store

import (
	"context"
	"slices"
	"time"

	"errref/internal/event"
)

// The statements of the two releases that may still write to a store
// this release migrated, exactly as they shipped (git show
// dbc78ec:internal/store/store.go, git show 77aa49a:internal/store/store.go).

// insertSQLOlder is both releases' insert of an event.
const insertSQLOlder = `INSERT INTO events (ts, day, name, path, visible_ms, scrolled, ref,
	utm_source, utm_medium, utm_campaign, utm_term, utm_content, outreach, checkout)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`

// rowOlder is an event's values for insertSQLOlder, in its columns' order.
func rowOlder(e event.Event, at time.Time) []any {
	return rowOf(e, at, []string{"ts", "day", "name", "path", "visible_ms", "scrolled", "ref",
		"utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content", "outreach", "checkout"})
}

// rowOf is row's values for columns, in their order.
func rowOf(e event.Event, at time.Time, columns []string) []any {
	r := row(e, at)
	out := make([]any, len(columns))
	for i, c := range columns {
		out[i] = r[slices.Index(Columns, c)]
	}
	return out
}

// dbc78ec, before any roll-up: Insert is one statement.
func insertDbc78ec(ctx context.Context, s *Store, e event.Event, at time.Time) error {
	_, err := s.db.ExecContext(ctx, s.q(insertSQLOlder), rowOlder(e, at)...)
	return err
}

// dbc78ec's and 77aa49a's Import: the line's key, then the event (77aa49a
// bumps daily too).
func importDbc78ec(ctx context.Context, s *Store, key string, e event.Event, at time.Time) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO imported (line) VALUES (?) ON CONFLICT (line) DO NOTHING`), key); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.q(insertSQLOlder), rowOlder(e, at)...); err != nil {
		return err
	}
	return tx.Commit()
}

// countSQL77aa49a adds one to the event's count in the daily roll-up.
const countSQL77aa49a = `INSERT INTO daily (day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled, n)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
	ON CONFLICT (day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled)
	DO UPDATE SET n = daily.n + 1`

// counted77aa49a is the event's values for countSQL77aa49a, as daily
// keys them: NULL as the empty string and 0.
func counted77aa49a(e event.Event, at time.Time) []any {
	args := rowOf(e, at, []string{"day", "name", "path", "ref", "utm_source", "utm_medium", "utm_campaign", "outreach", "checkout", "scrolled"})
	for i, v := range args[:len(args)-1] {
		if v == nil {
			args[i] = ""
		}
	}
	if args[len(args)-1] == nil {
		args[len(args)-1] = 0
	}
	return args
}

// 77aa49a: the event and its daily count in one transaction.
func insert77aa49a(ctx context.Context, s *Store, e event.Event, at time.Time) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, s.q(insertSQLOlder), rowOlder(e, at)...); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.q(countSQL77aa49a), counted77aa49a(e, at)...); err != nil {
		return err
	}
	return tx.Commit()
}

func import77aa49a(ctx context.Context, s *Store, key string, e event.Event, at time.Time) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO imported (line) VALUES (?) ON CONFLICT (line) DO NOTHING`), key); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.q(insertSQLOlder), rowOlder(e, at)...); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.q(countSQL77aa49a), counted77aa49a(e, at)...); err != nil {
		return err
	}
	return tx.Commit()
}

// total77aa49a is what the 77aa49a release's report counts for the days
// from to to: its Counts read daily, exactly this query, and add up n.
func total77aa49a(ctx context.Context, s *Store, from, to string) (int, error) {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled, n
		FROM daily WHERE day >= ? AND day <= ?
		ORDER BY day, name, path, ref, utm_source, utm_medium, utm_campaign, outreach, checkout, scrolled`), from, to)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	total := 0
	for rows.Next() {
		var day, name, path, ref, source, medium, campaign, outreach, checkout string
		var scrolled, n int
		if err := rows.Scan(&day, &name, &path, &ref, &source, &medium, &campaign, &outreach, &checkout, &scrolled, &n); err != nil {
			return 0, err
		}
		total += n
	}
	return total, rows.Err()
}
