package report

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"errref/internal/tally"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const hostile = `<script>document.title="pwned";window.pwned=1</script>`

// counts is a fixed data set over 2026-02-25 to 2026-03-04: two pages, a
// click, checkouts, a referrer, a campaign whose value is markup and whose
// events split by utm_term, an outreach code, engaged times, the period
// before, and a row outside both periods.
var counts = []tally.Count{
	{Day: "2026-02-24", Name: "view", Path: "/", N: 1000}, // outside both periods
	{Day: "2026-02-25", Name: "view", Path: "/", N: 20},
	{Day: "2026-02-26", Name: "human-candidate", Path: "/", Scrolled: true, N: 8},
	{Day: "2026-02-27", Name: "view", Path: "/old/", N: 4},
	{Day: "2026-02-27", Name: "copy-sketch", N: 4},
	{Day: "2026-02-28", Name: "checkout", Checkout: "gumroad", N: 1},
	{Day: "2026-03-01", Name: "view", Path: "/", N: 10},
	{Day: "2026-03-01", Name: "view", Path: "/", Scrolled: true, Ref: "news.ycombinator.com", N: 3},
	{Day: "2026-03-01", Name: "view", Path: "/", Ref: "news.ycombinator.com", N: 27},
	{Day: "2026-03-01", Name: "human-candidate", Path: "/", Scrolled: true, Ref: "news.ycombinator.com", N: 9},
	{Day: "2026-03-01", Name: "human-candidate", Path: "/", Ref: "news.ycombinator.com", N: 3},
	{Day: "2026-03-02", Name: "view", Path: "/", Source: "hn", Medium: "post", Campaign: hostile, N: 3},
	{Day: "2026-03-02", Name: "view", Path: "/", Source: "hn", Medium: "post", Campaign: hostile, Term: "mcp error", N: 2},
	{Day: "2026-03-02", Name: "human-candidate", Path: "/", Scrolled: true, Source: "hn", Medium: "post", Campaign: hostile, Term: "mcp error", N: 2},
	{Day: "2026-03-02", Name: "human-candidate", Path: "/", Source: "hn", Medium: "post", Campaign: hostile, N: 2},
	{Day: "2026-03-02", Name: "engaged", Path: "/", Scrolled: true, Source: "hn", Medium: "post", Campaign: hostile, Term: "mcp error", Outreach: "oc-7", VisibleS: 95, N: 1},
	{Day: "2026-03-02", Name: "engaged", Path: "/", Scrolled: true, Source: "hn", Medium: "post", Campaign: hostile, Outreach: "oc-7", VisibleS: 140, N: 1},
	{Day: "2026-03-02", Name: "engaged", Path: "/", Source: "hn", Medium: "post", Campaign: hostile, Outreach: "oc-7", VisibleS: 1200, N: 1},
	{Day: "2026-03-02", Name: "view", Path: "/pay/", N: 2},
	{Day: "2026-03-02", Name: "copy-sketch", N: 6},
	{Day: "2026-03-03", Name: "checkout", Checkout: "gumroad", N: 2},
	{Day: "2026-03-04", Name: "checkout", Checkout: "site", N: 1},
}

var query = Query{From: "2026-03-01", To: "2026-03-04", Today: "2026-03-04"}

// sales are kept sales: one before the period, three in it through
// Gumroad over two days, one through the site, of two products.
var sales = []tally.Sale{
	{Day: "2026-02-27", Channel: "gumroad", Product: "guide", N: 1, Cents: 1900},
	{Day: "2026-03-02", Channel: "gumroad", Product: "guide", N: 2, Cents: 3350},
	{Day: "2026-03-03", Channel: "gumroad", Product: "<b>other</b>", N: 1, Cents: 900},
	{Day: "2026-03-04", Channel: "site", Product: "guide", N: 1, Cents: 1900},
	{Day: "2026-03-09", Channel: "site", Product: "guide", N: 1, Cents: 1900}, // after the period
}

// withSales is a CountReader that keeps sales, as *store.Store does.
type withSales struct{ counts []tally.Count }

