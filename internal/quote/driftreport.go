package quote

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// outcomes, in the order the summaries give them.
var outcomes = []string{Moved, Unchanged, Changed, Ambiguous, Gone, NotOK}

// counts are g's outcomes, every one of them named.
func (g *group) counts() map[string]int {
	n := map[string]int{}
	for _, k := range outcomes {
		n[k] = 0
	}
	for _, r := range g.results {
		n[r.Kind]++
	}
	return n
}

// citedTags are the tags g cites; older leaves out the newest.
func (g *group) citedTags() []string {
	var tags []string
	for _, v := range g.cited {
		tags = append(tags, v.Tag)
	}
	return tags
}

func (g *group) older() []string {
	return slices.DeleteFunc(g.citedTags(), func(tag string) bool { return tag == g.newest.Tag })
}

// describe says what g's newest version is: "the newest 1.x release".
func (g *group) describe(pre bool) string {
	switch {
	case !g.newest.Prerelease():
		return fmt.Sprintf("the newest %d.x release", g.major)
	case pre:
		return fmt.Sprintf("the newest %d.x version, a prerelease", g.major)
	default:
		return fmt.Sprintf("a %d.x prerelease the page cites, and no %d.x release is newer", g.major, g.major)
	}
}

// answer is the report's last line: "python-sdk v1.29.0 is the newest 1.x release; 61 citations hold",
// and the exit code it states: Held or Drifted.
func answer(repos []*repo, pre bool) (string, int) {
	var parts, kinds []string
	total, behind, bad := 0, 0, map[string]int{}
	hist, histBad := 0, 0
	for _, r := range repos {
		hist += len(r.history)
		for _, res := range r.history {
			if res.Kind != Unchanged {
				histBad++
			}
		}
		name := r.name[strings.LastIndex(r.name, "/")+1:] + " " // before its first group only
		if len(r.groups) == 0 {
			parts = append(parts, name+"is quoted only as history")
		}
		for _, g := range r.groups {
			parts = append(parts, fmt.Sprintf("%s%s is %s", name, g.newest.Tag, g.describe(pre)))
			name = ""
			total += len(g.results)
			for _, res := range g.results {
				if res.Citation.Version != g.newest.Tag {
					behind++
				}
				if !res.held() {
					bad[res.Kind]++
				}
			}
		}
	}
	line := parts[0]
	if len(parts) > 1 {
		line = strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
	}
	if len(bad) == 0 && histBad == 0 {
		line += "; " + count(total, "citation") + verb(total, " holds", " hold")
		switch {
		case behind == 0:
		case total == 1:
			line += ", at an older release: -repin moves it"
		case behind == total:
			line += ", all at an older release: -repin moves them"
		default:
			line += fmt.Sprintf(", %d of them at an older release: -repin moves them", behind)
		}
		if hist > 0 {
			line += fmt.Sprintf(", and %d kept as history %s at the release %s", hist, verb(hist, "holds", "hold"), verb(hist, "it quotes", "they quote"))
		}
		return line, Held
	}
	n := histBad
	for _, k := range outcomes {
		if bad[k] > 0 {
			what := k
			if k == NotOK {
				what = "not ok where cited"
			}
			kinds = append(kinds, fmt.Sprintf("%d %s", bad[k], what))
			n += bad[k]
		}
	}
	if histBad > 0 {
		kinds = append(kinds, fmt.Sprintf("%d kept as history not ok at the release %s", histBad, verb(histBad, "it quotes", "they quote")))
	}
	return line + fmt.Sprintf("; %d of %s%s there (%s)", n, count(total+hist, "citation"), verb(n, " does not hold", " do not hold"), strings.Join(kinds, ", ")), Drifted
}

// summary is a group's line after its citations, as -repin ends its report.
func summary(r *repo, g *group, pre bool) string {
	return fmt.Sprintf("%s %s to %s, %s: %s", r.name, strings.Join(g.citedTags(), " and "), g.newest.Tag, g.describe(pre), counted(g.counts()))
}

