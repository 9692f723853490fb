package cite

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"unicode"
)

// Outcomes of moving a citation to another version of its file.
const (
	Moved     = "moved"     // the quote is there once, at other lines
	Unchanged = "unchanged" // the quote is there once, at the same lines
	Changed   = "changed"   // the quote is not there
	Ambiguous = "ambiguous" // the quote is there more than once, and nothing tells which
	Gone      = "gone"      // the file is not there
)

// A Move says where a citation's quote stands at another version.
type Move struct {
	Outcome string
	From    Citation // the citation as the page has it
	To      Citation // Moved and Unchanged: the same quote at the new version and lines

	// Places is how many places hold the quote at the new version. When
	// more than one, Context says what told the one from the others: 0,
	// the quoted lines whole; more, that many lines on each side of the
	// cited ones, the same at both versions.
	Places, Context int
	// Candidates, for Ambiguous: the first cited line at each place.
	Candidates []int
	// Nearest, for Changed: the first line of the cited length most like
	// the old cited lines, 0 when no line is at all alike; Alike is how
	// alike, from 0 to 1.
	Nearest, NearestEnd int
	Alike               float64
	// Around, for Moved and Unchanged: whether the line before the cited
	// ones and the line after are as they were. When not, the code around
	// the quote changed, and may no longer be what the page says it is.
	Around bool
	// Diff, for Changed, sets the old cited lines against the nearest
	// ones; for Moved and Unchanged, against the new cited lines when
	// they differ around the quote. Lines start "-", "+" or " ".
	Diff []string
}

// Relocate finds c's quote in the file c cites, in to, a copy of the
// version to move c to; s must hold the version c cites now.
func (s Copy) Relocate(c Citation, to Copy) (Move, error) {
	if r, ok := s.other(c); !ok {
		return Move{}, fmt.Errorf("%s", r.Message)
	}
	return Relocate(c, s.Tree(), to.Tree())
}

// Relocate finds c's quote in the file c cites at to's version. from must
// be at the version c cites, where the quote must hold (as Check says),
// because the lines from has around it are what tells one place from
// another when the quote is found more than once. Only c's own file is
// searched: code that moved to another file is reported Gone, for a
// person to find. Every command that moves or follows a quote (-repin,
// -drift) comes here, whatever keeps the two versions.
func Relocate(c Citation, from, to Tree) (Move, error) {
	if r := from.Check(c); r.Verdict != OK {
		return Move{}, fmt.Errorf("%s", r.Message)
	}
	old, err := from.lines(c.Path)
	if err != nil {
		return Move{}, err
	}
	cur, err := to.lines(c.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return Move{Outcome: Gone, From: c}, nil
	}
	if err != nil {
		return Move{}, err
	}
	return relocate(c, to.Version, old, cur), nil
}

// relocate moves c, whose quote holds in old, to version in cur.
//
// The quote is looked for as Check reads it (white space folded, "..."
// for elided text), on as many lines as it takes in old: a one-line quote
// is found on one line, a three-line one on three. When the page cites
// more lines than the quote takes, the extra lines go with it.
func relocate(c Citation, version string, old, cur []string) Move {
	parts := quoteParts(c.Quote)
	a, b := tighten(old, parts, c.Start, c.End)
	m := b - a + 1
	lead, n := a-c.Start, c.End-c.Start+1

	var places []int // first line of each tight span of m lines holding the quote
	for s := 1; s+m-1 <= len(cur); s++ {
		if tight(cur[s-1:s-1+m], parts) && s-lead >= 1 && s-lead+n-1 <= len(cur) {
			places = append(places, s)
		}
	}
	mv := Move{From: c, Places: len(places)}
	switch len(places) {
	case 0:
		mv.Outcome = Changed
		mv.Nearest, mv.Alike = nearest(old[c.Start-1:c.End], cur, c.Start)
		if mv.Nearest > 0 {
			mv.NearestEnd = mv.Nearest + min(n, len(cur)) - 1
			mv.Diff = diff(old[c.Start-1:c.End], cur[mv.Nearest-1:mv.NearestEnd])
		}
		return mv
	case 1:
	default:
		var k int
		places, k = narrow(old, cur, a, b, places)
		if len(places) > 1 {
			mv.Outcome = Ambiguous
			for _, p := range places {
				mv.Candidates = append(mv.Candidates, p-lead)
			}
			return mv
		}
		mv.Context = k
	}
	start := places[0] - lead
	mv.To = c
	mv.To.Version = version
	mv.To.Start, mv.To.End = start, start+n-1
	mv.Outcome = Moved
	if start == c.Start {
		mv.Outcome = Unchanged
	}
	mv.Around = sameAt(old, c.Start-1, cur, start-1) && sameAt(old, c.End+1, cur, start+n)
	if !sameLines(old[c.Start-1:c.End], cur[start-1:start-1+n]) {
		mv.Diff = diff(old[c.Start-1:c.End], cur[start-1:start-1+n])
	}
	return mv
}

