// The report for a terminal: tables whose columns line up, every stored value quoted.

package report

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// Text writes r as tables for a terminal, every stored value through Quote.
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
	if r.NotStored != "" {
		fmt.Fprintf(w, "%s\n\n", r.NotStored)
	}

	t, prev := r.Total, r.Previous.Total
	tb := table{{"", "this period", "before", "change"}}
	tb.row("views", num(t.View), num(prev.View), change(t.View, prev.View))
	tb.row("human candidates", num(t.HumanCandidate), num(prev.HumanCandidate), change(t.HumanCandidate, prev.HumanCandidate))
	tb.row("engaged", num(t.Engaged), num(prev.Engaged), change(t.Engaged, prev.Engaged))
	tb.write(w)
	fmt.Fprintf(w, "\n  human candidates: %s of views; engaged: %s of human candidates\n", pct(t.ToHumanCandidate), pct(t.ToEngaged))
	fmt.Fprintf(w, "  scrolled: %s of human candidates, %s of engaged (%s)\n", pct(t.ScrolledShare), share(t.ScrolledEngaged, t.Engaged), scrolledNote)
	fmt.Fprintf(w, "  time in view of engaged readers: %s\n", visibleLine(r.Visible))

	fmt.Fprintf(w, "\nPages:\n")
	tb = table{{"path", "views", "change", "human candidates", "change", "engaged", "change", "human, of views", "engaged, of human", "scrolled, of human"}}
	guides := table{{"path", "guide", "sales", "revenue"}}
	for _, pg := range r.Pages {
		tb.row(Quote(pg.Path),
			num(pg.View), change(pg.View, pg.Previous.View),
			num(pg.HumanCandidate), change(pg.HumanCandidate, pg.Previous.HumanCandidate),
			num(pg.Engaged), change(pg.Engaged, pg.Previous.Engaged),
			pct(pg.ToHumanCandidate), pct(pg.ToEngaged), pct(pg.ScrolledShare))
		if pg.Guide != "" {
			guides.row(Quote(pg.Path), Quote(pg.Guide), num(*pg.Sales), Money(*pg.RevenueCents))
		}
	}
	tb.write(w)
	if len(r.Pages) == 0 {
		fmt.Fprintf(w, "  none\n")
	}
	if len(guides) > 1 {
		fmt.Fprintf(w, "\nGuides sold, on the page that sells each (all channels):\n")
		guides.write(w)
	}

	if s := r.SiteWide; s != nil {
		fmt.Fprintf(w, "\nSite-wide. %s\n", noFilterNote)
		tb = table{{"", "this period", "before", "change"}}
		for _, n := range slices.Sorted(maps.Keys(s.Clicks)) {
			tb.row("click "+Quote(n)+clickPage(s, n), num(s.Clicks[n]), num(s.PreviousClicks[n]), change(s.Clicks[n], s.PreviousClicks[n]))
		}
		for _, n := range slices.Sorted(maps.Keys(s.BuyLinkClicks)) {
			tb.row("buy-link clicks "+Quote(n), num(s.BuyLinkClicks[n]), num(s.PreviousBuyLinkClicks[n]), change(s.BuyLinkClicks[n], s.PreviousBuyLinkClicks[n]))
		}
		tb.row("buy-link clicks per engaged", ratio(s.BuyLinkClicksPerEngaged))
		tb.write(w)
		textSales(w, r)
	} else {
		fmt.Fprintf(w, "\n%s\n", filteredNote)
	}

	for _, sec := range sections(r, Quote) {
		if sec.Note != "" {
			fmt.Fprintf(w, "\n%s (%s):\n", sec.Title, sec.Note)
		} else {
			fmt.Fprintf(w, "\n%s:\n", sec.Title)
		}
		tb = table{{sec.Head, "views", "share", "human candidates", "engaged"}}
		for _, row := range sec.Rows {
			if row.Part {
				row.Label = "  · " + row.Label
			}
			tb.row(row.Label, num(row.View), share(row.View, t.View), num(row.HumanCandidate), num(row.Engaged))
		}
		tb.row("all", num(t.View), share(t.View, t.View), num(t.HumanCandidate), num(t.Engaged))
		tb.write(w)
	}

	fmt.Fprintf(w, "\nBy day (UTC):\n")
	tb = table{{"day", "views", "human candidates", "engaged", "clicks", "buy-link clicks", "sales", "revenue"}}
	for _, d := range r.Days {
		day := d.Day
		if d.Partial {
			day += " (" + partialMarker + ")"
		}
		cells := []string{day, num(d.View), num(d.HumanCandidate), num(d.Engaged)}
		if d.Clicks != nil {
			cells = append(cells, num(*d.Clicks), num(*d.BuyLinkClicks))
		}
		if d.Sales != nil {
			cells = append(cells, num(*d.Sales), Money(*d.RevenueCents))
		}
		tb.row(cells...)
	}
	tb[0] = tb[0][:len(tb[len(tb)-1])] // the days' columns: no clicks under a filter, no sales where the store keeps none
	return tb.write(w)
}