func (w withSales) Counts(context.Context, string, string) ([]tally.Count, error) {
	return w.counts, nil
}
func (w withSales) Sales(context.Context, string, string) ([]tally.Sale, error) { return sales, nil }

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (go test ./internal/report -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s:\n%s", name, p, got)
	}
}

func build(t testing.TB, counts []tally.Count, q Query) Report {
	t.Helper()
	r, err := Build(counts, q)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestTextJSONAndHTML(t *testing.T) {
	r, err := Load(context.Background(), withSales{counts}, query)
	if err != nil {
		t.Fatal(err)
	}
	var text, js bytes.Buffer
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	if err := JSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := HTML(&page, r); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.txt", text.Bytes())
	golden(t, "report.json", js.Bytes())
	golden(t, "report.html", page.Bytes())

	// The figures, not just the bytes.
	if r.Total.Steps != (Steps{View: 47, HumanCandidate: 16, Engaged: 3}) || r.Previous.Total != (Steps{View: 24, HumanCandidate: 8}) {
		t.Errorf("total %+v, before %+v", r.Total.Steps, r.Previous.Total)
	}
	if r.Previous.From != "2026-02-25" || r.Previous.To != "2026-02-28" {
		t.Errorf("previous period %s to %s, want the 4 days before", r.Previous.From, r.Previous.To)
	}
	// Scrolled is read from human candidates (11 of 16) and engaged (2 of
	// 3), never from views, which are sent before anyone can scroll.
	if r.Total.ScrolledHuman != 11 || r.Total.ScrolledEngaged != 2 || *r.Total.ScrolledShare != 0.6875 {
		t.Errorf("scrolled %d of human candidates (%v), %d of engaged", r.Total.ScrolledHuman, *r.Total.ScrolledShare, r.Total.ScrolledEngaged)
	}
	if got := r.Pages[0]; got.Path != "/" || got.View != 45 || got.Previous.View != 20 || *got.ToHumanCandidate != 0.3556 {
		t.Errorf("first page %+v", got)
	}
	if got := r.Pages[2]; got.Path != "/old/" || got.View != 0 || got.Previous.View != 4 {
		t.Errorf("a page read only before is listed with 0 now: %+v", got)
	}
	s := r.SiteWide
	if s.Clicks["copy-sketch"] != 6 || s.PreviousClicks["copy-sketch"] != 4 || s.BuyLinkClicks["gumroad"] != 2 || s.PreviousBuyLinkClicks["gumroad"] != 1 || *s.BuyLinkClicksPerEngaged != 1 {
		t.Errorf("site-wide %+v", *s)
	}
	// The funnel's end: buy-link clicks (3: 2 gumroad, 1 site), then
	// sales and revenue by channel and day, against the period before.
	want := []Channel{
		{Channel: "gumroad", BuyLinkClicks: 2, Sales: 3, RevenueCents: 4250, PreviousBuyLinkClicks: 1, PreviousSales: 1, PreviousRevenueCents: 1900},
		{Channel: "site", BuyLinkClicks: 1, Sales: 1, RevenueCents: 1900},
		{Channel: "all", BuyLinkClicks: 3, Sales: 4, RevenueCents: 6150, PreviousBuyLinkClicks: 1, PreviousSales: 1, PreviousRevenueCents: 1900},
	}
	for i, c := range s.Sales.Channels {
		c.SalesPerBuyLinkClick = nil
		if c != want[i] {
			t.Errorf("channel %d: %+v, want %+v", i, c, want[i])
		}
	}
	if *s.Sales.Channels[0].SalesPerBuyLinkClick != 1.5 || *r.Days[1].Sales != 2 || *r.Days[1].RevenueCents != 3350 || *r.Days[3].Sales != 1 || *r.Days[0].Sales != 0 {
		t.Errorf("sales per buy-link click %v, days %+v", *s.Sales.Channels[0].SalesPerBuyLinkClick, r.Days)
	}
	if len(s.Sales.Products) != 3 || s.Sales.Products[0] != (ProductSale{Product: "guide", Channel: "gumroad", Sales: 2, RevenueCents: 3350}) {
		t.Errorf("products %+v", s.Sales.Products)
	}
	for name, out := range map[string][]byte{"text": text.Bytes(), "JSON": js.Bytes(), "HTML": page.Bytes()} {
		if bytes.Contains(bytes.ToLower(out), []byte("checkout")) {
			t.Errorf("the %s says checkout: buy-link clicks are clicks, not sales", name)
		}
	}
	if r.PartialDay != "2026-03-04" || !r.Days[3].Partial || r.Days[2].Partial || *r.Days[2].BuyLinkClicks != 2 || *r.Days[1].Clicks != 6 {
		t.Errorf("days %+v", r.Days)
	}
	// The referrer rows add up to the total: the no-referrer row is one.
	if len(r.Refs) != 2 || !r.Refs[1].None || r.Refs[1].View != 17 || r.Refs[0].View+r.Refs[1].View != r.Total.View {
		t.Errorf("refs %+v", r.Refs)
	}
	camp := r.Campaigns[1]
	if camp.Campaign != hostile || camp.View != 5 || len(camp.Parts) != 2 || camp.Parts[0].Term != "" || camp.Parts[1].Term != "mcp error" || camp.Parts[1].Engaged != 1 {
		t.Errorf("campaign %+v", camp)
	}
	// Each bucket is read at its middle: 140 holds 140-149 s, 1200 holds 1,200-1,299 s.
	if r.Visible == nil || *r.Visible != (Visible{Timed: 3, Q1: 95, Median: 145, Q3: 1250}) {
		t.Errorf("visible %+v", r.Visible)
	}
	for _, want := range []string{
		`hn / post / "<script>document.title=\"pwned\";window.pwned=1</script>"`, // a value with quotes is quoted
		`utm_term "mcp error"`,
		"no referrer or same site",
		"+25 (+125.0%)", // views against the days before
		"median about 2 min 25 s; half of them between about 1 min 35 s and about 20 min 50 s",
		"2026-03-04 (today, not over)",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the table lacks %q", want)
		}
	}
}

