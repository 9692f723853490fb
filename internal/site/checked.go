package site

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Checked is a repository and the releases of it a page's quotes show.
type Checked struct {
	Repo     string // encode/httpx
	Versions string // "v1.29.0 and v2.0.0"
}

// checkedAgainst lists, per repository in the order the page first cites
// it, the newest release of each major version that the page quotes,
// leaving out a quote kept at an old release as history.
func checkedAgainst(cites []Citation) []Checked {
	var repos []string
	newest := map[string][]string{} // repo -> the newest version of each major
	for _, c := range cites {
		if c.History {
			continue
		}
		vs, ok := newest[c.Repo]
		if !ok {
			repos = append(repos, c.Repo)
		}
		switch i := slices.IndexFunc(vs, func(v string) bool { return major(v) == major(c.Version) }); {
		case i < 0:
			newest[c.Repo] = append(vs, c.Version)
		case compareVersions(c.Version, vs[i]) > 0:
			vs[i] = c.Version
		}
	}
	var out []Checked
	for _, repo := range repos {
		vs := newest[repo] // one at least
		slices.SortFunc(vs, compareVersions)
		versions := vs[len(vs)-1] // "a", "a and b", "a, b and c"
		if len(vs) > 1 {
			versions = strings.Join(vs[:len(vs)-1], ", ") + " and " + versions
		}
		out = append(out, Checked{Repo: repo, Versions: versions})
	}
	return out
}

// major is a version's first number: "v1.29.0" is 1, "0.28.1" is 0.
func major(v string) string {
	m, _, _ := strings.Cut(strings.TrimPrefix(v, "v"), ".")
	return m
}

// compareVersions orders versions by their dot-separated numbers (a
// number before text), then the shorter first, then as text.
func compareVersions(a, b string) int {
	byPart := func(x, y string) int {
		nx, ex := strconv.Atoi(x)
		ny, ey := strconv.Atoi(y)
		switch {
		case ex == nil && ey == nil:
			return cmp.Compare(nx, ny)
		case ex == nil:
			return -1
		case ey == nil:
			return 1
		}
		return strings.Compare(x, y)
	}
	pa := strings.Split(strings.TrimPrefix(a, "v"), ".")
	pb := strings.Split(strings.TrimPrefix(b, "v"), ".")
	return cmp.Or(slices.CompareFunc(pa, pb, byPart), strings.Compare(a, b))
}
