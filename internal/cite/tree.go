package cite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// A Tree is the files of one version of a repository, however they are
// kept: a folder of files (a Copy), or a tag read from a git clone.
// Check and Relocate read quotes through it, so that every way of keeping
// a version is checked, and a quote moved, by the same code.
type Tree struct {
	Version string // the version the files are at, as a citation writes it
	Where   string // names the copy in messages: "../sdk-v1.29.0"
	// ReadFile reads a file by its slash path; for a file this version
	// does not have, the error wraps fs.ErrNotExist.
	ReadFile func(path string) ([]byte, error)
}

// Tree reads the files of s's folder, never outside it.
func (s Copy) Tree() Tree {
	return Tree{Version: s.Version, Where: s.Dir, ReadFile: func(path string) ([]byte, error) {
		root, err := os.OpenRoot(s.Dir)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		return root.ReadFile(path)
	}}
}

// lines reads the file at path, split into lines.
func (t Tree) lines(path string) ([]string, error) {
	data, err := t.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return splitLines(data), nil
}

func splitLines(data []byte) []string {
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// Check checks c's quote against the lines c cites in t, which must be
// at the version c cites (Copy.Check says when a folder is not).
func (t Tree) Check(c Citation) Result {
	where := c.At
	if where == "" {
		where = "?"
	}
	name := c.Path + "#" + c.lines("-")
	lines, err := t.lines(c.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return Result{Mismatch, fmt.Sprintf("%s %s: %s: no such file in %s", Mismatch, where, name, t.Where)}
	}
	if err != nil {
		return Result{Mismatch, fmt.Sprintf("%s %s: %s: %v", Mismatch, where, name, err)}
	}
	parts := quoteParts(c.Quote)
	short := short(c.Quote)
	if len(parts) == 0 {
		return Result{Mismatch, fmt.Sprintf("%s %s: %s: the quote is empty", Mismatch, where, name)}
	}
	if c.End <= len(lines) && holds(lines[c.Start-1:c.End], parts) {
		return Result{OK, fmt.Sprintf("%s %s: %s", OK, where, name)}
	}
	msg := fmt.Sprintf("%s %s: %s does not hold %q", Mismatch, where, name, short)
	if c.End > len(lines) {
		msg = fmt.Sprintf("%s %s: %s is past the end of the file (%d lines)", Mismatch, where, name, len(lines))
	}
	if at := find(lines, parts, c.End-c.Start+1, c.Start); at > 0 {
		span := c.End - c.Start
		if span == 0 {
			msg += fmt.Sprintf("; found at %d", at)
		} else {
			msg += fmt.Sprintf("; found at %d-%d", at, at+span)
		}
	} else {
		msg += "; not found anywhere in the file"
	}
	return Result{Mismatch, msg}
}