// tighten narrows the lines first..last, which hold the parts, to the
// fewest that still do.
func tighten(lines, parts []string, first, last int) (int, int) {
	for first < last && holds(lines[first:last], parts) {
		first++
	}
	for last > first && holds(lines[first-1:last-1], parts) {
		last--
	}
	return first, last
}

// tight reports whether span holds the parts and no shorter span within
// it does: the quote starts on its first line and ends on its last.
func tight(span, parts []string) bool {
	if !holds(span, parts) {
		return false
	}
	return len(span) == 1 || (!holds(span[1:], parts) && !holds(span[:len(span)-1], parts))
}

// narrow tells apart the places (first lines, in cur, of a span of the
// quote's lines) by what stands around them, as in old around a..b: first
// the quote's lines themselves, whole, then one more line on each side at
// a time, both sides the same as in old (or both past an end of the
// file). It stops when one place is left, and returns it with the number
// of lines of context that took, or when the next step would leave none,
// and returns those that were left: the same text in the same
// surroundings, which only a person can tell apart.
func narrow(old, cur []string, a, b int, places []int) ([]int, int) {
	m := b - a + 1
	same := func(s, k int) bool {
		if k == 0 {
			return sameLines(old[a-1:b], cur[s-1:s-1+m])
		}
		return sameAt(old, a-k, cur, s-k) && sameAt(old, b+k, cur, s+m-1+k)
	}
	for k := 0; k <= max(a-1, len(old)-b); k++ {
		var left []int
		for _, s := range places {
			if same(s, k) {
				left = append(left, s)
			}
		}
		switch len(left) {
		case 0:
			return places, k
		case 1:
			return left, k
		}
		places = left
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

// nearest finds the span of len(want) lines in cur most like want, by the
// tokens they share, the one nearest near among equals, and how alike it
// is; 0 when no span shares a token.
func nearest(want, cur []string, near int) (int, float64) {
	n := min(len(want), len(cur))
	wt := tokens(strings.Join(want, "\n"))
	best, bestScore := 0, 0.0
	for s := 1; s+n-1 <= len(cur); s++ {
		score := dice(wt, tokens(strings.Join(cur[s-1:s-1+n], "\n")))
		if score > 0 && (score > bestScore || score == bestScore && abs(s-near) < abs(best-near)) {
			best, bestScore = s, score
		}
	}
	return best, bestScore
}

// tokens splits code into words (letters, digits and _) and single marks,
// dropping white space.
func tokens(s string) map[string]int {
	t := map[string]int{}
	word := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	rs := []rune(s)
	for i := 0; i < len(rs); {
		switch {
		case unicode.IsSpace(rs[i]):
			i++
		case word(rs[i]):
			j := i
			for j < len(rs) && word(rs[j]) {
				j++
			}
			t[string(rs[i:j])]++
			i = j
		default:
			t[string(rs[i])]++
			i++
		}
	}
	return t
}

// dice is the share of tokens two texts have in common, from 0 to 1.
func dice(x, y map[string]int) float64 {
	common, total := 0, 0
	for k, n := range x {
		common += min(n, y[k])
		total += n
	}
	for _, n := range y {
		total += n
	}
	if total == 0 {
		return 0
	}
	return 2 * float64(common) / float64(total)
}

// diff sets the lines x against y, line by line, by their longest common
// subsequence: "-" for a line only in x, "+" only in y, " " in both.
func diff(x, y []string) []string {
	// lcs[i][j] is the length of the longest common subsequence of x[i:]
	// and y[j:]; a quote is a few lines, so the table is small.
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if sameLine(x[i], y[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && sameLine(x[i], y[j]):
			out = append(out, " "+x[i])
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, "-"+x[i])
			i++
		default:
			out = append(out, "+"+y[j])
			j++
		}
	}
	return out
}
