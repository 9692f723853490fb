package quote

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"errref/internal/site"
	"errref/internal/version"
)

// Exit codes: every quote holds at the newest releases; one does not; or no answer.
const (
	Held    = 0
	Drifted = 1
	Failed  = 2
)

// DriftOptions say which clones -drift reads and what the site cites.
type DriftOptions struct {
	Build  func() (*site.Site, error) // run once the arguments are read
	Clones []string                   // OWNER/REPO=GITDIR, one for each cited repository
	Pre    bool                       // count prereleases as releases
	JSON   bool                       // print the report as JSON
	Out    io.Writer
}

// A group is one major version's citations, checked against its newest release.
type group struct {
	major   int
	newest  version.Version
	cited   []version.Version // the versions its citations name, oldest first
	results []Result
	prose   []ProseLine
}

type repo struct {
	name    string // owner/name
	clone   *clone
	groups  []*group
	history []Result // quotes kept at an old release (front matter history), checked there only
}

// Drift prints how a site's citations fare at each library's newest release in
// a git clone, writing nothing: Held or Drifted; an error: no answer (Failed).
func Drift(o DriftOptions) (int, error) {
	repos, err := checkClones(o)
	if err != nil {
		if o.JSON {
			writeJSON(o.Out, jsonReport{Exit: Failed, Error: err.Error()})
		}
		return Failed, err
	}
	line, code := answer(repos, o.Pre)
	if o.JSON {
		return code, writeJSON(o.Out, report(repos, code, line, o.Pre))
	}
	return code, writeText(o.Out, repos, line, o.Pre)
}

// checkClones opens each clone, builds the site, and looks for each quote.
func checkClones(o DriftOptions) ([]*repo, error) {
	var repos []*repo
	byName := map[string]*repo{}
	for _, arg := range o.Clones {
		name, dir, ok := strings.Cut(arg, "=")
		if owner, n, _ := strings.Cut(name, "/"); !ok || owner == "" || n == "" || strings.Contains(n, "/") || strings.Contains(name, "@") || dir == "" {
			return nil, fmt.Errorf("-drift %q: write OWNER/REPO=GITDIR, a git clone of the repository, for example modelcontextprotocol/python-sdk=../python-sdk", arg)
		}
		if byName[name] != nil {
			return nil, fmt.Errorf("-drift %s: given twice (%s and %s)", name, byName[name].clone.dir, dir)
		}
		c, err := openClone(dir)
		if err != nil {
			return nil, fmt.Errorf("-drift %s: %w", name, err)
		}
		byName[name] = &repo{name: name, clone: c}
		repos = append(repos, byName[name])
	}
	s, err := o.Build()
	if err != nil {
		return nil, err
	}
	cites := map[string][]site.Citation{}
	var ungiven []string
	for _, c := range s.Citations {
		if byName[c.Repo] == nil && cites[c.Repo] == nil {
			ungiven = append(ungiven, fmt.Sprintf("%s cites %s, and no -drift %s=GITDIR is given", c.At(), c.Repo, c.Repo))
		}
		cites[c.Repo] = append(cites[c.Repo], c)
	}
	// Else the answer would say the page holds where no one looked.
	if len(ungiven) > 0 {
		return nil, fmt.Errorf("%s: give a clone of each cited repository", strings.Join(ungiven, "; "))
	}
	for _, r := range repos {
		if len(cites[r.name]) == 0 {
			return nil, fmt.Errorf("-drift %s: no page in content/ cites %s", r.name, r.name)
		}
		if err := r.check(cites[r.name], o.Pre); err != nil {
			return nil, fmt.Errorf("-drift %s: %w", r.name, err)
		}
		for _, g := range r.groups {
			g.prose = Prose(s, g.older())
		}
	}
	return repos, nil
}

