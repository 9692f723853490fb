// Counting events: reading the roll-up of counts the database keeps, in
// a stable order, in parts side by side where that is faster.

package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// Count is how many events of one kind a day holds: those that agree on
// every field below. The report adds them up in whichever way it needs.
type Count struct {
	Day, Name, Path, Ref                              string
	Source, Medium, Campaign, Term, Content, Outreach string
	Checkout                                          string
	Scrolled                                          bool
	VisibleS                                          int // engaged events only: see VisibleBucket; 0 for every other event
	N                                                 int
}

// VisibleBucket is the roll-up's key for an engaged event's visible_ms: whole seconds
// to two significant figures (95 s, 140 s, 1,200 s), so that a median and quartiles
// read from the roll-up are within 10% of the raw figure while the roll-up stays small.
func VisibleBucket(ms int64) int {
	s := int(ms / 1000)
	switch {
	case s < 100:
		return s
	case s < 1000:
		return s / 10 * 10
	case s < 10000:
		return s / 100 * 100
	}
	return s / 1000 * 1000
}

// countCols are the roll-up's key columns, in Count's order.
const countCols = `day, name, path, ref, utm_source, utm_medium, utm_campaign, utm_term, utm_content, outreach, checkout, scrolled, visible_s`

// Counts returns the counts of the UTC days from to to, both included
// (YYYY-MM-DD), from the roll-up the database keeps, in a stable order
// (see SortCounts).
func (s *Store) Counts(ctx context.Context, from, to string) ([]Count, error) {
	const query = `SELECT ` + countCols + `, n FROM rollup WHERE day >= ? AND day <= ?`
	if !s.o.ReadOnly || s.postgres {
		return s.counts(ctx, query, from, to)
	}
	// Read-only SQLite: reading the rows is most of a report's time, and
	// the driver reads one row after another, so the days are read in
	// parts side by side, each on its own connection.
	parts, err := splitDays(from, to, readers)
	if err != nil {
		return nil, err
	}
	res := make([][]Count, len(parts))
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		wg.Go(func() { res[i], errs[i] = s.counts(ctx, query, p[0], p[1]) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	out := slices.Concat(res...)
	SortCounts(out)
	return out, nil
}

// readers is how many connections a read-only SQLite store reads with.
const readers = 2

// splitDays splits the UTC days from to to into at most n runs of days
// that follow each other, as [first, last] pairs.
func splitDays(from, to string, n int) ([][2]string, error) {
	a, err1 := time.Parse(time.DateOnly, from)
	b, err2 := time.Parse(time.DateOnly, to)
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	days := int(b.Sub(a).Hours()/24) + 1
	if days < n {
		return [][2]string{{from, to}}, nil
	}
	var out [][2]string
	for i := range n {
		first := a.AddDate(0, 0, i*days/n)
		last := a.AddDate(0, 0, (i+1)*days/n-1)
		out = append(out, [2]string{first.Format(time.DateOnly), last.Format(time.DateOnly)})
	}
	return out, nil
}

func (s *Store) counts(ctx context.Context, query, from, to string) ([]Count, error) {
	// A read-only transaction: a SELECT-only role reads, and nothing here
	// can write. SQLite's connection is read-only already when opened so.
	var tx *sql.Tx
	var err error
	if s.postgres {
		tx, err = s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.where, err)
	}
	var rows *sql.Rows
	if tx != nil {
		defer tx.Rollback()
		rows, err = tx.QueryContext(ctx, s.q(query), from, to)
	} else {
		rows, err = s.db.QueryContext(ctx, s.q(query), from, to)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.where, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.where, err)
	}
	var c Count
	var scrolled int
	dest, err := countFields(&c, &scrolled, cols)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.where, err)
	}
	var out []Count
	for rows.Next() {
		c, scrolled = Count{}, 0
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("%s: %w", s.where, err)
		}
		c.Scrolled = scrolled == 1
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", s.where, err)
	}
	SortCounts(out)
	return out, nil
}

// countFields are the fields of c that a query's columns fill, by the
// columns' names, so that no column lands in another's field whatever
// their order. scrolled receives the 0 or 1 of c.Scrolled. A column that
// is not a field of Count, or a field that no column fills, is an error.
func countFields(c *Count, scrolled *int, cols []string) ([]any, error) {
	fields := map[string]any{"day": &c.Day, "name": &c.Name, "path": &c.Path, "ref": &c.Ref,
		"utm_source": &c.Source, "utm_medium": &c.Medium, "utm_campaign": &c.Campaign, "utm_term": &c.Term,
		"utm_content": &c.Content, "outreach": &c.Outreach, "checkout": &c.Checkout, "scrolled": scrolled,
		"visible_s": &c.VisibleS, "n": &c.N}
	dest := make([]any, len(cols))
	for i, col := range cols {
		f, ok := fields[col]
		if !ok {
			return nil, fmt.Errorf("reading counts: column %q is no field of a count", col)
		}
		dest[i] = f
		delete(fields, col)
	}
	if len(fields) > 0 {
		return nil, fmt.Errorf("reading counts: %d fields of a count have no column, among them %s", len(fields), slices.Sorted(maps.Keys(fields))[0])
	}
	return dest, nil
}

// SortCounts puts counts in the order of their fields, compared as bytes:
// the same in every backend, whatever the database's collation.
func SortCounts(cs []Count) {
	slices.SortFunc(cs, func(a, b Count) int {
		return cmp.Or(
			strings.Compare(a.Day, b.Day), strings.Compare(a.Name, b.Name),
			strings.Compare(a.Path, b.Path), strings.Compare(a.Ref, b.Ref),
			strings.Compare(a.Source, b.Source), strings.Compare(a.Medium, b.Medium),
			strings.Compare(a.Campaign, b.Campaign), strings.Compare(a.Term, b.Term),
			strings.Compare(a.Content, b.Content), strings.Compare(a.Outreach, b.Outreach),
			strings.Compare(a.Checkout, b.Checkout), boolCmp(a.Scrolled, b.Scrolled),
			cmp.Compare(a.VisibleS, b.VisibleS))
	})
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// Total is the number of events stored.
func (s *Store) Total(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM events`).Scan(&n)
	return n, err
}

// CountOf is the roll-up's key of one event, as the trigger makes it from
// the event's row: each field read from the column of its name.
func CountOf(it Item) Count {
	r := recordOf(it.Event, it.At)
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	c := Count{Day: r.day, Name: r.name, Path: r.path, Ref: r.ref,
		Source: str(r.utmSource), Medium: str(r.utmMedium), Campaign: str(r.utmCampaign),
		Term: str(r.utmTerm), Content: str(r.utmContent), Outreach: str(r.outreach),
		Checkout: r.checkout, Scrolled: r.scrolled != nil && *r.scrolled}
	if r.name == "engaged" && r.visibleMS != nil {
		c.VisibleS = VisibleBucket(*r.visibleMS)
	}
	return c
}