// TestFilter narrows the report by each filter: every figure of the
// reading events narrows, the JSON names the filter, and the site-wide
// clicks and checkouts, which carry no path or source, are left out
// rather than shown unfiltered.
func TestFilter(t *testing.T) {
	for _, tc := range []struct {
		f           Filter
		view, prev  int
		pages, refs int
	}{
		{Filter{}, 47, 24, 3, 2},
		{Filter{Path: "/pay/"}, 2, 0, 1, 1},
		{Filter{Path: "/old/"}, 0, 4, 1, 0},
		{Filter{Ref: "news.ycombinator.com"}, 30, 0, 1, 1},
		{Filter{Campaign: hostile}, 5, 0, 1, 1},
		{Filter{Outreach: "oc-7"}, 0, 0, 1, 1},
		{Filter{Path: "/", Ref: "news.ycombinator.com"}, 30, 0, 1, 1},
		{Filter{Path: "/pay/", Ref: "news.ycombinator.com"}, 0, 0, 0, 0},
	} {
		r := build(t, counts, Query{From: query.From, To: query.To, Filter: tc.f})
		if r.Total.View != tc.view || r.Previous.Total.View != tc.prev || len(r.Pages) != tc.pages || len(r.Refs) != tc.refs {
			t.Errorf("%+v: views %d (before %d), %d pages, %d referrer rows; want %d (%d), %d, %d",
				tc.f, r.Total.View, r.Previous.Total.View, len(r.Pages), len(r.Refs), tc.view, tc.prev, tc.pages, tc.refs)
		}
		sum := 0
		for _, d := range r.Days {
			sum += d.View
			if tc.f.Set() && (d.Clicks != nil || d.BuyLinkClicks != nil) {
				t.Errorf("%+v: day %s shows the site's clicks under a filter", tc.f, d.Day)
			}
		}
		if sum != r.Total.View {
			t.Errorf("%+v: days add up to %d views, total %d", tc.f, sum, r.Total.View)
		}
		if (r.SiteWide == nil) != tc.f.Set() {
			t.Errorf("%+v: site-wide %+v", tc.f, r.SiteWide)
		}
		var js bytes.Buffer
		if err := JSON(&js, r); err != nil {
			t.Fatal(err)
		}
		var back struct {
			Filter   Filter           `json:"filter"`
			SiteWide *json.RawMessage `json:"site_wide"`
		}
		if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Filter != tc.f || (back.SiteWide != nil) == tc.f.Set() {
			t.Errorf("%+v: the JSON says filter %+v, site_wide %s (%v)", tc.f, back.Filter, js.String()[:min(js.Len(), 200)], err)
		}
		var text, page bytes.Buffer
		Text(&text, r)
		if err := HTML(&page, r); err != nil {
			t.Fatal(err)
		}
		for name, out := range map[string]string{"table": text.String(), "page": page.String()} {
			if tc.f.Set() && (!strings.Contains(out, "left out under a filter") || strings.Contains(out, "buy-link clicks gumroad")) {
				t.Errorf("%+v: the %s does not say clicks, buy-link clicks and sales are left out, or shows them", tc.f, name)
			}
		}
	}
}

