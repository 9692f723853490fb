package site

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dlclark/regexp2/v2"

	"errref/internal/highlight"
)

// differing names the files that are not the same in got and want: those
// whose bytes differ, and those only one of them has.
func differing(got, want map[string][]byte) []string {
	var names []string
	for name, data := range want {
		if g, ok := got[name]; !ok || !bytes.Equal(g, data) {
			names = append(names, name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// TestStarvedClockChangesNoPage: with regexp2's clock starved so that every
// timed match times out (as on a loaded machine), the build gives the
// idle build's files: a timed-out match must not turn "raise" into a
// name.
func TestStarvedClockChangesNoPage(t *testing.T) {
	root := manyPages(t, 3)
	idle, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	regexp2.SetTimeoutCheckPeriod(-time.Hour) // every deadline has passed when it is set
	starved, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	regexp2.SetTimeoutCheckPeriod(regexp2.DefaultClockPeriod)
	if err != nil {
		t.Fatal(err)
	}
	if d := differing(starved.Files, idle.Files); len(d) > 0 {
		t.Errorf("with the clock starved, these files differ from the idle build: %s", strings.Join(d, ", "))
	}
}

// TestSlowBlockIsAnErrorNamingItsLine: a code block that takes longer
// than highlight.Limit fails the build at its line.
func TestSlowBlockIsAnErrorNamingItsLine(t *testing.T) {
	root := fixtureSite(t)
	old := highlight.Limit
	highlight.Limit = time.Nanosecond // every block is over it
	_, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	highlight.Limit = old
	// content/index.md:LINE: highlighting this LANG block took longer than 1ns
	const want = "block took longer than 1ns"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want content/index.md:LINE: highlighting this ... %s", err, want)
	}
	at, _, _ := strings.Cut(err.Error()[strings.Index(err.Error(), "content/index.md:"):], ": highlighting")
	src, _ := os.ReadFile(filepath.Join(root, "content", "index.md"))
	lines := strings.Split(string(src), "\n")
	if n, _ := strconv.Atoi(strings.TrimPrefix(at, "content/index.md:")); n < 1 || n > len(lines) || !strings.HasPrefix(lines[n-1], "```") {
		t.Errorf("the error names %s, which does not open a code block", at)
	}
}
