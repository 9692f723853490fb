// Package report turns stored events and the storefront's sales into the
// funnel, written as a terminal table, JSON or a self-contained HTML page.
// The counter keeps no identifier, so a funnel is a ratio of counts, not of
// people; clicks, buy-link clicks and sales carry no path, referrer, campaign
// or outreach code, so they are counted for the whole site only.
package report

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"errref/internal/event"
	"errref/internal/tally"
)

// A CountReader is where a report reads its counts: *store.Store.
type CountReader interface {
	Counts(ctx context.Context, from, to string) ([]tally.Count, error) // UTC days, both included
}

// A SalesReader also keeps the storefront's sales (the preview's journal holds none).
type SalesReader interface {
	Sales(ctx context.Context, from, to string) ([]tally.Sale, error) // kept sales, UTC days, both included
}

// Filter narrows a report to the reading events that match every field set.
type Filter struct {
	Path     string `json:"path,omitempty"`
	Ref      string `json:"ref,omitempty"`
	Campaign string `json:"utm_campaign,omitempty"`
	Outreach string `json:"outreach,omitempty"`
}

// Set reports whether f narrows anything.
func (f Filter) Set() bool { return f != Filter{} }

// match reports whether c has each value f sets, as eq compares them.
func (f Filter) match(c *tally.Count, eq func(a, b string) bool) bool {
	return (f.Path == "" || eq(c.Path, f.Path)) && (f.Ref == "" || eq(c.Ref, f.Ref)) &&
		(f.Campaign == "" || eq(c.Campaign, f.Campaign)) && (f.Outreach == "" || eq(c.Outreach, f.Outreach))
}

// Query is what a report is asked for.
type Query struct {
	From, To string // UTC days, YYYY-MM-DD, both included
	Today    string // the UTC day the report is made, marked partial in the period
	Filter   Filter
	// Aliases maps a page's earlier paths, which answer with a 301, to its URL:
	// their reads are the page's.
	Aliases map[string]string
}

// Previous is the period of the same length that ends the day before q's.
func (q Query) Previous() (from, to string, err error) {
	start, n, err := q.days()
	return start.AddDate(0, 0, -n).Format(time.DateOnly), start.AddDate(0, 0, -1).Format(time.DateOnly), err
}

// days reads q's first day and how many days its period holds.
func (q Query) days() (time.Time, int, error) {
	start, err := time.Parse(time.DateOnly, q.From)
	if err != nil {
		return start, 0, fmt.Errorf("report from %q: not a day such as 2026-03-01", q.From)
	}
	end, err := time.Parse(time.DateOnly, q.To)
	if err != nil {
		return start, 0, fmt.Errorf("report to %q: not a day such as 2026-03-31", q.To)
	}
	if start.After(end) {
		return start, 0, fmt.Errorf("report from %s is after %s", q.From, q.To)
	}
	return start, int(end.Sub(start).Hours()/24) + 1, nil
}

// Load reads the counts of q's period and the one before from src, and builds
// the report; when only the sales cannot be read, it is returned with the error.
func Load(ctx context.Context, src CountReader, q Query) (Report, error) {
	from, _, err := q.Previous()
	if err != nil {
		return Report{}, err
	}
	counts, err := src.Counts(ctx, from, q.To)
	if err != nil {
		return Report{}, err
	}
	r, _ := Build(counts, q) // q's days were read above
	if sr, ok := src.(SalesReader); ok && r.SiteWide != nil {
		sales, err := sr.Sales(ctx, from, q.To)
		if err != nil {
			return r, err // the readers' funnel, for the caller that may show it without the sales
		}
		r.addSales(sales)
	}
	return r, nil
}

// Steps counts the reading events of one group.
type Steps struct {
	View           int `json:"view"`
	HumanCandidate int `json:"human_candidate"`
	Engaged        int `json:"engaged"`
}

func (s *Steps) add(name string, n int) {
	switch name {
	case event.View:
		s.View += n
	case event.HumanCandidate:
		s.HumanCandidate += n
	case event.Engaged:
		s.Engaged += n
	}
}

