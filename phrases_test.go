package errref_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPagePhrases holds each page to the phrases the scripts in testdata/
// say it must hold or must never hold, and reports a failure at the line
// of the phrase. A script is text, one instruction a line:
//
//	page /mcp/mcperror/
//	why audit 2, item 3: a resumption GET can still raise at v2.0.0
//	says an error status now fails only its own request
//	never no HTTP status escapes
//
// "page URL" names the built page the phrases below it are read on.
// A case is a "why" line, saying what its phrases hold the page to, and
// the phrases: "says TEXT" (the page holds TEXT) and "never TEXT" (it
// does not). A blank line ends a case, and so its why; a line starting
// with # is a comment. TEXT runs to the end of the line and is matched in
// the page's HTML as text() gives it: white space folded, <wbr> dropped.
func TestPagePhrases(t *testing.T) {
	s := build(t, publishEnv)
	pages := map[string]string{} // URL -> the page as text() gives it
	for _, p := range s.Pages {
		pages[p.URL] = text(s, p.Out)
	}
	scripts, err := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no phrase scripts in testdata/ (%v)", err)
	}
	for _, file := range scripts {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		phrases, err := readPhrases(file, string(data))
		if err != nil {
			t.Error(err)
			continue
		}
		for _, ph := range phrases {
			page, ok := pages[ph.page]
			switch {
			case !ok:
				t.Errorf("%s: no page is built at %s", ph.at, ph.page)
			case ph.says && !strings.Contains(page, ph.text):
				t.Errorf("%s: %s lacks %q (%s)", ph.at, ph.page, ph.text, ph.why)
			case !ph.says && strings.Contains(page, ph.text):
				t.Errorf("%s: %s says %q (%s)", ph.at, ph.page, ph.text, ph.why)
			}
		}
	}
}

// A phrase is one says or never line of a script.
type phrase struct {
	at   string // file:line
	page string // the URL of the page it is read on
	says bool   // says, or never
	text string
	why  string
}

// readPhrases reads a script (see TestPagePhrases); an error names the
// file and line of what it cannot read.
func readPhrases(file, data string) ([]phrase, error) {
	var phrases []phrase
	var page, why string
	for i, line := range strings.Split(data, "\n") {
		line = strings.TrimSuffix(line, "\r") // as a Windows checkout may write it
		at := fmt.Sprintf("%s:%d", file, i+1)
		if line == "" {
			why = ""
			continue
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		verb, arg, _ := strings.Cut(line, " ")
		if arg == "" || arg != strings.TrimSpace(arg) {
			return nil, fmt.Errorf("%s: write %s, one space, then its text, without white space at its end", at, verb)
		}
		switch verb {
		case "page":
			page = arg
		case "why":
			why = arg
		case "says", "never":
			if page == "" || why == "" {
				return nil, fmt.Errorf("%s: a phrase needs a page line above it, and a why line in its case", at)
			}
			phrases = append(phrases, phrase{at: at, page: page, says: verb == "says", text: arg, why: why})
		default:
			return nil, fmt.Errorf("%s: %q: a line is page, why, says, never, a # comment or blank", at, verb)
		}
	}
	return phrases, nil
}
