// What every form of the report shares: values quoted for a terminal, counts,
// changes and rates as words, the notes, and the sections by where readers came from.

package report

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/dustin/go-humanize"
)

// Quote shows a stored value Go-quoted when it holds anything a terminal could
// take for a control (an escape, a bidi override), and in plain quotes when a
// space would blur a column. A backslash is plain: a Windows path with each
// one doubled cannot be pasted back, and "C:\Users\Ann Lee" is how cmd.exe takes it.
func Quote(s string) string {
	plain := strings.ReplaceAll(s, `\`, "/")
	if q := strconv.Quote(plain); q[1:len(q)-1] != plain {
		return strconv.Quote(s)
	}
	if strings.Contains(s, " ") {
		return `"` + s + `"`
	}
	return s
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
func num(n int) string { return humanize.Comma(int64(n)) }

// change is n against the period before: "+12 (+4.0%)", "-3 (-10.0%)",
// "0 (0.0%)", "+5 (none before)"; "0" when both are 0.
func change(n, before int) string {
	d := n - before
	sign := ""
	if d > 0 {
		sign = "+"
	}
	switch {
	case before == 0 && d == 0:
		return "0"
	case before == 0:
		return sign + num(d) + " (none before)"
	}
	return sign + num(d) + " (" + sign + strconv.FormatFloat(float64(d)/float64(before)*100, 'f', 1, 64) + "%)"
}

func share(n, total int) string { return pct(rate(n, total)) }

// seconds writes a bucketed time: "about 45 s", "about 2 min 30 s".
func seconds(s int) string {
	switch {
	case s < 60:
		return fmt.Sprintf("about %d s", s)
	case s < 3600 && s%60 == 0:
		return fmt.Sprintf("about %d min", s/60)
	case s < 3600:
		return fmt.Sprintf("about %d min %d s", s/60, s%60)
	}
	return fmt.Sprintf("about %d h %d min", s/3600, s%3600/60)
}

// visibleLine says what r.Visible holds, in a sentence.
func visibleLine(v *Visible) string {
	if v.Timed == 0 {
		return "no engaged event with a time in this period"
	}
	return fmt.Sprintf("median %s; half of them between %s and %s (%s engaged events with a time, each kept to two significant figures of seconds)",
		seconds(v.Median), seconds(v.Q1), seconds(v.Q3), num(v.Timed))
}

// filterLine names the filter, its values quoted for the terminal when q.
func filterLine(f Filter, q func(string) string) string {
	return named(q, "path", f.Path, "referrer", f.Ref, "utm_campaign", f.Campaign, "outreach", f.Outreach)
}

// named lists each name and value of pairs whose value is set: "utm_term x, utm_content y".
func named(q func(string) string, pairs ...string) string {
	var parts []string
	for i := 0; i < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			parts = append(parts, pairs[i]+" "+q(pairs[i+1]))
		}
	}
	return strings.Join(parts, ", ")
}

const (
	noFilterNote  = "Clicks and buy-link clicks carry no path, referrer, campaign or outreach code: they are counted for the whole site."
	filteredNote  = "Clicks, buy-link clicks and sales are left out under a filter: they carry no path, referrer, campaign or outreach code, so only the whole site's are known (run the report without a filter to see them)."
	salesNote     = "the storefront's sales taken with -import-sales, less those fully refunded, lost in a dispute or not charged yet (a pre-order, a free trial), partial refunds taken off; for the whole site, as an export names no page, referrer or campaign; revenue in USD, USDC counted as dollars"
	noSalesNote   = "Sales: the preview's journal holds none. go run ./cmd/report -import-sales FILE takes a Gumroad export or a Base explorer's export into the store, and its report shows them."
	countsNote    = "Counts of events: the counter keeps no identifier, so each rate is one count over another, not a number of people who went on."
	scrolledNote  = "A view is sent at load, before anyone can scroll, so \"scrolled\" is read from the later events."
	partialMarker = "today, not over"
)

// Money writes cents as dollars: $1,234.50.
func Money(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return fmt.Sprintf("%s$%s.%02d", sign, num(int(cents/100)), cents%100)
}

// section is a table of rows by where readers came from, as the text and the page show it.
type section struct {
	Title, Note, Head string
	Rows              []line
}

type line struct {
	Row
	Label string
	Part  bool // a campaign's row by utm_term and utm_content
}

func sections(r Report, q func(string) string) []section {
	sec := func(title, note, head string, rows []Row, none, others string, label func(Row) string) section {
		s := section{Title: title, Note: note, Head: head}
		for _, row := range rows {
			l := line{Row: row, Label: label(row)}
			switch {
			case row.None:
				l.Label = none
			case row.Other > 0:
				l.Label = fmt.Sprintf("%d other %s", row.Other, others)
			}
			s.Rows = append(s.Rows, l)
			for _, part := range row.Parts {
				s.Rows = append(s.Rows, line{Row: part, Label: cmp.Or(named(q, "utm_term", part.Term, "utm_content", part.Content), "no utm_term or utm_content"), Part: true})
			}
		}
		return s
	}
	dash := func(s string) string { return cmp.Or(q(s), "-") } // a campaign's part not set
	return []section{
		sec("Referrer hosts", "", "host", r.Refs, "no referrer or same site", "hosts", func(r Row) string { return q(r.Ref) }),
		sec("Campaigns", "utm_source / utm_medium / utm_campaign; under each, its utm_term and utm_content where any is set.", "campaign",
			r.Campaigns, "no campaign", "campaigns", func(r Row) string { return dash(r.Source) + " / " + dash(r.Medium) + " / " + dash(r.Campaign) }),
		sec("Outreach codes", "", "code", r.Outreach, "no outreach code", "codes", func(r Row) string { return q(r.Outreach) }),
	}
}
