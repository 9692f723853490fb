package store

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"errref/internal/event"
)

// ImportResult counts what an import did.
type ImportResult struct {
	Added   int // events stored
	Again   int // lines an earlier import took
	Stored  int // lines the function had stored already ("stored": true)
	Skipped int // lines that hold no event
}

// ImportLog reads JSON lines, as the event function writes them to stdout
// or as netlify logs --function event --json prints them (each line an
// object whose "message" is the function's line), and stores each event
// that was not stored when it arrived, once, however often it is run.
// Each event passes the receiver's own validator again.
func (s *Store) ImportLog(ctx context.Context, r io.Reader) (ImportResult, error) {
	var res ImportResult
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		rec, ok := unwrap(line)
		if !ok {
			res.Skipped++
			continue
		}
		if string(rec["stored"]) == "true" {
			res.Stored++
			continue
		}
		var ts string
		if json.Unmarshal(rec["ts"], &ts) != nil {
			res.Skipped++
			continue
		}
		at, err := time.Parse(time.RFC3339Nano, ts)
		if err != nil {
			return res, fmt.Errorf("line %d: ts %q is not an RFC 3339 time", n, ts)
		}
		delete(rec, "ts")
		delete(rec, "stored")
		body, _ := json.Marshal(rec)
		e, err := event.Parse(body)
		if err != nil {
			return res, fmt.Errorf("line %d: %v", n, err)
		}
		// The line's key is its time and its event as the receiver would
		// write it: the same event from stdout and from the CLI's JSON is
		// one line.
		canon, _ := json.Marshal(e)
		sum := sha256.Sum256(append([]byte(at.UTC().Format(time.RFC3339Nano)+"\n"), canon...))
		added, err := s.Import(ctx, hex.EncodeToString(sum[:]), e, at)
		if err != nil {
			return res, fmt.Errorf("line %d: %w", n, err)
		}
		if added {
			res.Added++
		} else {
			res.Again++
		}
	}
	if err := sc.Err(); err != nil {
		return res, err
	}
	return res, nil
}

// unwrap finds the function's own record in a line: the line itself, or
// the JSON in its "message" field.
func unwrap(line []byte) (map[string]json.RawMessage, bool) {
	var rec map[string]json.RawMessage
	if json.Unmarshal(line, &rec) != nil {
		return nil, false
	}
	if _, ok := rec["ts"]; ok {
		if _, ok := rec["name"]; ok {
			return rec, true
		}
	}
	var msg string
	if json.Unmarshal(rec["message"], &msg) != nil {
		return nil, false
	}
	return unwrap(bytes.TrimSpace([]byte(msg)))
}
