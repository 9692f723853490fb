package quote

import (
	"strings"
	"unicode"
)

// parts folds white space in a quote and splits it where "..." or "…" stands for elided text.
func parts(q string) []string {
	var ps []string
	for _, p := range strings.Split(strings.ReplaceAll(q, "…", "..."), "...") {
		if f := fold(p); f != "" {
			ps = append(ps, f)
		}
	}
	return ps
}

func fold(s string) string { return strings.Join(strings.Fields(s), " ") }

// holds reports whether the parts stand in lines, in order, none
// beginning or ending inside a word: "total = 1" is not in "total = 10".
func holds(lines, parts []string) bool {
	text := fold(strings.Join(lines, "\n"))
	for _, p := range parts {
		i := 0 // the first place p stands, not inside a word
		for !strings.HasPrefix(text[i:], p) || joins(text[:i], p) || joins(p, text[i+len(p):]) {
			if i++; i > len(text) {
				return false
			}
		}
		text = text[i+len(p):]
	}
	return true
}

// joins reports whether x ends and y begins with a letter, digit or _: one word across both.
func joins(x, y string) bool {
	return strings.TrimRightFunc(x, inWord) != x && strings.TrimLeftFunc(y, inWord) != y
}

func inWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// nearest returns the first line of the span of n lines that scores highest
// (nearest near among equals) and its score; 0 when none scores above 0.
func nearest(lines []string, n, near int, score func(span []string) float64) (int, float64) {
	best, top := 0, 0.0
	for s := 1; s+n-1 <= len(lines); s++ {
		if x := score(lines[s-1 : s-1+n]); x > 0 && (x > top || x == top && distance(s, near) < distance(best, near)) {
			best, top = s, x
		}
	}
	return best, top
}

func distance(x, y int) int { return max(x-y, y-x) }

// short folds a quote to one line of at most 60 characters, none cut in half.
func short(q string) string {
	f := []rune(fold(q))
	if len(f) > 60 {
		return string(f[:57]) + "..."
	}
	return string(f)
}
