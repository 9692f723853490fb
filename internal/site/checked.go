package site

import (
	"slices"
	"strings"

	"errref/internal/version"
)

// Checked is a repository and the releases of it a page's quotes show.
type Checked struct {
	Repo     string // encode/httpx
	Versions string // "v1.29.0 and v2.0.0"
}

// checkedAgainst lists, per repository in citing order, the newest release
// of each major version the page quotes (not as history), then any commit or branch.
func checkedAgainst(cites []Citation) []Checked {
	var repos []string
	newest := map[string][]version.Version{} // repo -> the newest release of each major version
	other := map[string][]string{}           // repo -> the tags cited that are no release
	for _, c := range cites {
		if c.History {
			continue
		}
		if !slices.Contains(repos, c.Repo) {
			repos = append(repos, c.Repo)
		}
		v, ok := version.Parse(c.Version)
		if !ok {
			if !slices.Contains(other[c.Repo], c.Version) {
				other[c.Repo] = append(other[c.Repo], c.Version)
			}
			continue
		}
		vs := newest[c.Repo]
		switch i := slices.IndexFunc(vs, func(w version.Version) bool { return w.Major() == v.Major() }); {
		case i < 0:
			newest[c.Repo] = append(vs, v)
		case version.Compare(v, vs[i]) > 0:
			vs[i] = v
		}
	}
	var out []Checked
	for _, repo := range repos {
		slices.SortFunc(newest[repo], version.Compare)
		var tags []string // one at least
		for _, v := range newest[repo] {
			tags = append(tags, v.Tag)
		}
		tags = append(tags, other[repo]...)
		versions := tags[len(tags)-1] // "a", "a and b", "a, b and c"
		if len(tags) > 1 {
			versions = strings.Join(tags[:len(tags)-1], ", ") + " and " + versions
		}
		out = append(out, Checked{Repo: repo, Versions: versions})
	}
	return out
}
