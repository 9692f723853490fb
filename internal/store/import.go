// Importing not-stored lines into a store, each checked as the receiver checks
// it and taken once; and the preview's journal, from where the last take ended.

package store

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"errref/internal/event"
)

// padding is what may surround a log line's event and must not hide it: the
// NULs of a hole a writer at a stale offset left in a file emptied under it,
// and the byte order mark a Windows editor saves in front.
const padding = " \t\r\n\x00\uFEFF"

// MaxLine is the longest log line read, in bytes; a longer one is refused by its number.
const MaxLine = 1 << 20

// importBatch is how many events one import transaction holds.
const importBatch = 5000

// ImportResult counts what an import did.
type ImportResult struct {
	Added   int          // events stored
	Again   int          // lines an earlier import took
	Stored  int          // lines the function had stored already ("stored": true)
	Skipped int          // lines that hold no event
	Refused []*LineError // lines that hold a broken event
	Cut     int64        // bytes of a last line, without its break, TakeJournal left to take whole
}

// LineError is a line an import refused: its number in the file, from 1, and why.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }

func (e *LineError) Unwrap() error { return e.Err }

// ImportLog stores each not-stored event of JSON lines once, however often it
// runs (the function's stdout, netlify logs --json's "message", the preview's
// journal), each checked again by the receiver's validator on its raw bytes.
func (s *Store) ImportLog(ctx context.Context, r io.Reader) (ImportResult, error) {
	return s.importLines(ctx, r, false)
}

