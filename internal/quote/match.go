package quote

import "strings"

// parts folds white space in a quote and splits it where "..." or "…"
// stands for elided text.
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

// holds reports whether the parts stand in lines, in order.
func holds(lines, parts []string) bool {
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

// find returns the first line of the span of n lines, nearest to near,
// that holds the parts, or 0.
func find(lines, parts []string, n, near int) int {
	best := 0
	for start := 1; start+n-1 <= len(lines); start++ {
		if holds(lines[start-1:start-1+n], parts) && (best == 0 || distance(start, near) < distance(best, near)) {
			best = start
		}
	}
	return best
}

func distance(x, y int) int { return max(x-y, y-x) }

// short is a quote folded to one line of at most 60 characters (not
// bytes: a character is never cut in half), for a report.
func short(q string) string {
	f := []rune(fold(q))
	if len(f) > 60 {
		return string(f[:57]) + "..."
	}
	return string(f)
}
