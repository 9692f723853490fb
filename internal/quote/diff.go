package quote

import (
	"regexp"
	"strings"
)

// alike scores lines by the tokens they share with want, from 0 to 1.
func alike(want []string) func(lines []string) float64 {
	wt := tokens(strings.Join(want, "\n"))
	return func(lines []string) float64 { return dice(wt, tokens(strings.Join(lines, "\n"))) }
}

// tokenRE is a token of code: a word (letters, digits and _) or one mark.
var tokenRE = regexp.MustCompile(`[\p{L}\p{Nd}_]+|\S`)

func tokens(s string) map[string]int {
	t := map[string]int{}
	for _, w := range tokenRE.FindAllString(s, -1) {
		t[w]++
	}
	return t
}

// dice is the share of tokens x (a quote's, so never none) and y have in
// common, from 0 to 1.
func dice(x, y map[string]int) float64 {
	common, total := 0, 0
	for k, n := range x {
		common += min(n, y[k])
		total += n
	}
	for _, n := range y {
		total += n
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
