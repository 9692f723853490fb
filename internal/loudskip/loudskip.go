// Package loudskip makes tests that skip for want of a tool loud: at the
// end of the test binary it prints one line per kind, saying how many
// skipped and how to run them.
//
// A t.Skip message alone goes unseen: go test shows a passing package's
// output only with -v, and drops it under go test ./.... So without -v
// the line goes to the standard error of go test itself (the binary's
// parent, through Linux's /proc), else to the terminal, else to the
// binary's own standard error.
package loudskip

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// A Count counts the tests that skip for one reason.
type Count struct {
	what string // "browser tests"
	how  string // how to run them

	n      atomic.Int64
	mu     sync.Mutex
	reason string // the last reason given
}

// New returns a Count of what (a plural: "browser tests") with how to run
// them.
func New(what, how string) *Count {
	return &Count{what: what, how: how}
}

// Skip counts t and skips it, saying why.
func (c *Count) Skip(t testing.TB, why string) {
	t.Helper()
	c.n.Add(1)
	c.mu.Lock()
	c.reason = why
	c.mu.Unlock()
	t.Skipf("SKIPPING (%s): %s; %s", c.what, why, c.how)
}

// Line is what Main prints for c, or "" when none skipped.
func (c *Count) Line(pkg string) string {
	n := c.n.Load()
	if n == 0 {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return fmt.Sprintf("%s: %s SKIPPED: %d (%s): %s\n", pkg, c.what, n, c.reason, c.how)
}

// Main runs the tests, prints the line of each count that skipped any,
// and exits with the tests' code. A package's TestMain calls it.
func Main(m *testing.M, counts ...*Count) {
	code := m.Run()
	var lines string
	for _, c := range counts {
		lines += c.Line(pkg())
	}
	if lines != "" {
		w, done := out()
		io.WriteString(w, lines)
		done()
	}
	os.Exit(code)
}

// out opens where the lines are seen (see the package comment).
func out() (io.Writer, func()) {
	if testing.Verbose() {
		return os.Stderr, func() {}
	}
	for _, name := range []string{fmt.Sprintf("/proc/%d/fd/2", os.Getppid()), "/dev/tty"} {
		if f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0); err == nil {
			return f, func() { f.Close() }
		}
	}
	return os.Stderr, func() {}
}

// pkg names the package under test as go test runs it, in its folder: the
// folder relative to the module's root ("./measure"), else the folder.
func pkg() string {
	wd, err := os.Getwd()
	if err != nil {
		return "?"
	}
	for root := wd; ; {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			if rel, err := filepath.Rel(root, wd); err == nil {
				return "./" + filepath.ToSlash(rel)
			}
			break
		}
		up := filepath.Dir(root)
		if up == root {
			break
		}
		root = up
	}
	return wd
}
