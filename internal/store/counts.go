// Reading the roll-up of counts the database keeps, in a stable order.

package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"errref/internal/event"
	"errref/internal/tally"
)

// countCols are the roll-up's key columns, in the order counts scans them
// (scrolled as 0 or 1, a ref in lower case, as releases before c6f8ccb did not keep com.Slack), then n.
const countCols = `day, name, path, LOWER(ref), utm_source, utm_medium, utm_campaign, utm_term, utm_content, outreach, checkout, scrolled, visible_s`

// Counts returns the roll-up's counts of the UTC days from to to, both included, in SortCounts' order.
func (s *Store) Counts(ctx context.Context, from, to string) ([]tally.Count, error) {
	const query = `SELECT ` + countCols + `, n FROM rollup WHERE day >= ? AND day <= ?`
	return s.counts(ctx, query, from, to)
}

func (s *Store) counts(ctx context.Context, query, from, to string) (_ []tally.Count, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("%s: %w", s.where, err)
		}
	}()
	// A read-only transaction: a SELECT-only role reads, nothing here can write,
	// and the count and the rows are of one snapshot (SQLite takes no write lock).
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	// The rows are counted first, so that the slice is made once: at
	// 240,000 rows, growing it by appending was a third of the read.
	var n int
	if err := tx.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM rollup WHERE day >= ? AND day <= ?`), from, to).Scan(&n); err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, s.q(query), from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]tally.Count, 0, n)
	for rows.Next() {
		var c tally.Count
		var scrolled int
		if err := rows.Scan(&c.Day, &c.Name, &c.Path, &c.Ref, &c.Source, &c.Medium, &c.Campaign, &c.Term,
			&c.Content, &c.Outreach, &c.Checkout, &scrolled, &c.VisibleS, &c.N); err != nil {
			return nil, err
		}
		c.Scrolled = scrolled == 1
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	tally.SortCounts(out)
	return out, nil
}

// Total is the number of events stored.
func (s *Store) Total(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM events`).Scan(&n)
	return n, err
}

// CountOf is the roll-up's key of one event, as the trigger makes it from its row.
func CountOf(it Item) tally.Count {
	e := it.Event
	c := tally.Count{Day: it.At.UTC().Format(time.DateOnly), Name: e.Name, Path: e.Path, Ref: e.Ref,
		Source: e.Campaign["utm_source"], Medium: e.Campaign["utm_medium"], Campaign: e.Campaign["utm_campaign"],
		Term: e.Campaign["utm_term"], Content: e.Campaign["utm_content"],
		Checkout: e.Checkout, Scrolled: e.Scrolled != nil && *e.Scrolled}
	if e.Outreach != nil {
		c.Outreach = *e.Outreach
	}
	if e.Name == event.Engaged && e.VisibleMS != nil {
		c.VisibleS = tally.VisibleBucket(*e.VisibleMS)
	}
	return c
}

// Empty reports whether the store holds no event, from the roll-up, which the report's role may read.
func (s *Store) Empty(ctx context.Context) (bool, error) {
	var empty bool
	err := s.db.QueryRowContext(ctx, `SELECT NOT EXISTS (SELECT 1 FROM rollup)`).Scan(&empty)
	if err != nil {
		return false, fmt.Errorf("%s: %w", s.where, err)
	}
	return empty, nil
}
