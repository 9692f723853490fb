package cite

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// A Copy is a local copy of one cited repository: a git checkout, whose
// HEAD says its version, or a plain folder of files, whose version is the
// one given with it, if any.
type Copy struct {
	Repo    string
	Version string // declared with REPO@VERSION=DIR; for git, what HEAD is
	Dir     string
	git     bool
	head    string // commit of HEAD, for a git checkout
}

// ParseCopy reads REPO=DIR or REPO@VERSION=DIR.
func ParseCopy(arg string) (Copy, error) {
	spec, dir, ok := strings.Cut(arg, "=")
	if !ok || spec == "" || dir == "" {
		return Copy{}, fmt.Errorf("-check-sources %q: write REPO=DIR or REPO@VERSION=DIR, for example modelcontextprotocol/python-sdk=../python-sdk", arg)
	}
	return parseCopy("-check-sources", spec, dir)
}

// ParseTarget reads REPO@VERSION=DIR, the version to move citations to:
// the version is the one written into the page, so it must be given.
func ParseTarget(arg string) (Copy, error) {
	spec, dir, ok := strings.Cut(arg, "=")
	if repo, version, _ := strings.Cut(spec, "@"); !ok || repo == "" || version == "" || dir == "" {
		return Copy{}, fmt.Errorf("-repin %q: write REPO@VERSION=DIR, for example modelcontextprotocol/python-sdk@v1.30.0=../sdk-v1.30.0", arg)
	}
	return parseCopy("-repin", spec, dir)
}

func parseCopy(flag, spec, dir string) (Copy, error) {
	s := Copy{Dir: dir}
	s.Repo, s.Version, _ = strings.Cut(spec, "@")
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return Copy{}, fmt.Errorf("%s %s: %s is not a folder", flag, s.Repo, dir)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		s.git = true
		head, err := git(dir, "rev-parse", "HEAD")
		if err != nil {
			return Copy{}, fmt.Errorf("%s %s: %s: %v", flag, s.Repo, dir, err)
		}
		s.head = head
		if s.Version != "" {
			if c, err := git(dir, "rev-parse", "--verify", "-q", s.Version+"^{commit}"); err != nil || c != head {
				return Copy{}, fmt.Errorf("%s %s@%s: %s is checked out at %.12s, not at %s", flag, s.Repo, s.Version, dir, head, s.Version)
			}
		}
	}
	return s, nil
}

func git(dir string, args ...string) (string, error) {
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Verdicts of a check.
const (
	OK              = "ok"
	Mismatch        = "MISMATCH"
	VersionMismatch = "VERSION MISMATCH"
)

// Result is the outcome of checking one citation.
type Result struct {
	Verdict string
	Message string // the line to print
}

// versionOf says which version of the code s holds, for c: "" when it is
// the cited one, else a description of the difference.
func (s Copy) versionOf(c Citation) string {
	switch {
	case s.git:
		commit, err := git(s.Dir, "rev-parse", "--verify", "-q", c.Version+"^{commit}")
		if err != nil {
			return fmt.Sprintf("%s is at %.12s, and %s is not a version it knows", s.Dir, s.head, c.Version)
		}
		if commit != s.head {
			return fmt.Sprintf("%s is at %.12s, not at %s (%.12s)", s.Dir, s.head, c.Version, commit)
		}
	case s.Version != "" && s.Version != c.Version:
		return fmt.Sprintf("%s holds %s", s.Dir, s.Version)
	}
	return ""
}

// Holds reports whether s is a copy of the repository and version c
// cites (a plain folder given without a version holds every version).
func (s Copy) Holds(c Citation) bool { return s.Repo == c.Repo && s.versionOf(c) == "" }

// Check checks c against s.
func (s Copy) Check(c Citation) Result {
	if r, ok := s.other(c); !ok {
		return r
	}
	return s.Tree().Check(c)
}

// other reports, when s is not at the version c cites, the result that
// says so, and false.
func (s Copy) other(c Citation) (Result, bool) {
	v := s.versionOf(c)
	if v == "" {
		return Result{}, true
	}
	where := c.At
	if where == "" {
		where = "?"
	}
	return Result{VersionMismatch, fmt.Sprintf("%s %s: %s#%s cites %s, but %s: not checked", VersionMismatch, where, c.Path, c.lines("-"), c.Version, v)}, false
}

// quoteParts folds white space in the quote and splits it where "..." or
// "…" stands for elided text.
func quoteParts(q string) []string {
	q = strings.ReplaceAll(q, "…", "...")
	var parts []string
	for _, p := range strings.Split(q, "...") {
		if f := fold(p); f != "" {
			parts = append(parts, f)
		}
	}
	return parts
}

func fold(s string) string { return strings.Join(strings.Fields(s), " ") }

// holds reports whether the parts stand in lines, in order.
func holds(lines []string, parts []string) bool {
	text := fold(strings.Join(lines, "\n"))
	for _, p := range parts {
		i := strings.Index(text, p)
		if i < 0 {
			return false
		}
		text = text[i+len(p):]
	}
	return true
}

// find returns the first line of the span of n lines, nearest to near, that
// holds the parts, or 0.
func find(lines []string, parts []string, n, near int) int {
	best := 0
	for start := 1; start+n-1 <= len(lines); start++ {
		if holds(lines[start-1:start-1+n], parts) && (best == 0 || abs(start-near) < abs(best-near)) {
			best = start
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func short(q string) string {
	f := fold(q)
	if len(f) > 60 {
		return f[:57] + "..."
	}
	return f
}

// CheckAll checks every citation whose repository one of args names, and
// prints a line for each and a summary. It reports whether all held. One
// repository may be given at several versions (a page that quotes v1 and
// v2 of a library): each citation is checked against the source at its
// own version, and against the first given when none is.
func CheckAll(w io.Writer, cites []Citation, args []string) (bool, error) {
	copies := map[string][]Copy{}
	for _, a := range args {
		s, err := ParseCopy(a)
		if err != nil {
			return false, err
		}
		copies[s.Repo] = append(copies[s.Repo], s)
	}
	counts := map[string]int{}
	unchecked := map[string]int{}
	var out bytes.Buffer
	for _, c := range cites {
		given, ok := copies[c.Repo]
		if !ok {
			unchecked[c.Repo]++
			continue
		}
		s := given[0]
		for _, g := range given {
			if g.versionOf(c) == "" {
				s = g
				break
			}
		}
		r := s.Check(c)
		counts[r.Verdict]++
		fmt.Fprintln(&out, r.Message)
	}
	fmt.Fprintf(&out, "%d ok, %d mismatched, %d at another version", counts[OK], counts[Mismatch], counts[VersionMismatch])
	for _, repo := range slices.Sorted(maps.Keys(unchecked)) {
		fmt.Fprintf(&out, "; %d of %s not checked (no source given)", unchecked[repo], repo)
	}
	out.WriteString("\n")
	_, err := w.Write(out.Bytes())
	return counts[Mismatch] == 0 && counts[VersionMismatch] == 0, err
}
