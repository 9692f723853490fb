package site

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// checkedAgainst lists, per repository in the order the page first cites
// it, the newest release of each major version that the page quotes:
// what its checked line states. A quote kept at an old release as
// history is not what the page was checked against.
func checkedAgainst(cites []Citation) []Checked {
	var repos []string
	newest := map[string]map[string]string{} // repo -> major -> version
	for _, c := range cites {
		if c.History {
			continue
		}
		if newest[c.Repo] == nil {
			newest[c.Repo] = map[string]string{}
			repos = append(repos, c.Repo)
		}
		m := major(c.Version)
		if old, ok := newest[c.Repo][m]; !ok || compareVersions(c.Version, old) > 0 {
			newest[c.Repo][m] = c.Version
		}
	}
	var out []Checked
	for _, repo := range repos {
		var vs []string
		for _, v := range newest[repo] {
			vs = append(vs, v)
		}
		slices.SortFunc(vs, compareVersions)
		out = append(out, Checked{Repo: repo, Versions: andList(vs)})
	}
	return out
}

// major is a version's first number: "v1.29.0" is 1, "0.28.1" is 0.
func major(v string) string {
	v = strings.TrimPrefix(v, "v")
	m, _, _ := strings.Cut(v, ".")
	return m
}

// compareVersions orders versions by their dot-separated numbers, a part
// that is not a number after those that are, then as text.
func compareVersions(a, b string) int {
	pa := strings.Split(strings.TrimPrefix(a, "v"), ".")
	pb := strings.Split(strings.TrimPrefix(b, "v"), ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, ea := strconv.Atoi(pa[i])
		nb, eb := strconv.Atoi(pb[i])
		switch {
		case ea == nil && eb == nil:
			if c := cmp.Compare(na, nb); c != 0 {
				return c
			}
		case ea == nil:
			return -1
		case eb == nil:
			return 1
		default:
			if c := strings.Compare(pa[i], pb[i]); c != 0 {
				return c
			}
		}
	}
	return cmp.Or(cmp.Compare(len(pa), len(pb)), strings.Compare(a, b))
}

// andList joins "a", "a and b", "a, b and c".
func andList(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
