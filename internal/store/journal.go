package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
)

// Journal is the preview's store: a file of JSON lines, one an event, in
// the function's not-stored format, so that cmd/report takes it into
// events.db as it takes the function's log (-import), and cmd/build need
// not link SQLite. Each batch is written and synced to disk before its
// events are acknowledged.
type Journal struct {
	path string
	mu   sync.Mutex
	f    *os.File
	size int64
}

// OpenJournal opens the journal at path for appending, creating it. A last
// line cut short, by a crash in the middle of a write, was never
// acknowledged: it is removed, and fixed reports that it was.
func OpenJournal(path string) (j *Journal, fixed bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, err
	}
	j = &Journal{path: path, f: f}
	if j.size, err = f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, false, err
	}
	if j.size > 0 {
		// Find the end of the last whole line.
		end := j.size
		buf := make([]byte, 4096)
		for end > 0 {
			off := max(end-int64(len(buf)), 0)
			n, err := f.ReadAt(buf[:end-off], off)
			if err != nil && err != io.EOF {
				f.Close()
				return nil, false, err
			}
			if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
				end = off + int64(i) + 1
				break
			}
			end = off
		}
		if end != j.size {
			if err := f.Truncate(end); err != nil {
				f.Close()
				return nil, false, err
			}
			j.size, fixed = end, true
		}
	}
	return j, fixed, nil
}

// String names the journal, for messages.
func (j *Journal) String() string { return j.path }

// Close closes the journal.
func (j *Journal) Close() error { return j.f.Close() }

// Keep appends items as one write and syncs the file. A write that fails
// part way is cut off again, so that the next line starts on a line of
// its own.
func (j *Journal) Keep(_ context.Context, items []Item) (int, error) {
	var b []byte
	for _, it := range items {
		b = append(b, it.Event.JSON(it.At)...)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, err := j.f.WriteAt(b, j.size); err != nil {
		j.f.Truncate(j.size)
		return 0, fmt.Errorf("%s: %w", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		j.f.Truncate(j.size)
		return 0, fmt.Errorf("%s: %w", j.path, err)
	}
	j.size += int64(len(b))
	return len(items), nil
}

// Counts returns what Store.Counts would for the journal's events, grouped
// here: the same rows, in the same order. A line the journal should not
// hold is an error naming it.
func (j *Journal) Counts(ctx context.Context, from, to string) ([]Count, error) {
	return JournalCounts(j.path, from, to)
}

// JournalCounts is Counts of the journal at path. A journal that does not
// exist holds no events.
func JournalCounts(path, from, to string) ([]Count, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	groups := map[Count]int{}
	err = eachLine(f, func(n int, line []byte, err error) error {
		if err == nil {
			var it Item
			var kind lineKind
			it, kind, err = parseLine(line)
			if err == nil && kind == anEvent {
				c := countOf(it)
				if c.Day >= from && c.Day <= to {
					groups[c]++
				}
			}
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %v (remove the line, or take the file with go run ./cmd/report -import, which skips it)", path, n, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Count, 0, len(groups))
	for c, n := range groups {
		c.N = n
		out = append(out, c)
	}
	SortCounts(out)
	return out, nil
}

// countOf is the roll-up's key of one event, as the trigger makes it.
func countOf(it Item) Count {
	args := row(it.Event, it.At)
	str := func(v any) string {
		if v == nil {
			return ""
		}
		return v.(string)
	}
	c := Count{Day: args[1].(string), Name: it.Event.Name, Path: str(args[3]), Ref: str(args[6]),
		Source: str(args[7]), Medium: str(args[8]), Campaign: str(args[9]), Term: str(args[10]),
		Content: str(args[11]), Outreach: str(args[12]), Checkout: str(args[13]),
		Scrolled: it.Event.Scrolled != nil && *it.Event.Scrolled}
	if it.Event.Name == "engaged" && it.Event.VisibleMS != nil {
		c.VisibleS = VisibleBucket(*it.Event.VisibleMS)
	}
	return c
}
