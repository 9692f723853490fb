// The report as one self-contained HTML page: its template, stylesheet, funnel and charts.

package report

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"
)

// HTML writes r as one self-contained page: no script, and a policy that allows
// nothing but its own stylesheet, by hash. Every value from the wild is text.
func HTML(w io.Writer, r Report) error {
	if len(r.Days) == 0 {
		return fmt.Errorf("report %s to %s has no days: make it with Build", r.From, r.To)
	}
	sum := sha256.Sum256([]byte(css))
	t := r.Total
	steps := []step{
		{Name: "views", N: t.View, Before: r.Previous.Total.View, Class: "s0"},
		{Name: "human candidates", N: t.HumanCandidate, Before: r.Previous.Total.HumanCandidate, Class: "s1", Rate: pct(t.ToHumanCandidate), RateFor: "of views"},
		{Name: "engaged", N: t.Engaged, Before: r.Previous.Total.Engaged, Class: "s2", Rate: pct(t.ToEngaged), RateFor: "of human candidates"},
	}
	if r.SiteWide != nil && r.SiteWide.Sales != nil {
		all := r.SiteWide.Sales.Channels[len(r.SiteWide.Sales.Channels)-1]
		steps = append(steps,
			step{Name: "buy-link clicks", N: all.BuyLinkClicks, Before: all.PreviousBuyLinkClicks, Class: "s2", Rate: pct(r.SiteWide.BuyLinkClicksPerEngaged), RateFor: "of engaged"},
			step{Name: "sales (" + Money(all.RevenueCents) + ")", N: all.Sales, Before: all.PreviousSales, Class: "s2", Rate: pct(all.SalesPerBuyLinkClick), RateFor: "of buy-link clicks"})
	}
	for i, s := range steps {
		if t.View > 0 {
			// Sales come from another source than views and may outnumber them.
			steps[i].Width = min(float64(int(float64(s.N)/float64(t.View)*10000+0.5))/10, 1000)
		}
	}
	charts := []chart{{Name: "views", Class: "s0"}, {Name: "human candidates", Class: "s1"}, {Name: "engaged", Class: "s2"}}
	for i := range charts {
		c := &charts[i]
		val := func(d Day) int { return [3]int{d.View, d.HumanCandidate, d.Engaged}[i] }
		for _, d := range r.Days {
			if v := val(d); v > c.Max {
				c.Max, c.MaxDay = v, d.Day
			}
		}
		for j, d := range r.Days {
			h := float64(int(float64(val(d))/float64(max(c.Max, 1))*1000+0.5)) / 10 // all 0 when Max is
			c.Bars = append(c.Bars, bar{X: float64(j) + 0.1, Y: 100 - h, H: h, Partial: d.Partial,
				Title: d.Day + ": " + num(val(d)) + " " + c.Name})
		}
	}
	return htmlTmpl().Execute(w, struct {
		Report
		CSS    template.CSS
		CSP    string
		Steps  []step
		Charts []chart
		Notes  map[string]string
	}{
		Report: r,
		CSS:    template.CSS(css),
		CSP:    "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; base-uri 'none'; form-action 'none'",
		Steps:  steps,
		Charts: charts,
		Notes: map[string]string{"counts": countsNote, "noFilter": noFilterNote, "filtered": filteredNote,
			"sales": salesNote, "noSales": noSalesNote, "partial": partialMarker},
	})
}

// step is one line of the page's funnel.
type step struct {
	Name          string
	N, Before     int
	Width         float64 // of 1000
	Class         string
	Rate, RateFor string // the rate from the step before, and of what
}

// chart is one small chart of the days: one step, on its own scale.
type chart struct {
	Name, Class string
	Max         int
	MaxDay      string
	Bars        []bar
}

type bar struct {
	X, Y, H float64
	Partial bool
	Title   string
}

// htmlTmpl is parsed on first use, not when a command links this package.
// Its num and money, given a *int or *int64, are passed what it points to.
var htmlTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"pct":    pct,
		"ratio":  ratio,
		"num":    num,
		"change": change,
		// changeParts are pieces a line may break between: "+669", "(+21.4%)".
		"changeParts": func(n, before int) []string { return strings.SplitN(change(n, before), " ", 2) },
		"share":       share,
		"hostSplit":   func(h string) []string { return strings.SplitAfter(h, ".") }, // a break falls after a dot only
		"money":       Money,
		"clickPage":   clickPage,
		"filterLine":  func(f Filter) string { return filterLine(f, func(s string) string { return "“" + s + "”" }) },
		"sections":    func(r Report) []section { return sections(r, func(s string) string { return s }) },
		"visibleLine": visibleLine,
	}).Parse(pageHTML))
})

//go:embed report.css
var css string

//go:embed report.html
var pageHTML string
