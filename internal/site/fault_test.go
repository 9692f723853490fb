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
// idle build's files, and the build cache keeps nothing else: a second
// build from that cache gives them too. A timed-out match must not turn
// "raise" into a name, nor the cache keep such a page.
func TestStarvedClockChangesNoPage(t *testing.T) {
	root, cacheRoot := manyPages(t, 3), t.TempDir()
	idle, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	regexp2.SetTimeoutCheckPeriod(-time.Hour) // every deadline has passed when it is set
	starved, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Cache: true, CacheRoot: cacheRoot})
	regexp2.SetTimeoutCheckPeriod(regexp2.DefaultClockPeriod)
	if err != nil {
		t.Fatal(err)
	}
	if d := differing(starved.Files, idle.Files); len(d) > 0 {
		t.Errorf("with the clock starved, these files differ from the idle build: %s", strings.Join(d, ", "))
	}
	cached, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Cache: true, CacheRoot: cacheRoot})
	if err != nil {
		t.Fatal(err)
	}
	if cached.Rendered != 0 {
		t.Errorf("the second build rendered %d pages, want all from the cache", cached.Rendered)
	}
	if d := differing(cached.Files, idle.Files); len(d) > 0 {
		t.Errorf("from the cache filled with the clock starved, these files differ from the idle build: %s", strings.Join(d, ", "))
	}
}

// TestSlowBlockIsAnErrorNamingItsLine: a code block that takes longer
// than highlight.Limit fails the build at its line, and the failed page is
// not kept in the cache to be reused.
func TestSlowBlockIsAnErrorNamingItsLine(t *testing.T) {
	root, cacheRoot := fixtureSite(t), t.TempDir()
	old := highlight.Limit
	highlight.Limit = time.Nanosecond // every block is over it
	_, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Cache: true, CacheRoot: cacheRoot})
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
	s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Cache: true, CacheRoot: cacheRoot})
	if err != nil {
		t.Fatal(err)
	}
	if s.Rendered == 0 {
		t.Error("every page came from the cache after the failed build")
	}
}