// Funnel is a group's steps, the rates between them, and how many later steps followed a scroll.
type Funnel struct {
	Steps
	ScrolledHuman   int `json:"scrolled_human_candidates"` // human-candidate events sent after a scroll
	ScrolledEngaged int `json:"scrolled_engaged"`          // engaged events sent after a scroll
	// Rates from step to step and the scrolled share; absent over a 0.
	ToHumanCandidate *float64 `json:"to_human_candidate,omitempty"`
	ToEngaged        *float64 `json:"to_engaged,omitempty"`
	ScrolledShare    *float64 `json:"scrolled_share_of_human_candidates,omitempty"`
}

func (f *Funnel) add(c *tally.Count) {
	f.Steps.add(c.Name, c.N)
	switch {
	case c.Scrolled && c.Name == event.HumanCandidate:
		f.ScrolledHuman += c.N
	case c.Scrolled && c.Name == event.Engaged:
		f.ScrolledEngaged += c.N
	}
}

func (f *Funnel) rates() {
	f.ToHumanCandidate = rate(f.HumanCandidate, f.View)
	f.ToEngaged = rate(f.Engaged, f.HumanCandidate)
	f.ScrolledShare = rate(f.ScrolledHuman, f.HumanCandidate)
}

// PageRow is one path's funnel, and its steps in the previous period.
type PageRow struct {
	Path string `json:"path"`
	Funnel
	Previous Steps `json:"previous"`
	// The product the page alone sells, with its sales in every channel.
	Guide        string `json:"guide,omitempty"`
	Sales        *int   `json:"sales,omitempty"`
	RevenueCents *int64 `json:"revenue_cents,omitempty"`
}

// Row is one referrer host, campaign or outreach code, with its funnel. None marks
// the row without one (for referrers, also the site's own links); Other the row
// adding up those beyond the Top, and how many.
type Row struct {
	Ref      string `json:"ref,omitempty"`
	Source   string `json:"utm_source,omitempty"`
	Medium   string `json:"utm_medium,omitempty"`
	Campaign string `json:"utm_campaign,omitempty"`
	Term     string `json:"utm_term,omitempty"`
	Content  string `json:"utm_content,omitempty"`
	Outreach string `json:"outreach,omitempty"`
	None     bool   `json:"none,omitempty"`
	Other    int    `json:"other,omitempty"`
	Steps
	// A campaign's rows by utm_term and utm_content, when any event has
	// either (and the row with neither, so the parts add up).
	Parts []Row `json:"by_term_and_content,omitempty"`
}

// Day is one UTC day's counts; clicks and sales are absent under a filter.
type Day struct {
	Day string `json:"day"`
	Steps
	Clicks        *int   `json:"clicks,omitempty"`
	BuyLinkClicks *int   `json:"buy_link_clicks,omitempty"`
	Sales         *int   `json:"sales,omitempty"`
	RevenueCents  *int64 `json:"revenue_cents,omitempty"`
	Partial       bool   `json:"partial,omitempty"` // today: not over yet
}

// SiteWide is what has no path, in the period and the one before: clicks, buy-link clicks, sales.
type SiteWide struct {
	Clicks                  map[string]int `json:"clicks"`
	BuyLinkClicks           map[string]int `json:"buy_link_clicks"`
	PreviousClicks          map[string]int `json:"previous_clicks"`
	PreviousBuyLinkClicks   map[string]int `json:"previous_buy_link_clicks"`
	BuyLinkClicksPerEngaged *float64       `json:"buy_link_clicks_per_engaged,omitempty"` // absent without an engaged event
	Sales                   *Sales         `json:"sales,omitempty"`                       // nil where the store keeps none
	SalesLeftOut            string         `json:"sales_left_out,omitempty"`              // why Sales is nil where the store keeps them
	// ClickPages names the content files whose pages have each click's control.
	ClickPages map[string][]string `json:"click_pages,omitempty"`
}

// Place records which pages have each click's control, and puts each
// product's sales on the row of the one page whose guide it is (guides: URL
// path to guide). Under a filter it does nothing; without sales, only the first.
func (r *Report) Place(clicks map[string][]string, guides map[string]string) {
	if r.SiteWide == nil {
		return
	}
	r.SiteWide.ClickPages = map[string][]string{}
	for name := range r.SiteWide.Clicks {
		r.SiteWide.ClickPages[name] = append([]string{}, clicks[name]...) // [] on no page now
	}
	if r.SiteWide.Sales == nil {
		return
	}
	by := map[string][]string{}
	for path, g := range guides {
		by[g] = append(by[g], path)
	}
	for i := range r.Pages {
		p := &r.Pages[i]
		g := guides[p.Path]
		if g == "" || len(by[g]) != 1 {
			continue
		}
		n, cents := 0, int64(0)
		for _, s := range r.SiteWide.Sales.Products {
			if s.Product == g {
				n += s.Sales
				cents += s.RevenueCents
			}
		}
		p.Guide, p.Sales, p.RevenueCents = g, &n, &cents
	}
}

