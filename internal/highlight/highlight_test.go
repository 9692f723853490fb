package highlight

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/dlclark/regexp2/v2"
)

// Styles used for the light and the dark color scheme.
const (
	LightStyle = "github"
	DarkStyle  = "github-dark"
)

var update = flag.Bool("update", false, "rewrite chroma.css from chroma's styles")

// unwritten are the parts of chroma's stylesheet that the formatter, as
// set up, never writes a class for (line numbers and their tables,
// highlighted lines, line wrappers, the background of a <pre> it does not
// write): left out, they spare every page's critical path about 200 B of
// gzip. TestUnwrittenClassesAreNeverWritten holds the set.
var unwritten = []chroma.TokenType{chroma.Background, chroma.Line, chroma.CodeLine, chroma.LineNumbers,
	chroma.LineNumbersTable, chroma.LineHighlight, chroma.LineTable, chroma.LineTableTD, chroma.LineLink}

// ruleRE is a line of chroma's stylesheet: its part, selector and declarations.
var ruleRE = regexp.MustCompile(`^/\* (\w+) \*/ (.+?) \{ (.+?);? \}\n?$`)

// generate writes chroma's stylesheet for the two themes, each under its
// own colour scheme, without the unwritten parts.
func generate() ([]byte, error) {
	var b bytes.Buffer
	for _, scheme := range []struct{ media, style string }{
		{"light", LightStyle},
		{"dark", DarkStyle},
	} {
		st := styles.Get(scheme.style)
		if st.Name != scheme.style {
			return nil, fmt.Errorf("chroma has no style %q", scheme.style)
		}
		fmt.Fprintf(&b, "@media (prefers-color-scheme: %s){\n", scheme.media)
		var all bytes.Buffer
		if err := formatter.WriteCSS(&all, st); err != nil {
			return nil, err
		}
		// Chroma writes one rule a line, after a comment naming its part.
		// Parts of the same style share one rule: "Keyword, KeywordType",
		// 80 B less of gzip on every page. Each element has one class, so
		// no rule overrides another.
		var decls []string
		groups := map[string][][2]string{} // declarations -> parts and selectors
		for line := range strings.Lines(all.String()) {
			m := ruleRE.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("%s: chroma's line %q is not /* PART */ SELECTOR { DECLARATIONS }", scheme.style, line)
			}
			if slices.ContainsFunc(unwritten, func(tt chroma.TokenType) bool { return m[1] == tt.String() }) {
				continue
			}
			if groups[m[3]] == nil {
				decls = append(decls, m[3])
			}
			groups[m[3]] = append(groups[m[3]], [2]string{m[1], m[2]})
		}
		for _, d := range decls {
			var parts, sels []string
			for _, g := range groups[d] {
				parts, sels = append(parts, g[0]), append(sels, g[1])
			}
			fmt.Fprintf(&b, "/* %s */ %s { %s }\n", strings.Join(parts, ", "), strings.Join(sels, ", "), d)
		}
		b.WriteString("}\n")
	}
	return b.Bytes(), nil
}

// TestCSSIsCurrent holds chroma.css to what chroma's styles give today.
func TestCSSIsCurrent(t *testing.T) {
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("chroma.css", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(CSS(), want) {
		t.Error("chroma.css is stale: run go test ./internal/highlight -update")
	}
}

// TestClassesDoNotDependOnTheStyle: the build formats with an empty style;
// the markup must be what the real theme would give.
func TestClassesDoNotDependOnTheStyle(t *testing.T) {
	code := "def f(x):\n    return x + 1  # one more\n"
	var got, want bytes.Buffer
	if err := Start("python", code)(&got); err != nil {
		t.Fatal(err)
	}
	it, _ := chroma.Coalesce(lexers.Get("python")).Tokenise(nil, code)
	if err := formatter.Format(&want, styles.Get(LightStyle), it); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("with the empty style:\n%s\nwith %s:\n%s", got.String(), LightStyle, want.String())
	}
	if !strings.Contains(got.String(), `class="c-k"`) {
		t.Errorf("no keyword class in %s", got.String())
	}
}