// TestAFilterThatMatchesNothingSaysSo: a filter that matches no reading
// event of the period says how many the period holds, and how many match
// it but for case; one that matches any says nothing.
func TestAFilterThatMatchesNothingSaysSo(t *testing.T) {
	const none, holds = "no reading event from 2026-03-01 to 2026-03-04 has ", ", of the 66 the period holds"
	const asRecorded = " of them match it but for case: a campaign and an outreach code are matched as recorded, case included"
	for _, tc := range []struct {
		f    Filter
		note string
	}{
		{Filter{}, ""},
		{Filter{Path: "/pay/"}, ""},
		{Filter{Outreach: "oc-7"}, ""}, // three engaged events, no view
		{Filter{Path: "/old/"}, none + `path "/old/"` + holds},
		{Filter{Path: "/pay/", Ref: "news.ycombinator.com"}, none + `path "/pay/", referrer "news.ycombinator.com"` + holds},
		{Filter{Outreach: "OC-7"}, none + `outreach "OC-7"` + holds + `; 3` + asRecorded},
		{Filter{Path: "/", Campaign: "<Script>"}, none + `path "/", utm_campaign "<Script>"` + holds},
		{Filter{Path: "/", Campaign: strings.ToUpper(hostile)}, none + `path "/", utm_campaign ` + strconv.Quote(strings.ToUpper(hostile)) + holds + `; 12` + asRecorded},
	} {
		r := build(t, counts, Query{From: query.From, To: query.To, Filter: tc.f})
		if note := r.NoMatch(); note != tc.note {
			t.Errorf("%+v:\n%s\nwant\n%s", tc.f, note, tc.note)
		}
	}
}