// check groups r's citations by major version and relocates each quote.
func (r *repo) check(cites []site.Citation, pre bool) error {
	tags, err := r.clone.tags()
	if err != nil {
		return err
	}
	var versions []version.Version
	for _, name := range slices.Sorted(maps.Keys(tags)) { // in one order, run after run
		if v, ok := version.Parse(name); ok {
			versions = append(versions, v)
		}
	}
	if len(versions) == 0 {
		return fmt.Errorf("%s has no release tags (none of %d reads as a version, such as v1.2.0 or 1.2.0): clone it whole, with its tags", r.clone.dir, len(tags))
	}
	groups := map[int]*group{}
	var lacking, unversioned []string
	named := map[string]bool{}
	place := func(list *[]string, c site.Citation) { // the first place each version is cited
		if !named[c.Version] {
			named[c.Version] = true
			*list = append(*list, fmt.Sprintf("%s (%s)", c.Version, c.At()))
		}
	}
	for _, c := range cites {
		if _, ok := tags[c.Version]; !ok {
			place(&lacking, c)
			continue
		}
		if c.History {
			continue
		}
		v, ok := version.Parse(c.Version)
		if !ok {
			place(&unversioned, c)
			continue
		}
		if groups[v.Major()] == nil {
			groups[v.Major()] = &group{major: v.Major()}
		}
		if g := groups[v.Major()]; !g.cites(v.Tag) {
			g.cited = append(g.cited, v)
		}
	}
	if len(lacking) > 0 {
		return fmt.Errorf("%s lacks the tag the page cites: %s: fetch its tags (git -C %s fetch --tags) or fix the citation", r.clone.dir, strings.Join(lacking, ", "), r.clone.dir)
	}
	if len(unversioned) > 0 {
		return fmt.Errorf("the page cites %s, which does not read as a release version, so no release can be said to be newer: cite a release tag", strings.Join(unversioned, ", "))
	}
	for _, major := range slices.Sorted(maps.Keys(groups)) {
		g := groups[major]
		slices.SortFunc(g.cited, version.Compare)
		if g.newest, err = newestOf(versions, tags, g, pre); err != nil {
			return err
		}
		r.groups = append(r.groups, g)
	}
	for _, c := range cites {
		if c.History {
			r.history = append(r.history, Relocate(c, r.tree(c.Version), r.tree(c.Version)))
		} else {
			v, _ := version.Parse(c.Version)
			g := groups[v.Major()]
			g.results = append(g.results, Relocate(c, r.tree(c.Version), r.tree(g.newest.Tag)))
		}
		if r.clone.err != nil {
			return r.clone.err
		}
	}
	return nil
}

// newestOf finds the newest release of g's major version, or the newest
// cited if newer; of two tags of it at one commit (1.15.0, v1.15.0), one.
func newestOf(versions []version.Version, tags map[string]string, g *group, pre bool) (version.Version, error) {
	candidates := slices.Clone(g.cited)
	for _, v := range versions {
		if v.Major() == g.major && (pre || !v.Prerelease()) && !g.cites(v.Tag) && g.follows(v) {
			candidates = append(candidates, v)
		}
	}
	top := slices.MaxFunc(candidates, version.Compare)
	same := slices.DeleteFunc(candidates, func(v version.Version) bool { return version.Compare(v, top) != 0 })
	for _, v := range same[1:] {
		if tags[v.Tag] != tags[same[0].Tag] {
			return version.Version{}, fmt.Errorf("tags %s and %s both name the newest %d.x version, at different commits (%.12s, %.12s): -drift cannot tell which is the release", same[0].Tag, v.Tag, g.major, tags[same[0].Tag], tags[v.Tag])
		}
	}
	// Taken: the tag cited, else the one written like the first cited.
	like := func(v version.Version) int {
		n := 0
		if g.cites(v.Tag) {
			n += 4
		}
		if strings.HasPrefix(v.Tag, "v") == strings.HasPrefix(g.cited[0].Tag, "v") {
			n += 2
		}
		if len(v.Release) == len(g.cited[0].Release) {
			n++
		}
		return n
	}
	// The first of the likest.
	return slices.MaxFunc(same, func(x, y version.Version) int { return like(x) - like(y) }), nil
}

// tree reads the files of r's clone at a tag.
func (r *repo) tree(tag string) Tree {
	return Tree{Version: tag, Where: r.clone.dir + " at " + tag, ReadFile: func(path string) ([]byte, error) {
		return r.clone.readFile("refs/tags/"+tag, path)
	}}
}

func (g *group) cites(tag string) bool {
	return slices.ContainsFunc(g.cited, func(v version.Version) bool { return v.Tag == tag })
}

// follows reports whether v can follow what g cites: a package's tag (@scope/client@2.0.0) only
// by that package's, as another package's release may hold its code unreleased.
func (g *group) follows(v version.Version) bool {
	pkg := func(tag string) string { return tag[:max(strings.LastIndex(tag, "@"), 0)] }
	return slices.ContainsFunc(g.cited, func(c version.Version) bool { return pkg(c.Tag) == "" || pkg(c.Tag) == pkg(v.Tag) })
}

// drifted reports whether a quote fails at the newest release (not moved).
func (g *group) drifted() bool {
	return slices.ContainsFunc(g.results, func(r Result) bool { return !r.held() })
}
