// Taking the preview's journal into a store: only the lines after those
// an earlier report took, found again by the hash of the last one.

package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// lineBefore is the hash of the whole line that ends at end (just after
// its line break).
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

// TakeJournal imports the journal at path into s: its whole lines after
// those an earlier call took (Cut is the length of a line still being
// written). A journal cut short or replaced since is read from its start
// again, the lines' keys keeping it exact. A refused line is named by its
// number in the file, wherever the import started.
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
	fi, err := f.Stat()
	if err != nil {
		return ImportResult{}, err
	}
	end, err := wholeLines(f, fi.Size())
	if err != nil {
		return ImportResult{}, err
	}
	var pos int64
	var last string
	err = s.db.QueryRowContext(ctx, s.q(`SELECT pos, line FROM journal_taken WHERE path = ?`), abs).Scan(&pos, &last)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return ImportResult{}, fmt.Errorf("%s: %w", s.where, err)
	}
	if pos > end {
		pos = 0
	} else if pos > 0 {
		if h, err := lineBefore(f, pos); err != nil || h != last {
			pos = 0
		}
	}
	cut := fi.Size() - end
	if pos == end {
		return ImportResult{Cut: cut}, nil
	}
	res, err := s.ImportLog(ctx, io.NewSectionReader(f, pos, end-pos))
	res.Cut = cut
	if len(res.Refused) > 0 && pos > 0 {
		// The import numbered lines from pos. The lines before are
		// counted only now: a refusal is rare.
		before, cerr := countLines(io.NewSectionReader(f, 0, pos))
		if cerr != nil {
			return res, fmt.Errorf("%s: %w", path, cerr)
		}
		for _, r := range res.Refused {
			var le *LineError
			if errors.As(r, &le) {
				le.Line += before
			}
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

// countLines is how many line breaks r holds.
func countLines(r io.Reader) (int, error) {
	buf := make([]byte, 64*1024)
	n := 0
	for {
		k, err := r.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
