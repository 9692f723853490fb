package highlight

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/chroma/v2"
)

// chromaTestdata is chroma's own corpus: a file of source per lexer.
func chromaTestdata(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/alecthomas/chroma/v2").Output()
	if err != nil {
		t.Fatalf("finding chroma's module: %v", err)
	}
	files, err := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "lexers", "testdata", "*.actual"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no chroma test files: %v", err)
	}
	return files
}

// TestMergedRulesLexAsChromaDoes: with each state's rules merged, every
// lexer copy gives, on chroma's own test corpus and on this site's code,
// the very tokens the same copy gives with chroma trying the rules one by
// one.
func TestMergedRulesLexAsChromaDoes(t *testing.T) {
	ref := copies(true)
	type source struct{ lang, path string }
	var sources []source
	for _, f := range chromaTestdata(t) {
		sources = append(sources, source{strings.TrimSuffix(filepath.Base(f), ".actual"), f})
	}
	sources = append(sources, source{"python", "testdata/retry.py"})
	compared := 0
	for _, src := range sources {
		ours, err := lexer(src.lang)
		if err != nil {
			continue // refused: written as plain text, not lexed
		}
		text, err := os.ReadFile(src.path)
		if err != nil {
			t.Fatal(err)
		}
		want := tokens(t, ref.Get(ours.Config().Name), string(text))
		got := tokens(t, ours, string(text))
		if !slices.Equal(got, want) {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s (%s): token %d of %d differs: merged %v, one by one %v", src.path, src.lang, i, len(want), tokenAt(got, i), tokenAt(want, i))
		}
		compared++
	}
	if compared < 130 {
		t.Errorf("compared %d files; too few for the test to mean much", compared)
	}
}

func tokenAt(ts []chroma.Token, i int) any {
	if i < len(ts) {
		return ts[i]
	}
	return "end"
}

// tokens lexes text with l; a lexer that panics gives a token saying so.
// One that runs on (a wrong rule taken can loop, pushing states without
// end) cannot be stopped, and would fill memory until the system killed
// the test: it ends the test binary instead, loudly.
func tokens(t *testing.T, l chroma.Lexer, text string) []chroma.Token {
	t.Helper()
	// Every file of chroma's lexes in well under a second; the limit is
	// for a loop.
	limit := 20 * time.Second
	if raceDetector {
		limit *= 10
	}
	done := make(chan []chroma.Token, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- []chroma.Token{{Type: chroma.Error, Value: fmt.Sprint("panic: ", p)}}
			}
		}()
		ts, err := chroma.Tokenise(l, nil, text)
		if err != nil {
			ts = []chroma.Token{{Type: chroma.Error, Value: err.Error()}}
		}
		done <- ts
	}()
	select {
	case ts := <-done:
		return ts
	case <-time.After(limit):
		panic(fmt.Sprintf("%s: still lexing after %v; the lexer runs on, and nothing can stop it but the end of the test", l.Config().Name, limit))
	}
}
