package report

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
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

// Quote shows a value from the wild as Go would quote it when it holds
// anything a terminal could take for a control (an escape sequence, a
// bidi override) or a space that would blur a table's columns; a plain
// value is shown as it is. Any row may come from another writer of the
// store, so every stored string goes through it on its way to a terminal.
// A backslash is plain: it is Windows' separator, and a path shown with
// each one doubled cannot be pasted back.
func Quote(s string) string {
	plain := strings.ReplaceAll(s, `\`, "/")
	if q := strconv.Quote(plain); q[1:len(q)-1] == plain && !strings.ContainsAny(s, " \t") {
		return s
	}
	return strconv.Quote(s)
}

func pct(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v*100, 'f', 1, 64) + "%"
}

func ratio(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v, 'f', 2, 64)
}

// num writes n with thousands separated: 12,345.
func num(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// change is n against the period before, as a signed number and
// percentage: "+12 (+4.0%)", "-3 (-10.0%)", "0 (0.0%)", "+5 (none before)"; "0" when both are 0.
func change(n, before int) string {
	d := n - before
	sign := ""
	if d > 0 {
		sign = "+"
	}
	if before == 0 {
		if d == 0 {
			return "0"
		}
		return sign + num(d) + " (none before)"
	}
	return sign + num(d) + " (" + sign + strconv.FormatFloat(float64(d)/float64(before)*100, 'f', 1, 64) + "%)"
}

// share is n of total as a percentage.
func share(n, total int) string { return pct(rate(n, total)) }

// seconds writes a bucketed time: "about 45 s", "about 2 min 30 s".
func seconds(s int) string {
	switch {
	case s < 60:
		return fmt.Sprintf("about %d s", s)
	case s < 3600:
		if s%60 == 0 {
			return fmt.Sprintf("about %d min", s/60)
		}
		return fmt.Sprintf("about %d min %d s", s/60, s%60)
	}
	return fmt.Sprintf("about %d h %d min", s/3600, s%3600/60)
}

// visibleLine says what r.Visible holds, in a sentence.
func visibleLine(v *Visible) string {
	if v == nil {
		return "no engaged event with a time in this period"
	}
	return fmt.Sprintf("median %s; half of them between %s and %s (%s engaged events with a time, each kept to two significant figures of seconds)",
		seconds(v.Median), seconds(v.Q1), seconds(v.Q3), num(v.Timed))
}

// filterLine names the filter, its values quoted for the terminal when q.
func filterLine(f Filter, q func(string) string) string {
	var parts []string
	for _, p := range [][2]string{{"path", f.Path}, {"referrer", f.Ref}, {"utm_campaign", f.Campaign}, {"outreach", f.Outreach}} {
		if p[1] != "" {
			parts = append(parts, p[0]+" "+q(p[1]))
		}
	}
	return strings.Join(parts, ", ")
}

const (
	noFilterNote  = "Clicks and checkouts carry no path, referrer, campaign or outreach code: they are counted for the whole site."
	filteredNote  = "Clicks and checkouts are left out under a filter: they carry no path, referrer, campaign or outreach code, so only the whole site's are known (run the report without a filter to see them)."
	countsNote    = "Counts of events: the counter keeps no identifier, so each rate is one count over another, not a number of people who went on."
	scrolledNote  = "A view is sent at load, before anyone can scroll, so \"scrolled\" is read from the later events."
	noneRef       = "no referrer or same site"
	noneCampaign  = "no campaign"
	noneOutreach  = "no outreach code"
	noneTerm      = "no utm_term or utm_content"
	partialMarker = "today, not over"
)

func otherLabel(n int, what string) string { return fmt.Sprintf("%d other %s", n, what) }

func campaignLabel(r Row, q func(string) string) string {
	d := func(s string) string {
		if s == "" {
			return "-"
		}
		return q(s)
	}
	return d(r.Source) + " / " + d(r.Medium) + " / " + d(r.Campaign)
}

func termLabel(r Row, q func(string) string) string {
	var parts []string
	if r.Term != "" {
		parts = append(parts, "utm_term "+q(r.Term))
	}
	if r.Content != "" {
		parts = append(parts, "utm_content "+q(r.Content))
	}
	if parts == nil {
		return noneTerm
	}
	return strings.Join(parts, ", ")
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// table lines up rows for a terminal: the first column to the left, the
// others, numbers, to the right.
type table [][]string

func (t *table) row(cells ...string) { *t = append(*t, cells) }

func (t table) write(w io.Writer) error {
	var widths []int
	for _, r := range t {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range t {
		b.WriteString(" ")
		for i, c := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			b.WriteString(" ")
			if i == 0 {
				b.WriteString(c + pad)
			} else {
				b.WriteString(" " + pad + c)
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, strings.TrimRightFunc(strings.ReplaceAll(b.String(), " \n", "\n"), unicode.IsSpace)+"\n")
	return err
}

// Text writes r as tables for a terminal. Every stored value goes through
// Quote.
func Text(w io.Writer, r Report) error {
	fmt.Fprintf(w, "Readers, %s to %s (UTC days)", r.From, r.To)
	if r.PartialDay != "" {
		fmt.Fprintf(w, "; %s is today, not over", r.PartialDay)
	}
	fmt.Fprintf(w, ".\n")
	if r.Filter.Set() {
		fmt.Fprintf(w, "Only the reading events of %s.\n", filterLine(r.Filter, Quote))
	}
	fmt.Fprintf(w, "Changes are against %s to %s, the period of the same length before.\n%s\n\n", r.Previous.From, r.Previous.To, countsNote)

	t, prev := r.Total, r.Previous.Total
	var tb table
	tb.row("", "this period", "before", "change")
	tb.row("views", num(t.View), num(prev.View), change(t.View, prev.View))
	tb.row("human candidates", num(t.HumanCandidate), num(prev.HumanCandidate), change(t.HumanCandidate, prev.HumanCandidate))
	tb.row("engaged", num(t.Engaged), num(prev.Engaged), change(t.Engaged, prev.Engaged))
	tb.write(w)
	fmt.Fprintf(w, "\n  human candidates: %s of views; engaged: %s of human candidates\n", pct(t.ToHumanCandidate), pct(t.ToEngaged))
	fmt.Fprintf(w, "  scrolled: %s of human candidates, %s of engaged (%s)\n", pct(t.ScrolledShare), share(t.ScrolledEngaged, t.Engaged), scrolledNote)
	fmt.Fprintf(w, "  time in view of engaged readers: %s\n", visibleLine(r.Visible))

	fmt.Fprintf(w, "\nPages:\n")
	tb = nil
	tb.row("path", "views", "change", "human candidates", "change", "engaged", "change", "human, of views", "engaged, of human", "scrolled, of human")
	for _, pg := range r.Pages {
		tb.row(Quote(pg.Path),
			num(pg.View), change(pg.View, pg.Previous.View),
			num(pg.HumanCandidate), change(pg.HumanCandidate, pg.Previous.HumanCandidate),
			num(pg.Engaged), change(pg.Engaged, pg.Previous.Engaged),
			pct(pg.ToHumanCandidate), pct(pg.ToEngaged), pct(pg.ScrolledShare))
	}
	if len(r.Pages) == 0 {
		tb.row("none")
	}
	tb.write(w)

	if s := r.SiteWide; s != nil {
		fmt.Fprintf(w, "\nSite-wide. %s\n", noFilterNote)
		tb = nil
		tb.row("", "this period", "before", "change")
		for _, n := range sortedKeys(s.Clicks) {
			tb.row("click "+Quote(n), num(s.Clicks[n]), num(s.PreviousClicks[n]), change(s.Clicks[n], s.PreviousClicks[n]))
		}
		for _, n := range sortedKeys(s.Checkout) {
			tb.row("checkout "+Quote(n), num(s.Checkout[n]), num(s.PreviousCheckout[n]), change(s.Checkout[n], s.PreviousCheckout[n]))
		}
		tb.row("checkouts per engaged", ratio(s.CheckoutsPerEngaged))
		tb.write(w)
	} else {
		fmt.Fprintf(w, "\n%s\n", filteredNote)
	}

	for _, sec := range sections(r, Quote) {
		if sec.Note != "" {
			fmt.Fprintf(w, "\n%s (%s):\n", sec.Title, sec.Note)
		} else {
			fmt.Fprintf(w, "\n%s:\n", sec.Title)
		}
		tb = nil
		tb.row(sec.Head, "views", "share", "human candidates", "engaged")
		for _, row := range sec.Rows {
			tb.row(indent(row.Part)+row.Label, num(row.View), share(row.View, t.View), num(row.HumanCandidate), num(row.Engaged))
		}
		tb.row("all", num(t.View), share(t.View, t.View), num(t.HumanCandidate), num(t.Engaged))
		tb.write(w)
	}

	fmt.Fprintf(w, "\nBy day (UTC):\n")
	tb = nil
	if r.SiteWide != nil {
		tb.row("day", "views", "human candidates", "engaged", "clicks", "checkouts")
	} else {
		tb.row("day", "views", "human candidates", "engaged")
	}
	for _, d := range r.Days {
		day := d.Day
		if d.Partial {
			day += " (" + partialMarker + ")"
		}
		cells := []string{day, num(d.View), num(d.HumanCandidate), num(d.Engaged)}
		if d.Clicks != nil {
			cells = append(cells, num(*d.Clicks), num(*d.Checkout))
		}
		tb.row(cells...)
	}
	return tb.write(w)
}

func indent(part bool) string {
	if part {
		return "  · "
	}
	return ""
}

// section is a table of rows by where readers came from, as the text and
// the page show it.
type section struct {
	Title, Note, Head string
	Rows              []line
}

type line struct {
	Row
	Label string
	Part  bool // a campaign's row by utm_term and utm_content
	Host  bool // Label is a host name: never split
	Muted bool // the row without a value, or the rest beyond the Top
}

func sections(r Report, q func(string) string) []section {
	refs := section{Title: "Referrer hosts", Head: "host"}
	for _, row := range r.Refs {
		l := line{Row: row, Label: q(row.Ref), Host: true, Muted: row.None || row.Other > 0}
		switch {
		case row.None:
			l.Label, l.Host = noneRef, false
		case row.Other > 0:
			l.Label, l.Host = otherLabel(row.Other, "hosts"), false
		}
		refs.Rows = append(refs.Rows, l)
	}
	camps := section{Title: "Campaigns", Note: "utm_source / utm_medium / utm_campaign; under each, its utm_term and utm_content where any is set.", Head: "campaign"}
	for _, row := range r.Campaigns {
		l := line{Row: row, Label: campaignLabel(row, q), Muted: row.None || row.Other > 0}
		switch {
		case row.None:
			l.Label = noneCampaign
		case row.Other > 0:
			l.Label = otherLabel(row.Other, "campaigns")
		}
		camps.Rows = append(camps.Rows, l)
		for _, part := range row.Parts {
			camps.Rows = append(camps.Rows, line{Row: part, Label: termLabel(part, q), Part: true})
		}
	}
	outreach := section{Title: "Outreach codes", Head: "code"}
	for _, row := range r.Outreach {
		l := line{Row: row, Label: q(row.Outreach), Muted: row.None || row.Other > 0}
		switch {
		case row.None:
			l.Label = noneOutreach
		case row.Other > 0:
			l.Label = otherLabel(row.Other, "codes")
		}
		outreach.Rows = append(outreach.Rows, l)
	}
	return []section{refs, camps, outreach}
}

//go:embed report.css
var css string

//go:embed report.html
var page string

// htmlTmpl is parsed on first use, not at the start of every command
// that links this package (the site build does, for its preview).
var htmlTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"pct":    pct,
		"ratio":  ratio,
		"num":    num,
		"change": change,
		// changeParts is change in pieces a line may break between, never
		// inside: "+669", "(+21.4%)".
		"changeParts": func(n, before int) []string { return strings.SplitN(change(n, before), " ", 2) },
		"share":       share,
		"hostSplit": func(h string) []string {
			// A break may fall only after a dot, never inside a label.
			parts := strings.SplitAfter(h, ".")
			return parts
		},
		"checkout": func(m map[string]int, k string) int { return m[k] },
	}).Parse(page))
})

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

// HTML writes r as one self-contained page: no script, and a policy that
// allows nothing but its own stylesheet, by hash. Every value from the
// wild is text, escaped by html/template, never markup.
func HTML(w io.Writer, r Report) error {
	if len(r.Days) == 0 {
		return errorf("report %s to %s has no days: make it with Build", r.From, r.To)
	}
	sum := sha256.Sum256([]byte(css))
	t := r.Total
	width := func(n int) float64 {
		if t.View == 0 {
			return 0
		}
		return float64(int(float64(n)/float64(t.View)*10000+0.5)) / 10
	}
	steps := []step{
		{Name: "views", N: t.View, Before: r.Previous.Total.View, Width: width(t.View), Class: "s0"},
		{Name: "human candidates", N: t.HumanCandidate, Before: r.Previous.Total.HumanCandidate, Width: width(t.HumanCandidate), Class: "s1", Rate: pct(t.ToHumanCandidate), RateFor: "of views"},
		{Name: "engaged", N: t.Engaged, Before: r.Previous.Total.Engaged, Width: width(t.Engaged), Class: "s2", Rate: pct(t.ToEngaged), RateFor: "of human candidates"},
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
			h := 0.0
			if c.Max > 0 {
				h = float64(int(float64(val(d))/float64(c.Max)*1000+0.5)) / 10
			}
			c.Bars = append(c.Bars, bar{X: float64(j) + 0.1, Y: 100 - h, H: h, Partial: d.Partial,
				Title: d.Day + ": " + num(val(d)) + " " + c.Name})
		}
	}
	days := len(r.Days)
	return htmlTmpl().Execute(w, struct {
		Report
		CSS       template.CSS
		CSP       string
		Steps     []step
		Charts    []chart
		NDays     int
		FirstDay  string
		LastDay   string
		Filter    string
		Sections  []section
		Visible   string
		Scrolled  string
		Notes     [3]string
		Partial   string
		DaysShown int
	}{
		Report:   r,
		CSS:      template.CSS(css),
		CSP:      "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; base-uri 'none'; form-action 'none'",
		Steps:    steps,
		Charts:   charts,
		NDays:    days,
		FirstDay: r.Days[0].Day,
		LastDay:  r.Days[days-1].Day,
		Filter:   filterLine(r.Filter, func(s string) string { return "“" + s + "”" }),
		Sections: sections(r, func(s string) string { return s }),
		Visible:  visibleLine(r.Visible),
		Scrolled: fmt.Sprintf("%s of human candidates and %s of engaged readers had scrolled when the event was sent (a view is sent at load, before anyone can scroll).", pct(t.ScrolledShare), share(t.ScrolledEngaged, t.Engaged)),
		Notes:    [3]string{countsNote, noFilterNote, filteredNote},
		Partial:  partialMarker,
	})
}
