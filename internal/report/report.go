// Package report turns stored events into the reading funnel: per page,
// views, human candidates and engaged readers, with the rate from each
// step to the next; site-wide clicks and checkouts; where readers came
// from; and a day-by-day series. It writes a terminal table, JSON for
// scripts, or a self-contained HTML page.
//
// The counter keeps no identifier, so a funnel here is a ratio of event
// counts, not a count of people who went from one step to the next; and
// clicks and checkouts carry no path, so they are counted for the site.
package report

import (
	"cmp"
	"slices"
	"time"

	"errref/internal/event"
	"errref/internal/store"
)

// Steps counts the reading events of one group.
type Steps struct {
	View           int `json:"view"`
	HumanCandidate int `json:"human-candidate"`
	Engaged        int `json:"engaged"`
}

func (s *Steps) add(name string, n int) {
	switch name {
	case "view":
		s.View += n
	case "human-candidate":
		s.HumanCandidate += n
	case "engaged":
		s.Engaged += n
	}
}

// Page is one path's funnel.
type Page struct {
	Path string `json:"path"`
	Steps
	Scrolled int `json:"scrolled"` // views sent after the reader had scrolled
	// Rates from each step to the next, and the share of views that
	// scrolled; absent where the step before is 0.
	ToHumanCandidate *float64 `json:"to_human_candidate,omitempty"`
	ToEngaged        *float64 `json:"to_engaged,omitempty"`
	ScrolledShare    *float64 `json:"scrolled_share,omitempty"`
}

// Source is one referrer host, campaign or outreach code, with its own
// funnel.
type Source struct {
	Ref      string `json:"ref,omitempty"`
	Source   string `json:"utm_source,omitempty"`
	Medium   string `json:"utm_medium,omitempty"`
	Campaign string `json:"utm_campaign,omitempty"`
	Outreach string `json:"outreach,omitempty"`
	Steps
}

// Day is one UTC day's counts.
type Day struct {
	Day string `json:"day"`
	Steps
	Clicks   int `json:"clicks"`
	Checkout int `json:"checkout"`
}

// Report is the funnel for the UTC days From to To, both included.
type Report struct {
	From     string         `json:"from"`
	To       string         `json:"to"`
	Pages    []Page         `json:"pages"`
	Total    Steps          `json:"total"`
	Clicks   map[string]int `json:"clicks"`
	Checkout map[string]int `json:"checkout"`
	// Checkouts per engaged reader: both site-wide, since a checkout
	// carries no path. Absent without an engaged event.
	CheckoutsPerEngaged *float64 `json:"checkouts_per_engaged,omitempty"`
	Refs                []Source `json:"refs"`
	Campaigns           []Source `json:"campaigns"`
	Outreach            []Source `json:"outreach"`
	Days                []Day    `json:"days"`
}

// Top is how many referrers, campaigns and outreach codes a report lists.
const Top = 20

// Build adds up counts, from store.Counts over the same days.
func Build(counts []store.Count, from, to string) Report {
	r := Report{From: from, To: to, Clicks: map[string]int{}, Checkout: map[string]int{"gumroad": 0, "site": 0}}
	pages := map[string]*Page{}
	refs, campaigns, outreach := map[Source]*Steps{}, map[Source]*Steps{}, map[Source]*Steps{}
	days := map[string]*Day{}
	for _, c := range counts {
		d := days[c.Day]
		if d == nil {
			d = &Day{Day: c.Day}
			days[c.Day] = d
		}
		switch {
		case slices.Contains(event.Reading, c.Name):
			p := pages[c.Path]
			if p == nil {
				p = &Page{Path: c.Path}
				pages[c.Path] = p
			}
			p.add(c.Name, c.N)
			if c.Name == "view" && c.Scrolled {
				p.Scrolled += c.N
			}
			r.Total.add(c.Name, c.N)
			d.add(c.Name, c.N)
			if c.Ref != "" {
				addTo(refs, Source{Ref: c.Ref}, c)
			}
			if c.Source != "" || c.Medium != "" || c.Campaign != "" {
				addTo(campaigns, Source{Source: c.Source, Medium: c.Medium, Campaign: c.Campaign}, c)
			}
			if c.Outreach != "" {
				addTo(outreach, Source{Outreach: c.Outreach}, c)
			}
		case c.Name == "checkout":
			r.Checkout[c.Checkout] += c.N
			d.Checkout += c.N
		default:
			r.Clicks[c.Name] += c.N
			d.Clicks += c.N
		}
	}
	for _, p := range pages {
		p.ToHumanCandidate = rate(p.HumanCandidate, p.View)
		p.ToEngaged = rate(p.Engaged, p.HumanCandidate)
		p.ScrolledShare = rate(p.Scrolled, p.View)
		r.Pages = append(r.Pages, *p)
	}
	slices.SortFunc(r.Pages, func(a, b Page) int { return cmp.Or(b.View-a.View, cmp.Compare(a.Path, b.Path)) })
	r.CheckoutsPerEngaged = rate(r.Checkout["gumroad"]+r.Checkout["site"], r.Total.Engaged)
	r.Refs, r.Campaigns, r.Outreach = top(refs), top(campaigns), top(outreach)
	// Every day of the period, the quiet ones too.
	start, err1 := time.Parse(time.DateOnly, from)
	end, err2 := time.Parse(time.DateOnly, to)
	if err1 == nil && err2 == nil {
		for t := start; !t.After(end); t = t.AddDate(0, 0, 1) {
			k := t.Format(time.DateOnly)
			if d := days[k]; d != nil {
				r.Days = append(r.Days, *d)
			} else {
				r.Days = append(r.Days, Day{Day: k})
			}
		}
	}
	return r
}

func addTo(m map[Source]*Steps, k Source, c store.Count) {
	s := m[k]
	if s == nil {
		s = &Steps{}
		m[k] = s
	}
	s.add(c.Name, c.N)
}

func top(m map[Source]*Steps) []Source {
	out := []Source{}
	for k, s := range m {
		k.Steps = *s
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b Source) int {
		return cmp.Or(b.View-a.View, b.Engaged-a.Engaged, cmp.Compare(a.Ref+a.Source+a.Medium+a.Campaign+a.Outreach, b.Ref+b.Source+b.Medium+b.Campaign+b.Outreach))
	})
	if len(out) > Top {
		out = out[:Top]
	}
	return out
}

// rate is n/of, rounded to four places, or nil when of is 0.
func rate(n, of int) *float64 {
	if of == 0 {
		return nil
	}
	v := float64(int(float64(n)/float64(of)*10000+0.5)) / 10000
	return &v
}

// Period turns the command's flags into the UTC days of a report: from
// and to (YYYY-MM-DD) when given, else the since days ending today.
func Period(now time.Time, since time.Duration, from, to string) (string, string, error) {
	today := now.UTC().Truncate(24 * time.Hour)
	if to == "" {
		to = today.Format(time.DateOnly)
	}
	end, err := time.Parse(time.DateOnly, to)
	if err != nil {
		return "", "", errorf("-to %q: write a date such as 2026-03-31", to)
	}
	if from == "" {
		days := int(since.Hours() / 24)
		if days < 1 {
			return "", "", errorf("-since %v: give at least one day, such as 30d", since)
		}
		from = end.AddDate(0, 0, 1-days).Format(time.DateOnly)
	}
	start, err := time.Parse(time.DateOnly, from)
	if err != nil {
		return "", "", errorf("-from %q: write a date such as 2026-03-01", from)
	}
	if start.After(end) {
		return "", "", errorf("-from %s is after -to %s", from, to)
	}
	return from, to, nil
}