// textSales writes buy-link clicks, sales and revenue by channel, the whole
// funnel in a line, and the products sold.
func textSales(w io.Writer, r Report) {
	s := r.SiteWide.Sales
	if s == nil {
		fmt.Fprintf(w, "\n%s\n", cmp.Or(r.SiteWide.SalesLeftOut, noSalesNote))
		return
	}
	fmt.Fprintf(w, "\nSales by channel (%s):\n", salesNote)
	tb := table{{"channel", "buy-link clicks", "sales", "sales per buy-link click", "revenue", "sales before", "change", "revenue before"}}
	for _, c := range s.Channels {
		tb.row(c.Channel, num(c.BuyLinkClicks), num(c.Sales), ratio(c.SalesPerBuyLinkClick), Money(c.RevenueCents),
			num(c.PreviousSales), change(c.Sales, c.PreviousSales), Money(c.PreviousRevenueCents))
	}
	tb.write(w)
	all := s.Channels[len(s.Channels)-1]
	t := r.Total
	fmt.Fprintf(w, "\n  views %s -> human candidates %s (%s) -> engaged %s (%s) -> buy-link clicks %s (%s) -> sales %s (%s); revenue %s\n",
		num(t.View), num(t.HumanCandidate), pct(t.ToHumanCandidate), num(t.Engaged), pct(t.ToEngaged),
		num(all.BuyLinkClicks), pct(r.SiteWide.BuyLinkClicksPerEngaged), num(all.Sales), pct(all.SalesPerBuyLinkClick), Money(all.RevenueCents))
	if len(s.Products) > 0 {
		fmt.Fprintf(w, "\nProducts sold:\n")
		tb = table{{"product", "channel", "sales", "revenue"}}
		for _, p := range s.Products {
			tb.row(Quote(p.Product), p.Channel, num(p.Sales), Money(p.RevenueCents))
		}
		tb.write(w)
	}
}

// clickPage names the page that has the click's control, when the report was given the site.
func clickPage(s *SiteWide, name string) string {
	if s.ClickPages == nil {
		return ""
	}
	if pages := s.ClickPages[name]; len(pages) > 0 {
		return " on " + strings.Join(pages, ", ")
	}
	return " on no page now"
}

// table lines up rows for a terminal, two spaces before each cell: the first
// column to the left, the others, numbers, to the right. A row with fewer cells
// comes last: tabwriter ends a column at a row without it.
type table [][]string

func (t *table) row(cells ...string) { *t = append(*t, cells) }

func (t table) write(w io.Writer) error {
	width := 0
	for _, r := range t {
		width = max(width, utf8.RuneCountInString(r[0]))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, r := range t {
		fmt.Fprintf(tw, "%-*s\t%s\t\n", width, r[0], strings.Join(r[1:], "\t")) // fmt pads by runes, as width counts
	}
	return tw.Flush()
}
