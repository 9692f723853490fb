// Package cite parses citations of library source, such as
// "modelcontextprotocol/python-sdk@v1.29.0:src/mcp/shared/session.py#305-306",
// links them to the exact lines upstream, and checks a quote against a local
// copy of the cited source.
package cite

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// A Citation says where quoted text stands in a repository.
type Citation struct {
	Repo    string // owner/name
	Version string // tag or commit
	Path    string // repository-relative path
	Start   int    // first line, 1-based
	End     int    // last line, End >= Start
	Quote   string // the quoted text, as the page shows it
	At      string // the page file and line that cite it, "content/index.md:88", when known
	// History: the page quotes this release to show what it did (its
	// front matter's history), so the quote stays at this version.
	History bool
}

const specPattern = `([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)@([A-Za-z0-9_.+-]+):([A-Za-z0-9_./-]+)#L?(\d+)(?:-L?(\d+))?`

var (
	specRE    = regexp.MustCompile(`^` + specPattern + `$`)
	writtenRE = regexp.MustCompile(`cite(?:=|:|=")(` + specPattern + `)`)
)

// SpecsIn finds the citations written in a page's text, after cite= (a
// fence, quoted or not) or cite: (a link), and returns the byte range of
// each spec, without that prefix. Specs in text the build does not read
// as a citation, such as one shown in a code span, are found too.
func SpecsIn(text []byte) [][2]int {
	var at [][2]int
	for _, m := range writtenRE.FindAllSubmatchIndex(text, -1) {
		at = append(at, [2]int{m[2], m[3]})
	}
	return at
}

// Parse reads a citation of the form OWNER/REPO@VERSION:PATH#LINE or
// OWNER/REPO@VERSION:PATH#FIRST-LAST.
func Parse(spec string) (Citation, error) {
	m := specRE.FindStringSubmatch(spec)
	if m == nil {
		return Citation{}, fmt.Errorf("citation %q: write it as OWNER/REPO@VERSION:PATH#LINE or #FIRST-LAST, for example modelcontextprotocol/python-sdk@v1.29.0:src/mcp/shared/session.py#305-306", spec)
	}
	c := Citation{Repo: m[1], Version: m[2], Path: m[3]}
	var err error
	if c.Start, err = strconv.Atoi(m[4]); err != nil {
		return Citation{}, fmt.Errorf("citation %q: line %s: %v", spec, m[4], err.(*strconv.NumError).Err)
	}
	c.End = c.Start
	if m[5] != "" {
		if c.End, err = strconv.Atoi(m[5]); err != nil {
			return Citation{}, fmt.Errorf("citation %q: line %s: %v", spec, m[5], err.(*strconv.NumError).Err)
		}
	}
	if c.Start < 1 || c.End < c.Start {
		return Citation{}, fmt.Errorf("citation %q: lines must be 1 or more, the first no greater than the last", spec)
	}
	for _, seg := range strings.Split(c.Path, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return Citation{}, fmt.Errorf("citation %q: the path must be a plain repository path, without . or .. parts", spec)
		}
	}
	return c, nil
}

// Spec is the citation written back in the form Parse reads.
func (c Citation) Spec() string {
	return fmt.Sprintf("%s@%s:%s#%s", c.Repo, c.Version, c.Path, c.lines("-"))
}

func (c Citation) lines(sep string) string {
	if c.End == c.Start {
		return strconv.Itoa(c.Start)
	}
	return strconv.Itoa(c.Start) + sep + strconv.Itoa(c.End)
}

// URL links to the cited lines on GitHub, at the cited version.
func (c Citation) URL() string {
	anchor := "#L" + strconv.Itoa(c.Start)
	if c.End != c.Start {
		anchor += "-L" + strconv.Itoa(c.End)
	}
	return "https://github.com/" + c.Repo + "/blob/" + c.Version + "/" + c.Path + anchor
}

// Label is the link text: the path and the lines.
func (c Citation) Label() string {
	if c.End == c.Start {
		return fmt.Sprintf("%s, line %d", c.Path, c.Start)
	}
	return fmt.Sprintf("%s, lines %d-%d", c.Path, c.Start, c.End)
}