// TestUnwrittenClassesAreNeverWritten: no class that chroma.css leaves
// out is written, on chroma's test corpus and this site's Python. Without
// Limit: chroma's 150 KB OpenEdge ABL sample takes 2 to 4 s, over 5 on a
// busy machine, and the classes are the test's question, not the time.
func TestUnwrittenClassesAreNeverWritten(t *testing.T) {
	old := Limit
	Limit = time.Hour
	t.Cleanup(func() { Limit = old })
	for _, tt := range unwritten {
		if !regexp.MustCompile(`[* ,]` + tt.String() + `[ ,]`).MatchString(string(CSS())) {
			continue
		}
		t.Errorf("chroma.css holds %s, which it leaves out: run go test ./internal/highlight -update", tt)
	}
	code, _ := golden(t)
	texts := map[string]string{"python": code}
	for _, f := range chromaTestdata(t) {
		lang := strings.TrimSuffix(filepath.Base(f), ".actual")
		if _, ok := texts[lang]; ok || Supported(lang) != nil {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[lang] = string(src)
	}
	for lang, text := range texts {
		var b bytes.Buffer
		if err := Start(lang, text)(&b); err != nil {
			t.Fatal(err)
		}
		for _, tt := range unwritten {
			if class := `"c-` + chroma.StandardTypes[tt] + `"`; strings.Contains(b.String(), class) {
				t.Errorf("%s: the formatter wrote class %s, which chroma.css leaves out", lang, class)
			}
		}
	}
}

// golden is testdata/retry.py highlighted, as testdata/retry.html holds it
// (go test ./internal/highlight -update rewrites it).
func golden(t *testing.T) (code string, want []byte) {
	t.Helper()
	src, err := os.ReadFile("testdata/retry.py")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := Start("python", string(src))(&got); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("testdata/retry.html", got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err = os.ReadFile("testdata/retry.html")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("testdata/retry.py highlights differently from testdata/retry.html:\n%s", got.Bytes())
	}
	return string(src), want
}

// TestStarvedClockChangesNothing: regexp2 times chroma's matches with a
// clock that jumps when its goroutine is starved, and a timed-out match
// falls through to the next rule ("raise" would become a name). Here
// the clock is made to say that every deadline has passed the moment it
// is set, as the worst jump would; the highlighting must not change.
//
// regexp2's clock period is a variable its clock's goroutine reads with no
// lock, and any timed match earlier in the process starts that goroutine:
// setting it here would be a data race. So the test runs in a process of
// its own, which sets it before any match and never sets it back.
func TestStarvedClockChangesNothing(t *testing.T) {
	if !alone(t, "TestStarvedClockChangesNothing") {
		return
	}
	code, want := golden(t)
	// A negative period puts every deadline (now + limit + period) in
	// the past.
	regexp2.SetTimeoutCheckPeriod(-time.Hour)
	// The clock is really starved: a match with a limit times out.
	timed := regexp2.MustCompile(`\w+`, regexp2.None)
	timed.MatchTimeout = time.Second
	if _, err := timed.MatchString("raise"); err == nil {
		t.Fatal("a timed match did not time out: the test no longer starves regexp2's clock")
	}
	for _, lang := range []string{"python", "Python", "py"} {
		var got bytes.Buffer
		if err := Start(lang, code)(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s, with the clock starved:\n%s\nwant testdata/retry.html", lang, got.Bytes())
		}
	}
}

// TestRunawayBlockIsAnError: without chroma's per-match limit, a rule that
// backtracks for ages is stopped by Limit, as an error, not a page.
func TestRunawayBlockIsAnError(t *testing.T) {
	old := Limit
	Limit = 10 * time.Millisecond
	t.Cleanup(func() { Limit = old })
	// (a|aa)+$ on 26 a's and a b tries every way to split the a's, at
	// each of 27 places: a third of a second here, 30 times the limit,
	// and short enough not to keep a core busy after the test.
	l := untimed(chroma.MustNewLexer(&chroma.Config{Name: "runaway"}, func() chroma.Rules {
		return chroma.Rules{"root": {{Pattern: `(a|aa)+$`, Type: chroma.Keyword}, {Pattern: `.|\n`, Type: chroma.Text}}}
	}))
	var got bytes.Buffer
	err := start(l, "runaway", strings.Repeat("a", 26)+"b\n")(&got)
	if err == nil || !strings.Contains(err.Error(), "took longer than 10ms") {
		t.Errorf("error = %v, want one saying the block took longer than %v", err, Limit)
	}
	if got.Len() > 0 {
		t.Errorf("wrote %q for a block that failed", got.String())
	}
}

// TestLexersAreUntimed: a language is highlighted when its lexer, and
// every lexer it hands text to, is a copy; one whose lexer could reach
// chroma's own (Go code in the rules, a lexer built from others, a lexer
// named by the text) is refused, with the reason.
func TestLexersAreUntimed(t *testing.T) {
	for _, tc := range []struct {
		lang string
		want string // "" for supported
	}{
		{"python", ""},
		{"text", ""},
		{"bash", ""},
		{"json", ""},
		{"klingon", `unknown code language "klingon"`},
		{"go", "calls Go code of its own"},
		{"erb", "built from other lexers"},
		{"Templ", "Go lexer calls Go code of its own (used by Templ)"},
		{"Org Mode", "picks other lexers by the text"},
		{"html", ""}, // uses JavaScript and CSS by name: their copies
	} {
		err := Supported(tc.lang)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Supported(%q) = %v, want %q", tc.lang, err, tc.want)
		}
	}
}

// BenchmarkCode highlights the three blocks of testdata/retry.py, as one
// page of the benchmark sites does.
func BenchmarkCode(b *testing.B) {
	src, err := os.ReadFile("testdata/retry.py")
	if err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	for b.Loop() {
		out.Reset()
		if err := Start("python", string(src))(&out); err != nil {
			b.Fatal(err)
		}
	}
}
