package quote

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"errref/internal/site"
)

// A ProseLine is a line of a page that names a version outside the specs of its citations.
type ProseLine struct {
	File string `json:"file"` // content/index.md
	Line int    `json:"line"`
	Text string `json:"text"` // the line, trimmed
}

// Prose finds the pages' lines naming one of the versions ("v1.29.0" or
// "1.29.0") outside specs.
func Prose(s *site.Site, versions []string) []ProseLine {
	var res []*regexp.Regexp
	for _, v := range versions {
		// Not inside a longer version: 1.29.0 is not in 11.29.0,
		// 1.29.01 or 1.29.0rc1, and a full stop may follow it.
		v = regexp.QuoteMeta(strings.TrimPrefix(v, "v"))
		res = append(res, regexp.MustCompile(`(?:^|[^0-9A-Za-z.])v?`+v+`(?:$|[^0-9A-Za-z.]|\.(?:$|[^0-9A-Za-z]))`))
	}
	found := []ProseLine{} // in JSON, [] when there is none
	for _, p := range s.Pages {
		// Blank out the specs (none holds a newline, so lines stay put).
		prose := bytes.Clone(p.Raw())
		for _, c := range s.Citations {
			if c.File == p.File {
				copy(prose[c.Span[0]:c.Span[1]], bytes.Repeat([]byte(" "), c.Span[1]-c.Span[0]))
			}
		}
		orig := strings.Split(string(p.Raw()), "\n")
		for i, line := range strings.Split(string(prose), "\n") {
			if slices.ContainsFunc(res, func(re *regexp.Regexp) bool { return re.MatchString(line) }) {
				found = append(found, ProseLine{p.File, i + 1, strings.TrimSpace(orig[i])})
			}
		}
	}
	slices.SortStableFunc(found, func(x, y ProseLine) int { return strings.Compare(x.File, y.File) })
	return found
}

// printProse prints lines found by Prose under a heading, if any.
func printProse(w io.Writer, lines []ProseLine, versions []string) {
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "lines naming %s, yours to read (not changed):\n", strings.Join(versions, " or "))
	for _, l := range lines {
		fmt.Fprintf(w, "%s:%d: %s\n", l.File, l.Line, l.Text)
	}
}