// TestMonthMatchesTheEvents builds the report of a generated month and
// holds each figure to a count made from the events themselves.
func TestMonthMatchesTheEvents(t *testing.T) {
	end := time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC)
	events := makeTraffic(trafficMonth(end))
	q := Query{From: "2026-03-02", To: "2026-03-31", Today: "2026-03-31"}
	for _, f := range []Filter{{}, {Path: "/pay/"}, {Ref: "github.com"}, {Campaign: "march-issue"}, {Outreach: "fw-0412"}} {
		q.Filter = f
		r := build(t, trafficCounts(events), q)
		var want, before Steps
		var scrolledHuman, viewsNoRef int
		var times []int64
		for _, e := range events {
			day := e.At.Format(time.DateOnly)
			if e.Path == "" || (f.Path != "" && e.Path != f.Path) || (f.Ref != "" && e.Ref != f.Ref) ||
				(f.Campaign != "" && e.Campaign["utm_campaign"] != f.Campaign) || (f.Outreach != "" && (e.Outreach == nil || *e.Outreach != f.Outreach)) {
				continue
			}
			switch {
			case day >= "2026-01-31" && day <= "2026-03-01":
				before.add(e.Name, 1)
			case day >= q.From && day <= q.To:
				want.add(e.Name, 1)
				if e.Name == "human-candidate" && *e.Scrolled {
					scrolledHuman++
				}
				if e.Name == "view" && e.Ref == "" {
					viewsNoRef++
				}
				if e.Name == "engaged" {
					times = append(times, *e.VisibleMS)
				}
			}
		}
		if r.Total.Steps != want || r.Previous.Total != before || r.Total.ScrolledHuman != scrolledHuman {
			t.Errorf("%+v: total %+v, before %+v, scrolled %d; the events say %+v, %+v, %d", f, r.Total.Steps, r.Previous.Total, r.Total.ScrolledHuman, want, before, scrolledHuman)
		}
		if want.View == 0 {
			t.Fatalf("%+v: the month has no such views", f)
		}
		for _, rows := range [][]Row{r.Refs, r.Campaigns, r.Outreach} {
			sum := Steps{}
			for _, row := range rows {
				sum.View += row.View
				sum.HumanCandidate += row.HumanCandidate
				sum.Engaged += row.Engaged
				if len(row.Parts) > 0 {
					parts := 0
					for _, p := range row.Parts {
						parts += p.View
					}
					if parts != row.View {
						t.Errorf("%+v: the parts of %s add up to %d views, not %d", f, row.Campaign, parts, row.View)
					}
				}
			}
			if sum != want {
				t.Errorf("%+v: rows add up to %+v, total %+v", f, sum, want)
			}
		}
		if f == (Filter{}) {
			i := slices.IndexFunc(r.Refs, func(r Row) bool { return r.None })
			if i < 0 || r.Refs[i].View != viewsNoRef || len(r.Refs) != 7 {
				t.Errorf("no-referrer row %d; the events say %d views without a referrer, from six hosts", i, viewsNoRef)
			}
		}
		// The median from the buckets is within 10% of the raw one.
		slices.Sort(times)
		raw := float64(times[(len(times)+1)/2-1]) / 1000
		if r.Visible == nil || r.Visible.Timed != len(times) || float64(r.Visible.Median) < raw*0.9 || float64(r.Visible.Median) > raw*1.1 {
			t.Errorf("%+v: median %+v, raw %.1f s of %d", f, r.Visible, raw, len(times))
		}
	}
}

func TestChange(t *testing.T) {
	for _, tc := range []struct {
		n, before int
		want      string
	}{
		{5000, 4000, "+1,000 (+25.0%)"},
		{30, 40, "-10 (-25.0%)"},
		{7, 7, "0 (0.0%)"},
		{3, 0, "+3 (none before)"},
		{0, 0, "0"},
		{0, 2, "-2 (-100.0%)"},
	} {
		if got := change(tc.n, tc.before); got != tc.want {
			t.Errorf("change(%d, %d) = %q, want %q", tc.n, tc.before, got, tc.want)
		}
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := num(n); got != want {
			t.Errorf("num(%d) = %q, want %q", n, got, want)
		}
	}
	for s, want := range map[int]string{45: "about 45 s", 60: "about 1 min", 140: "about 2 min 20 s", 3700: "about 1 h 1 min"} {
		if got := seconds(s); got != want {
			t.Errorf("seconds(%d) = %q, want %q", s, got, want)
		}
	}
}

func TestQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"news.ycombinator.com", "news.ycombinator.com"},
		{"/pay/", "/pay/"},
		{"two words", `"two words"`},
		{"\x1b]8;;http://evil\x07click\x1b]8;;\x07", `"\x1b]8;;http://evil\aclick\x1b]8;;\a"`}, // a terminal hyperlink
		{"abc\u202edef", `"abc\u202edef"`}, // a bidi override
		{"tab\there", `"tab\there"`},
		{"café", "café"},
		{`C:\Users\ann\site\events.db`, `C:\Users\ann\site\events.db`},
		{`C:\Users\Ann Lee\events.db`, `"C:\Users\Ann Lee\events.db"`}, // as cmd.exe and PowerShell take it
		{`C:\Users\"Ann"\x`, `"C:\\Users\\\"Ann\"\\x"`},
		{"a\\\x1b", `"a\\\x1b"`},
	} {
		if got := Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestBuildRefusesABadPeriod(t *testing.T) {
	for _, q := range []Query{{From: "2026-03-31", To: "2026-03-01"}, {From: "March", To: "2026-03-01"}, {}} {
		if _, err := Build(counts, q); err == nil {
			t.Errorf("Build(%+v) made a report", q)
		}
	}
	if err := HTML(new(bytes.Buffer), Report{}); err == nil {
		t.Error("HTML wrote a report of no days")
	}
}

func TestPeriod(t *testing.T) {
	now := time.Date(2026, 3, 31, 23, 30, 0, 0, time.FixedZone("x", -5*3600)) // 1 April UTC
	for _, tc := range []struct {
		since            time.Duration
		from, to         string
		wantFrom, wantTo string
		err              string
	}{
		{30 * 24 * time.Hour, "", "", "2026-03-03", "2026-04-01", ""},
		{24 * time.Hour, "", "", "2026-04-01", "2026-04-01", ""},
		{0, "2026-03-01", "2026-03-31", "2026-03-01", "2026-03-31", ""},
		{7 * 24 * time.Hour, "", "2026-03-10", "2026-03-04", "2026-03-10", ""},
		{0, "2026-03-31", "2026-03-01", "", "", "is after"},
		{0, "31/03/2026", "", "", "", "write a date"},
		{time.Hour, "", "", "", "", "at least one day"},
		// Over 292 years a time.Duration overflows, and the period's days
		// came up short of -to: the report crashed on an event after them.
		{0, "0001-01-01", "", "", "", "a century"},
		// The days to come are no days without readers.
		{30 * 24 * time.Hour, "", "9999-12-31", "", "", "after today"},
		{0, "2026-03-01", "2026-04-02", "", "", "after today"},
		{0, "2026-03-01", "2026-04-01", "2026-03-01", "2026-04-01", ""},
		{0, "1926-04-26", "2026-03-31", "1926-04-26", "2026-03-31", ""},
		{0, "1926-04-25", "2026-03-31", "", "", "a century"},
	} {
		q, err := Period(now, tc.since, tc.from, tc.to)
		from, to := q.From, q.To
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Period(%v, %q, %q) = %v, want %q", tc.since, tc.from, tc.to, err, tc.err)
			}
			continue
		}
		if err != nil || from != tc.wantFrom || to != tc.wantTo {
			t.Errorf("Period(%v, %q, %q) = %s, %s, %v; want %s, %s", tc.since, tc.from, tc.to, from, to, err, tc.wantFrom, tc.wantTo)
		}
	}
	if q, _ := Period(now, 24*time.Hour, "", ""); q.Today != "2026-04-01" {
		t.Errorf("today at %v: %s", now, q.Today)
	}
	q := Query{From: "2026-03-01", To: "2026-03-31"}
	if from, to, err := q.Previous(); from != "2026-01-29" || to != "2026-02-28" || err != nil {
		t.Errorf("the 31 days before March: %s to %s, %v", from, to, err)
	}
	// A duration is a number of whole days: 47h is not one day, the last 24 of its hours.
	for _, tc := range []struct {
		since string
		want  time.Duration // 0: refused
	}{{"30d", 30 * 24 * time.Hour}, {"48h", 48 * time.Hour}, {"47h", 0}, {"36h", 0}} {
		if d, err := ParseSince(tc.since); d != tc.want || (err == nil) != (tc.want != 0) {
			t.Errorf("ParseSince(%s) = %v, %v; want %v", tc.since, d, err, tc.want)
		}
	}
}

// wide makes perDay roll-up rows for each of 60 days, as a busy site's
// would hold: 20 pages, a long tail of 200 referrer hosts, 10 campaigns
// with terms, 4 outreach codes, engaged events spread over 100 buckets.
// Build's cost follows the rows, not the events they count.
func wide(perDay int) []tally.Count {
	r := rand.New(rand.NewPCG(1, 2))
	start := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	names := []string{"view", "view", "view", "human-candidate", "human-candidate", "engaged", "copy-sketch", "checkout"}
	var out []tally.Count
	for d := range 60 {
		day := start.AddDate(0, 0, d).Format(time.DateOnly)
		for range perDay {
			c := tally.Count{Day: day, Name: names[r.IntN(len(names))], N: 1 + r.IntN(50)}
			switch c.Name {
			case "checkout":
				c.Checkout = []string{"gumroad", "site"}[r.IntN(2)]
			case "copy-sketch":
			default:
				c.Path = fmt.Sprintf("/page-%d/", r.IntN(20))
				if r.IntN(4) > 0 {
					c.Ref = fmt.Sprintf("host-%d.example.org", int(200*r.Float64()*r.Float64()))
				}
				if r.IntN(8) == 0 {
					c.Source, c.Medium, c.Campaign = "src", "email", fmt.Sprintf("campaign-%d", r.IntN(10))
					c.Term = []string{"", "a", "b"}[r.IntN(3)]
				}
				if r.IntN(30) == 0 {
					c.Outreach = fmt.Sprintf("oc-%d", r.IntN(4))
				}
				c.Scrolled = c.Name != "view" && r.IntN(3) > 0
				if c.Name == "engaged" {
					c.VisibleS = tally.VisibleBucket(int64(90_000 + r.IntN(900_000)))
				}
			}
			out = append(out, c)
		}
	}
	return out
}