// importLines is ImportLog; of a journal, it refuses a line that holds no event.
func (s *Store) importLines(ctx context.Context, r io.Reader, journal bool) (ImportResult, error) {
	var res ImportResult
	var batch []Item
	flush := func() error {
		n, err := s.Keep(ctx, batch)
		res.Added += n
		if err == nil {
			res.Again += len(batch) - n
		}
		batch = batch[:0]
		return err
	}
	err := eachLine(r, journal, func(n int, it Item, kind lineKind, err error) error {
		switch {
		case err != nil:
			res.Refused = append(res.Refused, &LineError{Line: n, Err: err})
		case kind == noEvent:
			res.Skipped++
		case kind == storedEvent:
			res.Stored++
		default:
			if batch = append(batch, it); len(batch) == importBatch {
				return flush()
			}
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	return res, err
}

// errNotJournal is a journal's line that holds no event to take.
var errNotJournal = errors.New(`not an event as the preview writes it ({"ts":…,"stored":false,"name":…}): the journal holds nothing else`)

// errCut is a line that opens as JSON and is not whole, as a full disk leaves
// netlify logs --json > FILE (its last line; the next run's first, after >>): an event cut, not a line without one.
var errCut = errors.New("cut short (not whole JSON): the file was cut as it was written, as on a full disk; write it whole and import it again (what was taken is not taken twice)")

// eachLine calls f with what each non-empty line of r holds and its number,
// or with why it holds nothing readable (over MaxLine; of a journal, no event
// to take). It stops at f's error.
func eachLine(r io.Reader, journal bool, f func(n int, it Item, kind lineKind, err error) error) error {
	// A byte more than MaxLine: a line that fills it is over, and read past.
	br := bufio.NewReaderSize(r, MaxLine+1)
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		tooLong := len(line) > MaxLine
		for err == bufio.ErrBufferFull {
			_, err = br.ReadSlice('\n')
		}
		if err != nil && err != io.EOF {
			return err
		}
		var ferr error
		cut := err == io.EOF // no line end: the file's last line
		switch line := bytes.Trim(line, padding); {
		case tooLong:
			ferr = f(n, Item{}, 0, fmt.Errorf("over %d bytes: skipped", MaxLine))
		case len(line) > 0:
			it, kind, err := parseLine(line)
			if journal && err == nil && kind != anEvent {
				err = errNotJournal
			}
			if (cut || err == nil) && line[0] == '{' && !json.Valid(line) {
				err = errCut
			}
			ferr = f(n, it, kind, err)
		}
		if ferr != nil {
			return ferr
		}
		if err == io.EOF {
			return nil
		}
	}
}

type lineKind int

const (
	anEvent     lineKind = iota
	storedEvent          // the function stored it when it arrived
	noEvent              // a line of the log that is not the function's record
)

// parseLine reads the function's record of an event from one line of a log
// (see unwrap), and gives the event the line's key.
func parseLine(line []byte) (Item, lineKind, error) {
	// encoding/json would turn invalid bytes into U+FFFD without a word;
	// the receiver refuses them, and so does the import.
	if bytes.IndexByte(line, 0) >= 0 { // every other byte of a line, in UTF-16
		return Item{}, 0, errors.New("holds NUL bytes, as UTF-16 does (PowerShell 5's >): save the file as UTF-8")
	}
	if !utf8.Valid(line) {
		return Item{}, 0, errors.New("not UTF-8")
	}
	ts, body, ok := ownLine(line)
	if !ok {
		rec, ok := unwrap(line)
		if !ok && bytes.Contains(line, []byte(`","stored":false,`)) {
			return Item{}, 0, errors.New("holds an event after other text, as netlify logs prints it without --json: write the log again with --json")
		}
		if !ok {
			return Item{}, noEvent, nil
		}
		if string(rec["stored"]) == "true" {
			return Item{}, storedEvent, nil
		}
		if json.Unmarshal(rec["ts"], &ts) != nil {
			return Item{}, 0, errors.New("ts is not a string")
		}
		delete(rec, "ts")
		delete(rec, "stored")
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // as NotStoredLine writes it
		enc.Encode(rec)
		body = bytes.TrimSuffix(b.Bytes(), []byte("\n")) // less Encode's line break: no longer than the body sent
	}
	at, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return Item{}, 0, fmt.Errorf("ts %q is not an RFC 3339 time", ts)
	}
	if bytes.Contains(body, []byte(`\u00`)) {
		body = []byte(htmlEscapes.Replace(string(body)))
	}
	// U+FFFD is a campaign's control character, sent in as little as one byte (DEL,
	// which JSON leaves bare), written in three: read as DEL, which the receiver keeps
	// as U+FFFD, no body grows past MaxBody.
	body = bytes.ReplaceAll(body, []byte("\uFFFD"), []byte("\x7f"))
	e, err := event.Parse(body)
	if err != nil {
		return Item{}, 0, err
	}
	// The key is the event as the receiver writes it, so stdout and the
	// CLI's JSON of one event are one line; its ref as sent, as releases
	// before c6f8ccb kept and keyed it (com.Slack), so that theirs is one line too.
	k := e
	json.Unmarshal(body, &struct{ Ref *string }{&k.Ref})
	canon, _ := json.Marshal(k)
	sum := sha256.Sum256(append([]byte(at.UTC().Format(time.RFC3339Nano)+"\n"), canon...))
	return Item{Event: e, At: at, Key: hex.EncodeToString(sum[:])}, anEvent, nil
}

// htmlEscapes undoes the \u0026, \u003c and \u003e of the lines of releases up to
// c390457, so that a body passes MaxBody again as it did when sent; \\ is kept as it is.
var htmlEscapes = strings.NewReplacer(`\\`, `\\`, `\u0026`, "&", `\u003c`, "<", `\u003e`, ">")

// ownLine splits a line as Event.NotStoredLine writes it into time and body, decoding nothing.
func ownLine(line []byte) (ts string, body []byte, ok bool) {
	rest, ok := bytes.CutPrefix(line, []byte(`{"ts":"`))
	t, after, found := bytes.Cut(rest, []byte(`","stored":false,`))
	if !ok || !found || bytes.ContainsAny(t, `"\`) {
		return "", nil, false
	}
	return string(t), append([]byte{'{'}, after...), true
}

// unwrap finds the function's own record in a line: itself, or the JSON in its "message".
func unwrap(line []byte) (map[string]json.RawMessage, bool) {
	var rec map[string]json.RawMessage
	if json.Unmarshal(line, &rec) != nil {
		return nil, false
	}
	if rec["ts"] != nil && rec["name"] != nil {
		return rec, true
	}
	var msg string
	if json.Unmarshal(rec["message"], &msg) != nil {
		return nil, false
	}
	return unwrap(bytes.TrimSpace([]byte(msg)))
}

// lineBefore is the hash of the whole line that ends at end, after its break.
func lineBefore(f io.ReaderAt, end int64) (string, error) {
	start, err := wholeLines(f, end-1)
	if err != nil {
		return "", err
	}
	line := make([]byte, end-start)
	if _, err := f.ReadAt(line, start); err != nil {
		return "", err
	}
	sum := sha256.Sum256(line)
	return hex.EncodeToString(sum[:]), nil
}

// TakeJournal imports the journal at path into s: its whole lines after those
// an earlier call took. A journal cut short or replaced since is read again
// from its start, the lines' keys keeping it exact. A refused line has its
// number in the whole file.
func (s *Store) TakeJournal(ctx context.Context, path string) (ImportResult, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ImportResult{}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return ImportResult{}, err
	}
	defer f.Close()
	end, size, err := settledEnd(f)
	if err != nil {
		return ImportResult{}, err
	}
	var pos int64
	var last string
	err = s.db.QueryRowContext(ctx, s.q(`SELECT pos, line FROM journal_taken WHERE path = ?`), abs).Scan(&pos, &last)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return ImportResult{}, fmt.Errorf("%s: %w", s.where, err)
	}
	if h, err := lineBefore(f, pos); pos > 0 && (pos > end || err != nil || h != last) {
		pos = 0
	}
	if pos == end {
		return ImportResult{Cut: size - end}, nil
	}
	res, err := s.importLines(ctx, io.NewSectionReader(f, pos, end-pos), true)
	res.Cut = size - end
	if len(res.Refused) > 0 && pos > 0 {
		// The import numbered lines from pos; those before are counted only now, as a refusal is rare.
		b, rerr := io.ReadAll(io.NewSectionReader(f, 0, pos))
		if rerr != nil {
			return res, fmt.Errorf("%s: %w", path, rerr)
		}
		before := bytes.Count(b, []byte{'\n'})
		for _, r := range res.Refused {
			r.Line += before
		}
	}
	if err != nil || len(res.Refused) > 0 {
		return res, err
	}
	h, err := lineBefore(f, end)
	if err != nil {
		return res, err
	}
	_, err = s.db.ExecContext(ctx, s.q(`INSERT INTO journal_taken (path, pos, line) VALUES (?, ?, ?)
		ON CONFLICT (path) DO UPDATE SET pos = excluded.pos, line = excluded.line`), abs, end, h)
	return res, err
}
