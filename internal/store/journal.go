// The preview's journal: JSON lines that processes append batches to, each
// whole; its counts, read from the file; the command that removes a line.

package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"errref/internal/tally"
)

// Journal is the preview's store: not-stored JSON lines, which cmd/report takes
// as it takes the function's log (so cmd/build need not link SQLite). Processes
// may share one: each batch is one synced O_APPEND write of whole lines, under
// an advisory lock, to the file now at the path (one emptied, replaced or removed is noticed).
type Journal struct {
	path string
	mu   sync.Mutex
	f    *os.File
}

// OpenJournal opens the journal at path for appending, creating it. A last line
// cut short by a crash was never acknowledged: it is removed, and fixed says so.
func OpenJournal(path string) (j *Journal, fixed bool, err error) {
	f, err := openAppend(path)
	if err != nil {
		return nil, false, err
	}
	j = &Journal{path: path, f: f}
	unlock, _ := lockFile(f)
	defer unlock()
	if _, fixed, err = j.cutTail(); err != nil {
		f.Close()
		return nil, false, err
	}
	return j, fixed, nil
}

// openAppend opens the journal for appending, and for cutTail to read.
func openAppend(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
}

// cutTail removes a last line without its line break and returns the size
// after. Only a writer that holds the lock may call it: no other is mid-line.
func (j *Journal) cutTail() (size int64, fixed bool, err error) {
	end, size, err := wholeEnd(j.f)
	if err != nil {
		return 0, false, fmt.Errorf("%s: %w", j.path, err)
	}
	if end == size {
		if lines, err := wholeLines(j.f, size); err != nil || lines == size {
			return size, false, err
		}
		_, err := j.f.Write([]byte("\n")) // ends an editor's last line (wholeEnd): the next is not glued to it
		return size + 1, false, err
	}
	if err := j.truncate(end); err != nil {
		return 0, false, fmt.Errorf("%s: removing a last line cut short: %w", j.path, err)
	}
	return end, true, nil
}

// truncate cuts the journal, the file j writes to, to size through a handle
// of its own: Windows truncates no file through a handle opened to append.
func (j *Journal) truncate(size int64) error {
	w, err := os.OpenFile(j.path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer w.Close()
	held, err := j.f.Stat()
	if err != nil {
		return err
	}
	if now, err := w.Stat(); err != nil || !os.SameFile(held, now) {
		return errors.New("replaced while it was being written")
	}
	return w.Truncate(size)
}

// reopen points j at the file now at its path when the one it holds was replaced
// or removed (an editor saves by rename): a batch to a file no path names is lost.
func (j *Journal) reopen() error {
	held, err := j.f.Stat()
	if err != nil {
		return fmt.Errorf("%s: %w", j.path, err)
	}
	now, err := os.Stat(j.path)
	if err == nil && os.SameFile(held, now) {
		return nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", j.path, err)
	}
	f, err := openAppend(j.path)
	if err != nil {
		return fmt.Errorf("%s: reopening the journal, which was replaced or removed: %w", j.path, err)
	}
	j.f.Close()
	j.f = f
	return nil
}

// settledEnd is wholeEnd for a reader, read under the writers' lock: a batch
// whose write failed part-way is cut off before its writer lets go, never
// read as events (it was answered 503). The lines before end stay as they are.
func settledEnd(f *os.File) (end, size int64, err error) {
	unlock, _ := lockFile(f)
	defer unlock()
	return wholeEnd(f)
}

// wholeEnd is where f's whole lines end, and its size. A last line without
// its break that is whole JSON is an event an editor saved so (Notepad, its
// empty last line deleted), not one a crash cut: it is whole too.
func wholeEnd(f *os.File) (end, size int64, err error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, 0, err
	}
	size = fi.Size()
	if end, err = wholeLines(f, size); err != nil || end == size {
		return end, size, err
	}
	tail := make([]byte, size-end) // not read whole when the file shrank meanwhile: not whole
	if _, err := f.ReadAt(tail, end); err == nil && json.Valid(bytes.TrimPrefix(tail, []byte("\uFEFF"))) {
		end = size
	}
	return end, size, nil
}