// BenchmarkReport times what the command does after the store answers:
// Build over the rows of two 30-day periods, then each writer.
//
//	go test ./internal/report -run '^$' -bench Report
func BenchmarkReport(b *testing.B) {
	for _, perDay := range []int{1_000, 5_000} {
		counts := wide(perDay)
		q := Query{From: "2026-03-03", To: "2026-04-01", Today: "2026-04-01"}
		b.Run(fmt.Sprintf("rows=%d/build", len(counts)), func(b *testing.B) {
			for b.Loop() {
				build(b, counts, q)
			}
		})
		r := build(b, counts, q)
		b.Run(fmt.Sprintf("rows=%d/html", len(counts)), func(b *testing.B) {
			for b.Loop() {
				HTML(io.Discard, r)
			}
		})
		b.Run(fmt.Sprintf("rows=%d/text", len(counts)), func(b *testing.B) {
			for b.Loop() {
				Text(io.Discard, r)
			}
		})
		b.Run(fmt.Sprintf("rows=%d/filtered", len(counts)), func(b *testing.B) {
			q := q
			q.Filter = Filter{Path: "/page-3/"}
			for b.Loop() {
				build(b, counts, q)
			}
		})
	}
}

// TestAClickThatStoppedKeepsItsRow: a click counted only in the period
// before is listed at 0 in this one, in every format, so that the drop
// shows instead of the row.
func TestAClickThatStoppedKeepsItsRow(t *testing.T) {
	r := build(t, []tally.Count{
		{Day: "2026-02-27", Name: "copy-old", N: 5},
		{Day: "2026-03-01", Name: "view", Path: "/", N: 10},
	}, query)
	if n, ok := r.SiteWide.Clicks["copy-old"]; !ok || n != 0 || r.SiteWide.PreviousClicks["copy-old"] != 5 {
		t.Errorf("clicks %v, before %v; want copy-old at 0 and 5 before", r.SiteWide.Clicks, r.SiteWide.PreviousClicks)
	}
	var text, page bytes.Buffer
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	if err := HTML(&page, r); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`click copy-old\s+0\s+5 `).Match(text.Bytes()) {
		t.Errorf("the text lacks the stopped click's row:\n%s", text.String())
	}
	if !strings.Contains(page.String(), "copy-old") {
		t.Error("the HTML page lacks the stopped click")
	}
}

// TestTheRowWithoutACodeIsNeverAmongTheOthers: past Top rows the rest add
// up in one row of "other codes"; the views without a code keep their own
// row however few they are, rather than pass for codes' views there.
func TestTheRowWithoutACodeIsNeverAmongTheOthers(t *testing.T) {
	counts := []tally.Count{{Day: "2026-03-01", Name: "view", Path: "/", N: 2}}
	for i := range Top + 5 {
		counts = append(counts, tally.Count{Day: "2026-03-01", Name: "view", Path: "/", Outreach: fmt.Sprintf("code-%02d", i), N: 3})
	}
	r := build(t, counts, query)
	var text bytes.Buffer
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	none := slices.IndexFunc(r.Outreach, func(row Row) bool { return row.None })
	other := r.Outreach[len(r.Outreach)-1]
	if len(r.Outreach) != Top || none < 0 || r.Outreach[none].View != 2 || other.Other != 7 || other.View != 21 ||
		!regexp.MustCompile(`no outreach code\s+2 `).Match(text.Bytes()) {
		t.Errorf("outreach rows %+v\n%s", r.Outreach, text.String())
	}
}
