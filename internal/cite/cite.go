// Package cite reads the spec of a citation of library source, such as
// "modelcontextprotocol/python-sdk@v1.29.0:src/mcp/shared/session.py#305-306",
// and links it to the lines upstream; internal/quote checks and moves quotes.
package cite

import (
	"cmp"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
)

// A Spec says where quoted text stands in a repository.
type Spec struct {
	Repo    string // owner/name
	Version string // tag or commit
	Path    string // repository-relative path
	Start   int    // first line, 1-based
	End     int    // last line, End >= Start
}

// The version is a tag or a commit; a tag may be a package's in a
// workspace, scoped as npm names it: @modelcontextprotocol/client@2.0.0.
var specRE = regexp.MustCompile(`^([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)@((?:@[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+@)?[A-Za-z0-9_.+-]+):([A-Za-z0-9_./-]+)#L?(\d+)(?:-L?(\d+))?$`)

// Parse reads a spec of the form OWNER/REPO@VERSION:PATH#LINE or #FIRST-LAST.
func Parse(spec string) (Spec, error) {
	m := specRE.FindStringSubmatch(spec)
	if m == nil {
		return Spec{}, fmt.Errorf("citation %q: write it as OWNER/REPO@VERSION:PATH#LINE or #FIRST-LAST, for example modelcontextprotocol/python-sdk@v1.29.0:src/mcp/shared/session.py#305-306", spec)
	}
	var lines [2]int // one line is a span of one
	for i, n := range []string{m[4], cmp.Or(m[5], m[4])} {
		var err error
		if lines[i], err = strconv.Atoi(n); err != nil {
			return Spec{}, fmt.Errorf("citation %q: line %s: %v", spec, n, err.(*strconv.NumError).Err)
		}
	}
	s := Spec{Repo: m[1], Version: m[2], Path: m[3], Start: lines[0], End: lines[1]}
	if s.Start < 1 || s.End < s.Start {
		return Spec{}, fmt.Errorf("citation %q: lines must be 1 or more, the first no greater than the last", spec)
	}
	if !fs.ValidPath(s.Path) || s.Path == "." { // ValidPath takes "." for the root
		return Spec{}, fmt.Errorf("citation %q: the path must be a plain repository path, without . or .. parts", spec)
	}
	return s, nil
}

// String is the spec written in the form Parse reads.
func (s Spec) String() string { return fmt.Sprintf("%s@%s:%s", s.Repo, s.Version, s.Lines()) }

// Lines names the cited lines of the file: "src/x.py#3-5".
func (s Spec) Lines() string { return s.Path + s.anchor("") }

// URL links to the cited lines on GitHub, at the cited version.
func (s Spec) URL() string {
	return "https://github.com/" + s.Repo + "/blob/" + s.Version + "/" + s.Path + s.anchor("L")
}

// anchor is "#3-5", or "#3" for one line, with mark before each number.
func (s Spec) anchor(mark string) string {
	if s.End == s.Start {
		return "#" + mark + strconv.Itoa(s.Start)
	}
	return fmt.Sprintf("#%s%d-%s%d", mark, s.Start, mark, s.End)
}

// Label is the link text: "src/x.py, lines 3-5".
func (s Spec) Label() string { return s.Path + ", " + Span(s.Start, s.End) }

// Span names lines of a file: "line 3" or "lines 3-5".
func Span(start, end int) string {
	if start == end {
		return "line " + strconv.Itoa(start)
	}
	return fmt.Sprintf("lines %d-%d", start, end)
}