// Visible is how long engaged readers had the page in view, from the roll-up's
// buckets (tally.VisibleBucket), so each figure is "about". Without a timed engaged
// event the quartiles are absent, not 0 s (only buckets of 1 s or more count).
type Visible struct {
	Timed  int `json:"engaged_with_time"` // engaged events that carry a time
	Q1     int `json:"q1_s,omitempty"`    // a quarter had the page in view for less
	Median int `json:"median_s,omitempty"`
	Q3     int `json:"q3_s,omitempty"` // a quarter for more
}

// PreviousPeriod is the period of the same length before, and its totals.
type PreviousPeriod struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Total Steps  `json:"total"`
}

// Report is the funnel for the UTC days From to To, both included.
type Report struct {
	From       string         `json:"from"`
	To         string         `json:"to"`
	Filter     Filter         `json:"filter"`
	PartialDay string         `json:"partial_day,omitempty"` // today, when the period holds it
	NotStored  string         `json:"not_stored,omitempty"`  // events waiting in a file, which no count holds
	Previous   PreviousPeriod `json:"previous"`
	Total      Funnel         `json:"total"`
	Pages      []PageRow      `json:"pages"`
	SiteWide   *SiteWide      `json:"site_wide"` // nil under a filter
	Visible    *Visible       `json:"visible"`
	Refs       []Row          `json:"refs"`
	Campaigns  []Row          `json:"campaigns"`
	Outreach   []Row          `json:"outreach"`
	Days       []Day          `json:"days"`
	// Under a filter, the counts whatever it, read only by NoMatch: a filter costs Build nothing.
	counts []tally.Count
}

// NoMatch says, when r's filter matches no reading event, how many there are and match but for case.
func (r *Report) NoMatch() string {
	if !r.Filter.Set() || r.Total.Steps != (Steps{}) {
		return ""
	}
	all, alike := 0, 0
	for i := range r.counts {
		if c := &r.counts[i]; slices.Contains(event.Reading, c.Name) && c.Day >= r.From && c.Day <= r.To {
			all += c.N
			if r.Filter.match(c, strings.EqualFold) {
				alike += c.N
			}
		}
	}
	note := fmt.Sprintf("no reading event from %s to %s has %s, of the %s the period holds", r.From, r.To, filterLine(r.Filter, strconv.Quote), num(all))
	if alike > 0 {
		note += fmt.Sprintf("; %s of them match it but for case: a campaign and an outreach code are matched as recorded, case included", num(alike))
	}
	return note
}

// JSON writes r for scripts.
func JSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Top is how many rows a section lists before it adds up the rest in one.
const Top = 20

// campaignKey is a campaign's row; tagged: any of the five utm_ values.
type campaignKey struct {
	source, medium, campaign string
	tagged                   bool
}