// wholeLines is where f's whole lines before end end: just after the last line break, or 0.
func wholeLines(f io.ReaderAt, end int64) (int64, error) {
	buf := make([]byte, 4096)
	for end > 0 {
		off := max(end-int64(len(buf)), 0)
		n, err := f.ReadAt(buf[:end-off], off)
		if err != nil && err != io.EOF {
			return 0, err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return off + int64(i) + 1, nil
		}
		end = off
	}
	return 0, nil
}

// String names the journal, for messages.
func (j *Journal) String() string { return j.path }

func (j *Journal) Close() error { return j.f.Close() }

// Keep appends items in one synced write; one that fails part way is cut off, under the lock.
func (j *Journal) Keep(_ context.Context, items []Item) (int, error) {
	b := jsonLines(items)
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.reopen(); err != nil {
		return 0, err
	}
	unlock, locked := lockFile(j.f)
	defer unlock()
	// Without a lock another writer may be mid-line: then no cut line is
	// removed nor a failed write cut off, and the report names what it cannot take.
	size := int64(-1)
	var err error
	if locked {
		if size, _, err = j.cutTail(); err != nil {
			return 0, err
		}
	}
	// One O_APPEND write: never over another's batch, nor after a hole.
	if _, err = j.f.Write(b); err == nil {
		err = j.f.Sync()
	}
	if err != nil {
		if size >= 0 {
			j.truncate(size)
		}
		return 0, fmt.Errorf("%s: %w", j.path, err)
	}
	return len(items), nil
}

// Counts returns the rows Store.Counts would for the journal's events. A line
// the journal should not hold is an error naming it.
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
	// Whole lines, as the report takes them: a last one cut is being written or was never acknowledged.
	end, _, err := settledEnd(f)
	if err != nil {
		return nil, err
	}
	groups := map[tally.Count]int{}
	err = eachLine(io.NewSectionReader(f, 0, end), true, func(n int, it Item, kind lineKind, err error) error {
		if err != nil {
			return fmt.Errorf("%s:%d: %v: stop the preview and remove the line (%s), which go run ./cmd/report refuses too", path, n, err, RemoveLines(path, []int{n}))
		}
		if c := CountOf(it); c.Day >= from && c.Day <= to {
			groups[c]++
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

// RemoveLines says how to remove the numbered lines of the file at path a
// report refuses: a command for GNU and BSD sed alike (keeping path.bak), or,
// on Windows, whose cmd.exe and PowerShell have no sed, the same in words.
func RemoveLines(path string, lines []int) string { return removeLines(runtime.GOOS, path, lines) }

func removeLines(goos, path string, lines []int) string {
	var nums []string
	for _, n := range lines {
		nums = append(nums, strconv.Itoa(n))
	}
	if goos == "windows" {
		return fmt.Sprintf("in an editor, delete line%s %s of %s", map[bool]string{true: "s"}[len(lines) > 1], strings.Join(nums, ", "), path)
	}
	return "sed -i.bak '" + strings.Join(nums, "d;") + "d' " + shellQuote(path)
}

// shellQuote is s as one word for a POSIX shell.
func shellQuote(s string) string {
	const safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:@%+=,"
	if s != "" && strings.Trim(s, safe) == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// NotStored is the site folder's file of what PostgreSQL did not take.
const NotStored = "not-stored.jsonl"

// NotStoredNote says, for a report, how many events wait in root's
// not-stored.jsonl, which no count holds until -import takes them; "" when none.
func NotStoredNote(root string) (string, error) {
	b, err := os.ReadFile(filepath.Join(root, NotStored))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	n := 0
	for line := range bytes.Lines(b) { // the last one too, saved without its break
		if len(bytes.Trim(line, padding)) > 0 { // as -import reads it: a blank line is no event
			n++
		}
	}
	if err != nil || n == 0 {
		return "", err
	}
	events := fmt.Sprintf("%d events", n)
	if n == 1 {
		events = "1 event"
	}
	return fmt.Sprintf("%s in the site folder holds %s PostgreSQL did not take from the preview: "+
		"these counts leave out each that go run ./cmd/report -import %s (as the store's owner) has not taken yet; it takes each once.",
		NotStored, events, NotStored), nil
}
