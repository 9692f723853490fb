package quote

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"

	"errref/internal/site"
)

// check checks c's quote against the lines c cites in t, which must be
// at the version c cites: OK or Mismatch, and the lines of the file if read.
func (t Tree) check(c site.Citation) (Result, []string) {
	bad := func(format string, args ...any) Result {
		return Result{Citation: c, Kind: Mismatch, Why: c.Lines() + fmt.Sprintf(format, args...)}
	}
	lines, err := t.lines(c.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return bad(": no such file in %s", t.Where), nil
	}
	if err != nil {
		return bad(": %v", err), nil
	}
	ps := parts(c.Quote)
	if len(ps) == 0 {
		return bad(": the quote is empty"), lines
	}
	if c.End <= len(lines) && holds(lines[c.Start-1:c.End], ps) {
		return Result{Citation: c, Kind: OK, Why: c.Lines()}, lines
	}
	r := bad(" does not hold %q", short(c.Quote))
	if c.End > len(lines) {
		r = bad(" is past the end of the file (%d lines)", len(lines))
	}
	at, _ := nearest(lines, c.End-c.Start+1, c.Start, func(span []string) float64 {
		if holds(span, ps) {
			return 1
		}
		return 0
	})
	switch {
	case at == 0:
		r.Why += "; not found anywhere in the file"
	case c.End == c.Start:
		r.Why += fmt.Sprintf("; found at %d", at)
	default:
		r.Why += fmt.Sprintf("; found at %d-%d", at, at+c.End-c.Start)
	}
	return r, lines
}

// Check checks and prints the citations of each REPO[@VERSION]=DIR in args;
// true if all held.
func Check(w io.Writer, args []string, build func() (*site.Site, error)) (bool, error) {
	copies, err := parseCopies(args)
	if err != nil {
		return false, err
	}
	s, err := build()
	if err != nil {
		return false, err
	}
	for _, repo := range slices.Sorted(maps.Keys(copies)) {
		if !slices.ContainsFunc(s.Citations, func(c site.Citation) bool { return c.Repo == repo }) {
			return false, fmt.Errorf("-check-sources %s: no page in content/ cites %s", repo, repo)
		}
	}
	counts, unchecked := map[string]int{}, map[string]int{}
	var out bytes.Buffer
	for _, c := range s.Citations {
		if len(copies[c.Repo]) == 0 {
			unchecked[c.Repo]++
			continue
		}
		r := check(copies[c.Repo], c)
		counts[r.Kind]++
		r.Report(&out)
	}
	fmt.Fprintf(&out, "%d ok, %d mismatched, %d at another version", counts[OK], counts[Mismatch], counts[VersionMismatch])
	for _, repo := range slices.Sorted(maps.Keys(unchecked)) {
		fmt.Fprintf(&out, "; %d of %s not checked (no source given)", unchecked[repo], repo)
	}
	out.WriteString("\n")
	_, err = w.Write(out.Bytes())
	return counts[Mismatch] == 0 && counts[VersionMismatch] == 0, err
}

// check checks c against the copy in given at the version c cites, else
// says which version the first one holds.
func check(given []Copy, c site.Citation) Result {
	if i := slices.IndexFunc(given, func(s Copy) bool { return s.versionOf(c.Spec) == "" }); i >= 0 {
		r, _ := given[i].tree().check(c)
		return r
	}
	return Result{Citation: c, Kind: VersionMismatch, Why: fmt.Sprintf("%s cites %s, but %s: not checked", c.Lines(), c.Version, given[0].versionOf(c.Spec))}
}

// parseCopies reads -check-sources arguments, by repository.
func parseCopies(args []string) (map[string][]Copy, error) {
	copies := map[string][]Copy{}
	for _, a := range args {
		s, err := parseCopy("-check-sources", a, false)
		if err != nil {
			return nil, err
		}
		copies[s.Repo] = append(copies[s.Repo], s)
	}
	return copies, nil
}