// Build adds up the counts of q's period and the one before it.
func Build(counts []tally.Count, q Query) (Report, error) {
	start, nDays, err := q.days()
	if err != nil {
		return Report{}, err
	}
	prevFrom, prevTo, _ := q.Previous()
	r := Report{From: q.From, To: q.To, Filter: q.Filter, Previous: PreviousPeriod{From: prevFrom, To: prevTo}}
	filtered := q.Filter.Set()
	if filtered {
		r.counts = counts
	} else {
		r.SiteWide = &SiteWide{Clicks: map[string]int{}, BuyLinkClicks: map[string]int{event.Gumroad: 0, event.Site: 0},
			PreviousClicks: map[string]int{}, PreviousBuyLinkClicks: map[string]int{event.Gumroad: 0, event.Site: 0}}
	}
	pages := map[string]*PageRow{}
	refs, outreach := map[string]*Steps{}, map[string]*Steps{}
	campaigns, terms := map[campaignKey]*Steps{}, map[campaignKey]map[[2]string]*Steps{} // terms: by utm_term and utm_content
	visible := map[int]int{}
	r.Days = make([]Day, nDays)
	day := make(map[string]*Day, nDays)
	for i := range r.Days {
		r.Days[i].Day = start.AddDate(0, 0, i).Format(time.DateOnly)
		day[r.Days[i].Day] = &r.Days[i]
		if !filtered {
			r.Days[i].Clicks, r.Days[i].BuyLinkClicks = new(int), new(int)
		}
	}
	for i := range counts {
		c := &counts[i]
		current := c.Day >= q.From && c.Day <= q.To
		if !current && (c.Day < prevFrom || c.Day > prevTo) {
			continue
		}
		if !slices.Contains(event.Reading, c.Name) {
			if filtered {
				continue
			}
			switch w := r.SiteWide; {
			case c.Name == event.Checkout && current:
				w.BuyLinkClicks[c.Checkout] += c.N
				*day[c.Day].BuyLinkClicks += c.N
			case c.Name == event.Checkout:
				w.PreviousBuyLinkClicks[c.Checkout] += c.N
			case current:
				w.Clicks[c.Name] += c.N
				*day[c.Day].Clicks += c.N
			default:
				w.PreviousClicks[c.Name] += c.N
				w.Clicks[c.Name] += 0 // a click that stopped keeps its row, at 0
			}
			continue
		}
		c.Path = cmp.Or(q.Aliases[c.Path], c.Path)
		if filtered && !q.Filter.match(c, func(a, b string) bool { return a == b }) {
			continue
		}
		p := at(pages, c.Path)
		if !current {
			p.Previous.add(c.Name, c.N)
			r.Previous.Total.add(c.Name, c.N)
			continue
		}
		p.add(c)
		r.Total.add(c)
		day[c.Day].add(c.Name, c.N)
		at(refs, c.Ref).add(c.Name, c.N)
		at(outreach, c.Outreach).add(c.Name, c.N)
		k := campaignKey{c.Source, c.Medium, c.Campaign, c.Source != "" || c.Medium != "" || c.Campaign != "" || c.Term != "" || c.Content != ""}
		at(campaigns, k).add(c.Name, c.N)
		if terms[k] == nil {
			terms[k] = map[[2]string]*Steps{}
		}
		at(terms[k], [2]string{c.Term, c.Content}).add(c.Name, c.N)
		if c.Name == event.Engaged && c.VisibleS > 0 {
			visible[c.VisibleS] += c.N
		}
	}

	r.Pages = make([]PageRow, 0, len(pages))
	for path, p := range pages {
		p.Path = path
		p.rates()
		r.Pages = append(r.Pages, *p)
	}
	slices.SortFunc(r.Pages, func(a, b PageRow) int {
		return cmp.Or(b.View-a.View, b.Previous.View-a.Previous.View, cmp.Compare(a.Path, b.Path))
	})
	r.Total.rates()
	if r.SiteWide != nil {
		r.SiteWide.BuyLinkClicksPerEngaged = rate(r.SiteWide.BuyLinkClicks[event.Gumroad]+r.SiteWide.BuyLinkClicks[event.Site], r.Total.Engaged)
	}
	r.Visible = quartiles(visible)
	r.Refs = rows(refs, func(k string, s Steps) Row { return Row{Ref: k, None: k == "", Steps: s} })
	r.Outreach = rows(outreach, func(k string, s Steps) Row { return Row{Outreach: k, None: k == "", Steps: s} })
	r.Campaigns = rows(campaigns, func(k campaignKey, s Steps) Row {
		c := Row{Source: k.source, Medium: k.medium, Campaign: k.campaign, None: !k.tagged, Steps: s}
		if parts := terms[k]; len(parts) > 1 || parts[[2]string{}] == nil { // an event has a utm_term or utm_content
			for t, s := range parts {
				c.Parts = append(c.Parts, Row{Term: t[0], Content: t[1], Steps: *s})
			}
			sortRows(c.Parts)
		}
		return c
	})
	if q.Today >= q.From && q.Today <= q.To {
		r.PartialDay = q.Today
		day[q.Today].Partial = true
	}
	return r, nil
}

// at is m's value at k, made when m has none.
func at[K comparable, V any](m map[K]*V, k K) *V {
	v := m[k]
	if v == nil {
		v = new(V)
		m[k] = v
	}
	return v
}

