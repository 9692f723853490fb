package highlight

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/dlclark/regexp2/v2"
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

// TestCopiesLexAsChromaDoes: on chroma's own test corpus and on this
// site's code, every lexer copy the build highlights with (untimed, its
// states' rules merged) gives the very tokens of chroma's own lexer for
// the language.
//
// Chroma's lexers keep their 250 ms limit per match, which a loaded
// machine can run out of (the fault the copies exist to fix), and would
// then give other tokens: the test would blame the copies for chroma's
// clock. So it runs in a process of its own that, before any match,
// sets regexp2's clock period to a day: the clock then never ticks while
// the test runs, and no deadline of chroma's can pass.
func TestCopiesLexAsChromaDoes(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: lexes the whole corpus with chroma's lexers and the copies, in a process of its own; run without -short")
	}
	if !alone(t, "TestCopiesLexAsChromaDoes") {
		return
	}
	regexp2.SetTimeoutCheckPeriod(24 * time.Hour)
	// The clock really is stopped: a match with a 1 ms limit runs on past
	// chroma's 250 ms (it tries every way to split the a's, each one
	// more taking about 1.6 times as long).
	slow := regexp2.MustCompile(`(a|aa)+$`, regexp2.None)
	slow.MatchTimeout = time.Millisecond
	for n := 24; ; n++ {
		began := time.Now()
		_, err := slow.MatchString(strings.Repeat("a", n) + "b")
		if err != nil {
			t.Fatalf("a match with a 1 ms limit: %v; the test no longer stops regexp2's clock", err)
		}
		if time.Since(began) > 300*time.Millisecond || n == 40 {
			break
		}
	}

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
		chromas := lexers.Get(src.lang)
		if ours == chromas {
			t.Fatalf("%s: the build highlights with chroma's own lexer, not a copy", src.lang)
		}
		want := tokens(t, chromas, nil, string(text))
		got := tokens(t, ours, nil, string(text))
		if !slices.Equal(got, want) {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s (%s): token %d of %d differs: copy %v, chroma %v", src.path, src.lang, i, len(want), tokenAt(got, i), tokenAt(want, i))
		}
		compared++
	}
	if compared < 130 {
		t.Errorf("compared %d files; too few for the test to mean much", compared)
	}
	t.Logf("compared %d files of %d", compared, len(sources))
}

// TestCopiesTakeChromasOptions: a copy lexes as chroma's lexer does under
// each of Tokenise's options, which a lexer that hands text to another
// passes (the build passes none), and reads \r\n and a lone \r as chroma does.
func TestCopiesTakeChromasOptions(t *testing.T) {
	for _, c := range []struct {
		lang, text string
		o          *chroma.TokeniseOptions
	}{
		{"console", "$ echo hi", nil}, // chroma adds the line end this lexer needs
		{"console", "$ echo hi", &chroma.TokeniseOptions{State: "root", Nested: true}},
		{"console", "$ echo hi\r\n$ ls\rx", nil},
		{"console", "$ echo hi\r\n$ ls\rx", &chroma.TokeniseOptions{State: "root"}},
		{"python", "x = 1\r\nif x:\r    print('a')\r\n", nil},
		{"python", "abc\" + 1\n", &chroma.TokeniseOptions{State: "dqs", EnsureLF: true}},
	} {
		ours, err := lexer(c.lang)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := tokens(t, ours, c.o, c.text), tokens(t, lexers.Get(c.lang), c.o, c.text); !slices.Equal(got, want) {
			t.Errorf("%s %q with %+v: copy %v, chroma %v", c.lang, c.text, c.o, got, want)
		}
	}
}

// alone reports whether the test named name runs in the process of its
// own that it started: a test that sets regexp2's clock period must do
// so before any timed match, since the clock's goroutine reads it with
// no lock. In the parent it runs the child and reports its outcome.
func alone(t *testing.T, name string) bool {
	t.Helper()
	const env = "ERRREF_HIGHLIGHT_ALONE"
	if os.Getenv(env) == name {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+name+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), env+"="+name)
	out, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("--- PASS: "+name)) {
		t.Fatalf("in a process of its own (%v):\n%s", err, out)
	}
	return false
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
func tokens(t *testing.T, l chroma.Lexer, o *chroma.TokeniseOptions, text string) []chroma.Token {
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
		ts, err := chroma.Tokenise(l, o, text)
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
