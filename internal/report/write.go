package report

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// ParseSince reads -since: a number of days such as 30d, or a Go duration.
func ParseSince(s string) (time.Duration, error) {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 1 {
			return 0, errorf("-since %q: write a number of days such as 30d", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, errorf("-since %q: write a number of days such as 30d", s)
	}
	return d, nil
}

// JSON writes r for scripts.
func JSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func pct(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v*100, 'f', 1, 64) + "%"
}

// Text writes r as tables for a terminal.
func Text(w io.Writer, r Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	p := func(format string, args ...any) { fmt.Fprintf(tw, format, args...) }
	fmt.Fprintf(w, "Reading funnel, %s to %s (UTC days). Counts of events: the counter keeps no identifier, so rates are of events, not of people.\n\n", r.From, r.To)
	p("path\tview\thuman-candidate\tengaged\t→ human\t→ engaged\tscrolled\t\n")
	for _, pg := range r.Pages {
		p("%s\t%d\t%d\t%d\t%s\t%s\t%s\t\n", pg.Path, pg.View, pg.HumanCandidate, pg.Engaged, pct(pg.ToHumanCandidate), pct(pg.ToEngaged), pct(pg.ScrolledShare))
	}
	p("all pages\t%d\t%d\t%d\t\t\t\t\n", r.Total.View, r.Total.HumanCandidate, r.Total.Engaged)
	tw.Flush()

	fmt.Fprintf(w, "\nSite-wide (clicks and checkouts carry no path):\n")
	names := make([]string, 0, len(r.Clicks))
	for n := range r.Clicks {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p("click %s\t%d\t\n", n, r.Clicks[n])
	}
	p("checkout gumroad\t%d\t\n", r.Checkout["gumroad"])
	p("checkout site\t%d\t\n", r.Checkout["site"])
	p("checkouts per engaged\t%s\t\n", ratio(r.CheckoutsPerEngaged))
	tw.Flush()

	for _, sec := range []struct {
		title string
		rows  []Source
		key   func(Source) string
	}{
		{"Referrer hosts", r.Refs, func(s Source) string { return s.Ref }},
		{"Campaigns (utm_source / utm_medium / utm_campaign)", r.Campaigns, func(s Source) string {
			return strings.Join([]string{dash(s.Source), dash(s.Medium), dash(s.Campaign)}, " / ")
		}},
		{"Outreach codes", r.Outreach, func(s Source) string { return s.Outreach }},
	} {
		fmt.Fprintf(w, "\n%s:\n", sec.title)
		if len(sec.rows) == 0 {
			fmt.Fprintln(w, "  none")
			continue
		}
		p("\tview\thuman-candidate\tengaged\t\n")
		for _, s := range sec.rows {
			p("%s\t%d\t%d\t%d\t\n", quote(sec.key(s)), s.View, s.HumanCandidate, s.Engaged)
		}
		tw.Flush()
	}

	fmt.Fprintf(w, "\nBy day (UTC):\n")
	p("day\tview\thuman-candidate\tengaged\tclicks\tcheckout\t\n")
	for _, d := range r.Days {
		p("%s\t%d\t%d\t%d\t%d\t%d\t\n", d.Day, d.View, d.HumanCandidate, d.Engaged, d.Clicks, d.Checkout)
	}
	return tw.Flush()
}

func ratio(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v, 'f', 2, 64)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// quote shows a value from the wild as Go would quote it when it holds
// anything a terminal could take for a control.
func quote(s string) string {
	q := strconv.Quote(s)
	if q[1:len(q)-1] == s && !strings.ContainsAny(s, " \t") {
		return s
	}
	return q
}

//go:embed report.css
var css string

//go:embed report.html
var page string

var htmlTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct":   pct,
	"ratio": ratio,
	"dash":  dash,
	"bar": func(n, max int, width float64) float64 {
		if max == 0 {
			return 0
		}
		return float64(n) / float64(max) * width
	},
	"maxDay": func(days []Day) int {
		m := 0
		for _, d := range days {
			m = max(m, d.View)
		}
		return m
	},
	"mul":  func(a float64, b int) float64 { return a * float64(b) },
	"sub":  func(a, b float64) float64 { return a - b },
	"last": func(days []Day) Day { return days[len(days)-1] },
}).Parse(page))

// HTML writes r as one self-contained page: no script, and a policy that
// allows nothing but its own stylesheet, by hash. Every value from the
// wild is text, escaped by html/template, never markup.
func HTML(w io.Writer, r Report) error {
	sum := sha256.Sum256([]byte(css))
	return htmlTmpl.Execute(w, struct {
		Report
		CSS     template.CSS
		CSP     string
		Max     int
		DayW    float64
		Charted bool
	}{
		Report:  r,
		CSS:     template.CSS(css),
		CSP:     "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; base-uri 'none'; form-action 'none'",
		Max:     r.Total.View,
		DayW:    600 / float64(max(len(r.Days), 1)),
		Charted: len(r.Days) > 0,
	})
}
