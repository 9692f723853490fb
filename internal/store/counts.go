// Reading the roll-up of counts the database keeps, in a stable order;
// and the storefront's sales.

package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"errref/internal/sales"
	"errref/internal/tally"
)

// countCols are the roll-up's key columns, in the order counts scans them
// (scrolled as 0 or 1), then n.
const countCols = `day, name, path, ref, utm_source, utm_medium, utm_campaign, utm_term, utm_content, outreach, checkout, scrolled, visible_s`

// Counts returns the roll-up's counts of the UTC days from to to (both
// included, YYYY-MM-DD), in SortCounts' order.
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
	// A read-only transaction: a SELECT-only role reads, nothing here can
	// write, and the count and the rows are of one snapshot. (SQLite begins
	// it deferred, taking no write lock.)
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

// CountOf is the roll-up's key of one event, as the trigger makes it from
// the event's row.
func CountOf(it Item) tally.Count {
	e := it.Event
	c := tally.Count{Day: it.At.UTC().Format(time.DateOnly), Name: e.Name, Path: e.Path, Ref: e.Ref,
		Source: e.Campaign["utm_source"], Medium: e.Campaign["utm_medium"], Campaign: e.Campaign["utm_campaign"],
		Term: e.Campaign["utm_term"], Content: e.Campaign["utm_content"],
		Checkout: e.Checkout, Scrolled: e.Scrolled != nil && *e.Scrolled}
	if e.Outreach != nil {
		c.Outreach = *e.Outreach
	}
	if e.Name == "engaged" && e.VisibleMS != nil {
		c.VisibleS = tally.VisibleBucket(*e.VisibleMS)
	}
	return c
}

// Empty reports whether the store holds neither an event nor a sale. It
// reads what the report's role may read: the roll-up, not the events.
func (s *Store) Empty(ctx context.Context) (bool, error) {
	var empty bool
	err := s.db.QueryRowContext(ctx, `SELECT NOT EXISTS (SELECT 1 FROM rollup) AND NOT EXISTS (SELECT 1 FROM sales)`).Scan(&empty)
	if err != nil {
		return false, fmt.Errorf("%s: %w", s.where, err)
	}
	return empty, nil
}

// SalesResult counts what an import of sales did.
type SalesResult struct {
	Added   int // sales not seen before
	Changed int // sales an earlier import took, whose day, product, amount or kept changed
	Again   int // sales an earlier import took as they are
}

// KeepSales stores recs in one transaction, all or none: one row a sale
// under its key, so a later export (a refund) changes the sale rather than
// adding one.
func (s *Store) KeepSales(ctx context.Context, recs []sales.Record) (SalesResult, error) {
	var res SalesResult
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("%s: %w", s.where, err)
	}
	defer tx.Rollback()
	for _, r := range recs {
		kept := 0
		if r.Kept {
			kept = 1
		}
		var day, product string
		var cents int64
		var was int
		err := tx.QueryRowContext(ctx, s.q(`SELECT day, product, cents, kept FROM sales WHERE key = ?`), r.Key).Scan(&day, &product, &cents, &was)
		switch {
		case err == nil && day == r.Day && product == r.Product && cents == r.Cents && was == kept:
			res.Again++
			continue
		case err == nil:
			_, err = tx.ExecContext(ctx, s.q(`UPDATE sales SET day = ?, product = ?, cents = ?, kept = ? WHERE key = ?`), r.Day, r.Product, r.Cents, kept, r.Key)
			res.Changed++
		default:
			_, err = tx.ExecContext(ctx, s.q(`INSERT INTO sales (key, day, channel, product, cents, kept) VALUES (?, ?, ?, ?, ?, ?)`), r.Key, r.Day, r.Channel, r.Product, r.Cents, kept)
			res.Added++
		}
		if err != nil {
			return SalesResult{}, fmt.Errorf("%s: storing a sale of %s: %w", s.where, r.Day, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return SalesResult{}, fmt.Errorf("%s: %w", s.where, err)
	}
	return res, nil
}

// Sales returns the kept sales of the UTC days from to to, both included,
// by day, channel and product.
func (s *Store) Sales(ctx context.Context, from, to string) (out []tally.Sale, err error) {
	defer func() {
		if err != nil {
			out, err = nil, fmt.Errorf("%s: %w", s.where, err)
		}
	}()
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT day, channel, product, COUNT(*), SUM(cents) FROM sales
		WHERE kept = 1 AND day >= ? AND day <= ? GROUP BY day, channel, product ORDER BY day, channel, product`), from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var x tally.Sale
		if err := rows.Scan(&x.Day, &x.Channel, &x.Product, &x.N, &x.Cents); err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, rows.Err()
}
