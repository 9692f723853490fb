package quote

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"errref/internal/site"
)

// Relocate finds c's quote in the file c cites at to's version. The quote
// must hold in from, at c's version (else NotOK): the lines around it tell
// one place from another. Code that moved to another file is Gone.
func Relocate(c site.Citation, from, to Tree) Result {
	notOK := func(why string) Result { return Result{Citation: c, Version: to.Version, Kind: NotOK, Why: why} }
	r, old := from.check(c)
	if r.Kind != OK {
		return notOK(fmt.Sprintf("%s %s: %s", r.Kind, c.At(), r.Why))
	}
	cur, err := to.lines(c.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return Result{Citation: c, Version: to.Version, Kind: Gone}
	}
	if err != nil {
		return notOK(err.Error())
	}
	return relocate(c, to.Version, old, cur)
}

// relocate moves c, whose quote holds in old, to version in cur: the quote
// on as many lines as it takes in old, with the cited lines beyond them.
func relocate(c site.Citation, version string, old, cur []string) Result {
	parts := parts(c.Quote)
	a, b := c.Start, c.End // narrowed to the fewest lines that still hold the quote
	for a < b && holds(old[a:b], parts) {
		a++
	}
	for b > a && holds(old[a-1:b-1], parts) {
		b--
	}
	m := b - a + 1
	lead, n := a-c.Start, c.End-c.Start+1

	var places []int // first line of each tight span of m lines holding the quote
	for s := 1; s+m-1 <= len(cur); s++ {
		if tight(cur[s-1:s-1+m], parts) && s-lead >= 1 && s-lead+n-1 <= len(cur) {
			places = append(places, s)
		}
	}
	mv := Result{Citation: c, Version: version, Places: len(places)}
	if len(places) == 0 {
		mv.Kind = Changed
		if at, score := nearest(cur, min(n, len(cur)), c.Start, alike(old[c.Start-1:c.End])); at > 0 {
			end := at + min(n, len(cur)) - 1
			mv.Nearest, mv.Alike = []int{at, end}, score
			mv.Diff = diff(old[c.Start-1:c.End], cur[at-1:end])
		}
		return mv
	}
	places, mv.Context = narrow(old, cur, a, b, places)
	if len(places) > 1 {
		mv.Kind = Ambiguous
		for _, p := range places {
			mv.Candidates = append(mv.Candidates, p-lead)
		}
		return mv
	}
	start := places[0] - lead
	mv.To = c.Spec
	mv.To.Version, mv.To.Start, mv.To.End = version, start, start+n-1
	mv.Kind = Moved
	if start == c.Start {
		mv.Kind = Unchanged
	}
	mv.Around = sameAt(old, c.Start-1, cur, start-1) && sameAt(old, c.End+1, cur, start+n)
	if !sameLines(old[c.Start-1:c.End], cur[start-1:start-1+n]) {
		mv.Diff = diff(old[c.Start-1:c.End], cur[start-1:start-1+n])
	}
	return mv
}

// tight reports whether the parts start and end on span's first and last line.
func tight(span, parts []string) bool {
	return holds(span, parts) && (len(span) == 1 || !holds(span[1:], parts) && !holds(span[:len(span)-1], parts))
}

// narrow tells apart the places (first lines in cur of the quote's span) by
// the lines around a..b in old, one more on each side at a time (0: the
// quoted lines whole). It returns the place left and the context it took,
// or the places left before a step that would leave none. A place as old
// on one side only stays in: its other side may be an edit beside the quote.
func narrow(old, cur []string, a, b int, places []int) ([]int, int) {
	m := b - a + 1
	same := func(s, k int) bool {
		if k == 0 {
			return sameLines(old[a-1:b], cur[s-1:s-1+m])
		}
		return sameAt(old, a-k, cur, s-k) && sameAt(old, b+k, cur, s+m-1+k)
	}
	oneSide := func(s, k int) bool {
		return same(s, k) || k > 0 && (sameAt(old, a-k, cur, s-k) || sameAt(old, b+k, cur, s+m-1+k))
	}
	for k := 0; k <= max(a-1, len(old)-b); k++ {
		left := slices.DeleteFunc(slices.Clone(places), func(s int) bool { return !same(s, k) })
		kept := slices.DeleteFunc(slices.Clone(places), func(s int) bool { return !oneSide(s, k) })
		switch {
		case len(left) == 0:
			return places, k
		case len(kept) == 1:
			return left, k
		}
		places = kept
	}
	return places, 0
}

// sameAt compares line i of x with line j of y, where a line past either
// end of its file is the same only as another such.
func sameAt(x []string, i int, y []string, j int) bool {
	xin, yin := i >= 1 && i <= len(x), j >= 1 && j <= len(y)
	if !xin || !yin {
		return xin == yin
	}
	return sameLine(x[i-1], y[j-1])
}

// sameLine ignores white space at the end of a line, and a CR before the
// newline, which an editor may add or drop without touching the code.
func sameLine(x, y string) bool {
	return strings.TrimRight(x, " \t\r") == strings.TrimRight(y, " \t\r")
}

func sameLines(x, y []string) bool { return slices.EqualFunc(x, y, sameLine) }