// rows lists m's groups by views, and adds up those beyond the Top in one row.
func rows[K comparable](m map[K]*Steps, row func(K, Steps) Row) []Row {
	out := []Row{}
	for k, s := range m {
		out = append(out, row(k, *s))
	}
	sortRows(out)
	if len(out) > Top {
		// The row without one stays, last before the others, where its views would pass for codes' or hosts'.
		if i := slices.IndexFunc(out, func(r Row) bool { return r.None }); i > Top-2 {
			out[Top-2], out[i] = out[i], out[Top-2]
		}
		other := Row{Other: len(out) - Top + 1}
		for _, r := range out[Top-1:] {
			other.View, other.HumanCandidate, other.Engaged = other.View+r.View, other.HumanCandidate+r.HumanCandidate, other.Engaged+r.Engaged
		}
		out = append(out[:Top-1], other)
	}
	return out
}

func sortRows(rs []Row) {
	slices.SortFunc(rs, func(a, b Row) int {
		return cmp.Or(b.View-a.View, b.Engaged-a.Engaged,
			cmp.Compare(a.Ref, b.Ref), cmp.Compare(a.Source, b.Source), cmp.Compare(a.Medium, b.Medium),
			cmp.Compare(a.Campaign, b.Campaign), cmp.Compare(a.Term, b.Term), cmp.Compare(a.Content, b.Content),
			cmp.Compare(a.Outreach, b.Outreach))
	})
}

// quartiles reads the quartiles from counts by bucket (nearest rank).
func quartiles(byBucket map[int]int) *Visible {
	v := &Visible{}
	if len(byBucket) == 0 {
		return v
	}
	buckets := slices.Sorted(maps.Keys(byBucket))
	for _, n := range byBucket {
		v.Timed += n
	}
	at := func(q float64) int {
		rank := max(int(q*float64(v.Timed)+0.999999), 1) // ceil, at least the first
		seen := 0
		for _, b := range buckets {
			if seen += byBucket[b]; seen >= rank {
				return tally.VisibleMiddle(b)
			}
		}
		return tally.VisibleMiddle(buckets[len(buckets)-1])
	}
	v.Q1, v.Median, v.Q3 = at(0.25), at(0.5), at(0.75)
	return v
}

// rate is n/of, rounded to four places, or nil when of is 0.
func rate(n, of int) *float64 {
	if of == 0 {
		return nil
	}
	v := float64(int(float64(n)/float64(of)*10000+0.5)) / 10000
	return &v
}

// Period turns -from, -to and -since into the query of a report made now.
func Period(now time.Time, since time.Duration, from, to string) (Query, error) {
	today := now.UTC().Format(time.DateOnly)
	to = cmp.Or(to, today)
	end, err := time.Parse(time.DateOnly, to)
	if err != nil {
		return Query{}, fmt.Errorf("-to %q: write a date such as 2026-03-31", to)
	}
	if to > today { // the days to come would read as days without a reader, beside a whole period before
		return Query{}, fmt.Errorf("-to %s is after today, %s (UTC): end the period today or before", to, today)
	}
	if from == "" {
		days := int(since.Hours() / 24)
		if days < 1 {
			return Query{}, fmt.Errorf("-since %v: give at least one day, such as 30d", since)
		}
		from = end.AddDate(0, 0, 1-days).Format(time.DateOnly)
	}
	start, err := time.Parse(time.DateOnly, from)
	if err != nil {
		return Query{}, fmt.Errorf("-from %q: write a date such as 2026-03-01", from)
	}
	if start.After(end) {
		return Query{}, fmt.Errorf("-from %s is after -to %s", from, to)
	}
	if end.Sub(start) >= maxDays*24*time.Hour {
		return Query{}, fmt.Errorf("-from %s to -to %s: at most %d days (a century)", from, to, maxDays)
	}
	return Query{From: from, To: to, Today: today}, nil
}

// maxDays is the longest period: a century, far inside a time.Duration (106,752 days overflow it).
const maxDays = 36_500

// ParseSince reads -since: a number of days such as 30d, or a Go duration of
// whole days (48h): 47h, read as the one day it holds whole, would look like two.
func ParseSince(s string) (time.Duration, error) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		if err == nil && n > maxDays {
			return 0, fmt.Errorf("-since %s: at most %dd (a century); for an older period give -from", s, maxDays)
		}
		if err == nil && n >= 1 {
			return time.Duration(n) * 24 * time.Hour, nil
		}
	} else if d, err := time.ParseDuration(s); err == nil && d%(24*time.Hour) == 0 {
		return d, nil
	}
	return 0, fmt.Errorf("-since %q: write a number of days such as 30d", s)
}