// writeText prints what became of each group behind or drifted, then answers.
func writeText(w io.Writer, repos []*repo, answer string, pre bool) error {
	var b bytes.Buffer
	for _, r := range repos {
		for _, g := range r.groups {
			older := g.older() // cited, and a release is newer
			if len(older) == 0 && !g.drifted() {
				continue
			}
			for _, res := range g.results {
				res.Report(&b)
			}
			printProse(&b, g.prose, older)
			fmt.Fprintln(&b, summary(r, g, pre))
		}
		// A quote kept as history that fails where it quotes.
		if slices.ContainsFunc(r.history, func(res Result) bool { return res.Kind != Unchanged }) {
			for _, res := range r.history {
				res.Report(&b)
			}
			fmt.Fprintf(&b, "%s: the quotes kept as history (front matter history) must hold at the release they quote\n", r.name)
		}
	}
	fmt.Fprintln(&b, answer)
	_, err := w.Write(b.Bytes())
	return err
}

// The JSON report, for a scheduled job to open an issue from.
type (
	jsonReport struct {
		Exit         int        `json:"exit"`
		Answer       string     `json:"answer,omitempty"`
		Error        string     `json:"error,omitempty"`
		Repositories []jsonRepo `json:"repositories,omitempty"`
	}
	jsonRepo struct {
		Repo    string         `json:"repo"`
		Dir     string         `json:"dir"`
		Groups  []jsonGroup    `json:"groups"`
		History []jsonCitation `json:"history"` // kept at the release they quote: "unchanged" there, or broken
	}
	jsonGroup struct {
		Major      int            `json:"major"`
		Newest     string         `json:"newest"`
		Prerelease bool           `json:"prerelease"`
		Cited      []string       `json:"cited"`
		Drifted    bool           `json:"drifted"`
		Counts     map[string]int `json:"counts"`
		Summary    string         `json:"summary"`
		Citations  []jsonCitation `json:"citations"`
		Prose      []ProseLine    `json:"prose"`
	}
	jsonCitation struct {
		At         string   `json:"source"` // content/index.md:88
		Spec       string   `json:"spec"`
		Quote      string   `json:"quote"`
		Outcome    string   `json:"outcome"`
		To         string   `json:"to,omitempty"`         // moved, unchanged: the spec at the newest release
		Around     *bool    `json:"around,omitempty"`     // moved, unchanged: the lines before and after are as they were
		Nearest    []int    `json:"nearest,omitempty"`    // changed: the lines most like the old ones
		Alike      float64  `json:"alike,omitempty"`      // changed: how alike, 0 to 1
		Candidates []int    `json:"candidates,omitempty"` // ambiguous: the first line of each place
		Diff       []string `json:"diff,omitempty"`
		Report     string   `json:"report"` // as the text report prints it
	}
)

func report(repos []*repo, code int, answer string, pre bool) jsonReport {
	rep := jsonReport{Exit: code, Answer: answer}
	for _, r := range repos {
		jr := jsonRepo{Repo: r.name, Dir: r.clone.dir, History: citationsJSON(r.history)}
		for _, g := range r.groups {
			jr.Groups = append(jr.Groups, jsonGroup{Major: g.major, Newest: g.newest.Tag, Prerelease: g.newest.Prerelease(), Cited: g.citedTags(),
				Drifted: g.drifted(), Counts: g.counts(), Summary: summary(r, g, pre), Citations: citationsJSON(g.results), Prose: g.prose})
		}
		rep.Repositories = append(rep.Repositories, jr)
	}
	return rep
}

// citationsJSON is [], not null, for none.
func citationsJSON(rs []Result) []jsonCitation {
	js := []jsonCitation{}
	for _, r := range rs {
		var b strings.Builder
		r.Report(&b)
		j := jsonCitation{At: r.Citation.At(), Spec: r.Citation.Spec.String(), Quote: r.Citation.Quote, Outcome: r.Kind,
			Nearest: r.Nearest, Alike: r.Alike, Candidates: r.Candidates, Diff: r.Diff, Report: b.String()}
		if r.held() {
			j.To, j.Around = r.To.String(), &r.Around
		}
		js = append(js, j)
	}
	return js
}

func writeJSON(w io.Writer, r jsonReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}
