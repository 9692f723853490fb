// The storefront's sales: one row a sale under its key, so a later export (a refund) changes it.

package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"errref/internal/event"
	"errref/internal/sales"
	"errref/internal/tally"
)

// SalesResult counts what an import of sales did.
type SalesResult struct {
	Added   int // sales not seen before
	Changed int // sales an earlier import took, whose day, product, amount or kept changed
	Again   int // sales an earlier import took as they are
	Kept    int // of all three, the sales neither fully refunded nor lost in a dispute
	Cents   int64
}

// KeepSales stores the sales each hands it (see sales.Read) in one transaction, all or none.
func (s *Store) KeepSales(ctx context.Context, each func(keep func(sales.Record) error) error) (SalesResult, error) {
	var res SalesResult
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("%s: %w", s.where, err)
	}
	defer tx.Rollback()
	err = each(func(r sales.Record) error {
		kept := 0
		if r.Kept {
			kept = 1
			res.Kept, res.Cents = res.Kept+1, res.Cents+r.Cents
		}
		var day, product string
		cents, was := r.Cents, kept // the stored sale's, if there is one
		err := tx.QueryRowContext(ctx, s.q(`SELECT day, product, cents, kept FROM sales WHERE key = ?`), r.Key).Scan(&day, &product, &cents, &was)
		// Refunds and disputes only come, partial refunds only grow: an export older
		// than one taken before (overlapping files, in any order) undoes none.
		if !r.Won {
			kept = min(kept, was)
		}
		// A Gumroad sale's amount only falls (refunds); a chain payment's is the sum of the
		// transfers an export holds, which a later export may show grown.
		if r.Channel == event.Gumroad {
			r.Cents = min(r.Cents, cents)
		}
		switch {
		case err == nil && day == r.Day && product == r.Product && cents == r.Cents && was == kept:
			res.Again++
			return nil
		case err == nil:
			_, err = tx.ExecContext(ctx, s.q(`UPDATE sales SET day = ?, product = ?, cents = ?, kept = ? WHERE key = ?`), r.Day, r.Product, r.Cents, kept, r.Key)
			res.Changed++
		default:
			_, err = tx.ExecContext(ctx, s.q(`INSERT INTO sales (key, day, channel, product, cents, kept) VALUES (?, ?, ?, ?, ?, ?)`), r.Key, r.Day, r.Channel, r.Product, r.Cents, kept)
			res.Added++
		}
		if err != nil {
			return fmt.Errorf("%s: storing a sale of %s: %w", s.where, r.Day, err)
		}
		return nil
	})
	if err != nil {
		return SalesResult{}, err
	}
	if err := tx.Commit(); err != nil {
		return SalesResult{}, fmt.Errorf("%s: %w", s.where, err)
	}
	return res, nil
}

// ErrSalesDenied is Sales' error when the role may not read sales: granted before migration 5 made them.
var ErrSalesDenied = errors.New("this role may not read the table sales")

// Sales returns the kept sales of the UTC days from to to, both included, by day, channel and product:
// no site's of $0.00, dust (address poisoning) that releases up to 5413124 kept.
func (s *Store) Sales(ctx context.Context, from, to string) (out []tally.Sale, err error) {
	defer func() {
		if err != nil {
			out, err = nil, fmt.Errorf("%s: %w", s.where, err)
		}
	}()
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT day, channel, product, COUNT(*), SUM(cents) FROM sales
		WHERE kept = 1 AND (cents > 0 OR channel = 'gumroad') AND day >= ? AND day <= ? GROUP BY day, channel, product ORDER BY day, channel, product`), from, to)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42501" { // insufficient_privilege
		var role string
		s.db.QueryRowContext(ctx, `SELECT quote_ident(current_user)`).Scan(&role)
		return nil, fmt.Errorf("%w: as the schema's owner, run GRANT SELECT ON sales TO %s;", ErrSalesDenied, role)
	}
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
