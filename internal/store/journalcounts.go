// The journal's counts, read straight from the file, for the preview's
// report: the rows Store.Counts gives, grouped in Go.

package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"errref/internal/tally"
)

// Counts returns the rows Store.Counts would for the journal's events, in
// the same order. A line the journal should not hold is an error naming it.
func (j *Journal) Counts(ctx context.Context, from, to string) ([]tally.Count, error) {
	return JournalCounts(j.path, from, to)
}

// JournalCounts is Counts of the journal at path, none if there is none.
func JournalCounts(path, from, to string) ([]tally.Count, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	groups := map[tally.Count]int{}
	err = eachLine(f, func(n int, line []byte, err error) error {
		if err == nil {
			var it Item
			var kind lineKind
			it, kind, err = parseLine(line)
			if err == nil && kind == anEvent {
				c := CountOf(it)
				if c.Day >= from && c.Day <= to {
					groups[c]++
				}
			}
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %v: stop the preview and remove the line (%s), which go run ./cmd/report refuses too", path, n, err, RemoveLines(path, []int{n}))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]tally.Count, 0, len(groups))
	for c, n := range groups {
		c.N = n
		out = append(out, c)
	}
	tally.SortCounts(out)
	return out, nil
}
