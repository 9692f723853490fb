package quote

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"errref/internal/cite"
	"errref/internal/site"
)

// RepinOptions say what -repin moves.
type RepinOptions struct {
	Build func() (*site.Site, error) // run once the arguments are read
	Root  string                     // the site folder, where the page files are rewritten
	To    string                     // OWNER/REPO@NEW=DIR: the version to move to and a copy of it
	From  []string                   // REPO@VERSION=DIR, a copy of each version to move from
	Write bool                       // rewrite the files; else print the diff that would be made
	Out   io.Writer
}

// Repin moves a site's citations of a library to a new version, printing
// what became of each, the diff to their specs, the prose naming an old
// version and a summary; it reports whether every one moved or stayed.
func Repin(o RepinOptions) (bool, error) {
	to, err := parseCopy("-repin", o.To, true)
	if err != nil {
		return false, err
	}
	// Each spec moved is written with it: one the build refuses breaks the page.
	if _, err := cite.Parse(to.Repo + "@" + to.Version + ":f#1"); err != nil {
		return false, fmt.Errorf("-repin %s: %s cannot stand in a citation: name a tag written with letters, digits and . _ + - (or @scope/package@VERSION)", o.To, to.Version)
	}
	copies, err := parseCopies(o.From)
	if err != nil {
		return false, err
	}
	s, err := o.Build()
	if err != nil {
		return false, err
	}
	var results []Result
	already := 0
	unsourced := map[string]int{} // version -> citations left at it
	history := map[string]int{}   // version -> citations kept there as history
	for _, c := range s.Citations {
		switch {
		case c.Repo != to.Repo:
			continue
		case c.Version == to.Version:
			already++
			continue
		case c.History:
			history[c.Version]++
			continue
		}
		from := slices.IndexFunc(copies[c.Repo], func(s Copy) bool { return s.versionOf(c.Spec) == "" })
		if from < 0 {
			unsourced[c.Version]++
			continue
		}
		r := Relocate(c, copies[c.Repo][from].tree(), to.tree())
		if r.held() && c.Span == [2]int{} {
			r.Kind, r.Why = NotHere, fmt.Sprintf("%s, but not rewritten: its spec is not written in the link or fence (a reference link?): write cite:%s there, then run again", r.Kind, c.Spec)
		}
		results = append(results, r)
	}
	// Else a misspelt repository would look like nothing to move.
	if len(results) == 0 && already == 0 && len(unsourced) == 0 && len(history) == 0 {
		return false, fmt.Errorf("-repin %s: no page in content/ cites %s", to.Repo, to.Repo)
	}
	if len(results) == 0 && len(unsourced) > 0 {
		give := strings.Join(slices.Sorted(maps.Keys(unsourced)), "=DIR or -check-sources "+to.Repo+"@")
		return false, fmt.Errorf("-repin %s: nothing to move: name the versions to move from, and a copy of each, with -check-sources %s@%s=DIR", to.Repo, to.Repo, give)
	}
	read, edited := edit(s, results)
	counts, olds := map[string]int{}, map[string]bool{} // olds: the versions moved from
	for _, r := range results {
		counts[r.Kind]++
		olds[r.Citation.Version] = true
		r.Report(o.Out)
	}
	for _, name := range slices.Sorted(maps.Keys(edited)) {
		writeDiff(o.Out, name, read[name], edited[name])
	}
	moved := slices.Sorted(maps.Keys(olds))
	printProse(o.Out, Prose(s, moved), moved)

	fmt.Fprintf(o.Out, "%s to %s: %s", to.Repo, to.Version, counted(counts))
	if n := counts[NotHere]; n > 0 {
		fmt.Fprintf(o.Out, ", %d not found in the page to rewrite", n)
	}
	if already > 0 {
		fmt.Fprintf(o.Out, "; %d already at %s", already, to.Version)
	}
	for _, v := range slices.Sorted(maps.Keys(unsourced)) {
		fmt.Fprintf(o.Out, "; %d at %s left as they are (no -check-sources %s@%s=DIR)", unsourced[v], v, to.Repo, v)
	}
	for _, v := range slices.Sorted(maps.Keys(history)) {
		fmt.Fprintf(o.Out, "; %d at %s kept there as history", history[v], v)
	}
	fmt.Fprintln(o.Out)
	switch {
	case len(edited) == 0:
		fmt.Fprintln(o.Out, "nothing to write")
	case !o.Write:
		fmt.Fprintln(o.Out, "dry run: nothing written; -write writes the diff above")
	default:
		if err := write(o.Root, read, edited); err != nil {
			return false, err
		}
		for _, name := range slices.Sorted(maps.Keys(edited)) {
			fmt.Fprintf(o.Out, "wrote %s\n", name)
		}
	}
	return counts[Moved]+counts[Unchanged] == len(results), nil
}

// counted is the summary of a move: "1 moved, 0 unchanged, ...".
func counted(n map[string]int) string {
	s := fmt.Sprintf("%d moved, %d unchanged, %d changed, %d ambiguous, %d gone", n[Moved], n[Unchanged], n[Changed], n[Ambiguous], n[Gone])
	if n[NotOK] > 0 {
		s += fmt.Sprintf(", %d not ok at their version", n[NotOK])
	}
	return s
}
