// Command report shows the reading funnel from the stored events and sales: in
// PostgreSQL when DATABASE_URL (or NETLIFY_DB_URL) is set, else in the SQLite
// file events.db (or -db, or SITE_EVENTS_DB), into which it takes events.jsonl.
//
//	go run ./cmd/report                      the last 30 days, as tables
//	go run ./cmd/report -from 2026-03-01 -to 2026-03-31 -json
//	go run ./cmd/report -html report.html    (-html - writes the page to stdout)
//	go run ./cmd/report -path /pay/ -ref news.ycombinator.com
//	go run ./cmd/report -import events.jsonl  take the function's log lines into the store
//	go run ./cmd/report -import-sales Sales.csv  take a Gumroad export's sales, counts only
//	go run ./cmd/report -migrate              bring the store's schema up to this release
package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"errref/internal/event"
	"errref/internal/report"
	"errref/internal/sales"
	"errref/internal/store"

	_ "modernc.org/sqlite" // the store's default: a file beside the site
)

// flags are the command line, read once.
type flags struct {
	root, db, since, from, to, html string
	json, migrate                   bool
	importFile, salesFile           string
	filter                          report.Filter
	sales                           sales.Options
}

func main() {
	var f flags
	flag.StringVar(&f.root, "root", ".", "the site folder, where events.db is")
	flag.StringVar(&f.db, "db", "", "the SQLite file of events (default: events.db in -root, or SITE_EVENTS_DB)")
	flag.StringVar(&f.since, "since", "30d", "the period: this many days up to today, UTC")
	flag.StringVar(&f.from, "from", "", "the first UTC day of the period, YYYY-MM-DD (instead of -since)")
	flag.StringVar(&f.to, "to", "", "the last UTC day of the period, YYYY-MM-DD, today or before (default today)")
	flag.BoolVar(&f.json, "json", false, "write JSON, for scripts")
	flag.StringVar(&f.html, "html", "", "write a self-contained HTML page with charts to this file; - writes it to standard output")
	flag.StringVar(&f.filter.Path, "path", "", "only the reading events of this path, such as /pay/ (clicks, buy-link clicks and sales, which carry no path, are left out)")
	flag.StringVar(&f.filter.Ref, "ref", "", "only the reading events from this referrer host, such as news.ycombinator.com (a URL is read for its host)")
	flag.StringVar(&f.filter.Campaign, "campaign", "", "only the reading events of this utm_campaign")
	flag.StringVar(&f.filter.Outreach, "outreach", "", "only the reading events of this outreach code")
	flag.StringVar(&f.importFile, "import", "", "store the not-stored events of a log of JSON lines (the function's stdout, netlify logs --function event --json, or a journal), each once; - reads standard input")
	flag.BoolVar(&f.migrate, "migrate", false, "bring the store's schema up to this release, creating it if need be, and stop")
	flag.StringVar(&f.salesFile, "import-sales", "", "store the sales of Gumroad's sales export (CSV) or of a Base explorer's token transfers export (Blockscout's or Basescan's CSV), counts only, each sale once, and stop")
	flag.StringVar(&f.sales.Wallet, "wallet", "", "with -import-sales of transfers: the wallet paid in USDC (default: wallet_address in site.toml, or SITE_WALLET_ADDRESS)")
	flag.StringVar(&f.sales.Product, "product", "", "with -import-sales of transfers: the product the wallet's payments buy")
	flag.Parse()
	given := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var err error
	switch {
	case flag.NArg() > 0:
		err = fmt.Errorf("unexpected argument %q: flags come before it, and -html takes a file name or -", flag.Arg(0))
	case f.html != "" && f.json:
		err = errors.New("-html and -json: choose one")
	case given["since"] && f.from != "":
		err = errors.New("-since and -from: choose one (-from starts the period, -to ends it)")
	case f.migrate:
		err = migrate(f)
	case f.importFile != "":
		err = importLog(f)
	case f.salesFile != "":
		err = importSales(f)
	default:
		err = show(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
}

// show writes the report of the period as tables, JSON or a page. On a store
// that holds nothing yet, or none, it says what to do and writes the zeros.
func show(f flags) error {
	days, err := report.ParseSince(f.since)
	if err != nil {
		return err
	}
	q, err := report.Period(time.Now(), days, f.from, f.to)
	if err != nil {
		return err
	}
	q.Filter = f.filter
	// Read as the receiver keeps them: a mark as U+FFFD.
	q.Filter.Campaign, q.Filter.Outreach = event.Marked(q.Filter.Campaign), event.Marked(q.Filter.Outreach)
	if q.Filter.Ref, err = refHost(q.Filter.Ref); err != nil {
		return err
	}
	// The site places what the events do not carry: an alias's reads on its page.
	pl, siteErr := placesOf(f.root)
	q.Aliases = pl.aliases
	q.Filter.Path = cmp.Or(pl.aliases[q.Filter.Path], q.Filter.Path)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	st, err := f.openToRead(ctx)
	if err != nil {
		return err
	}
	// Without a store (a fresh site, with no journal yet): the zeros.
	var src report.CountReader = none{}
	where, empty := filepath.Join(f.root, "events.db"), true
	if st != nil {
		defer st.Close()
		src, where = st, st.String()
		if empty, err = st.Empty(ctx); err != nil {
			return timedOut(ctx, err)
		}
		fmt.Fprintf(os.Stderr, "report: %s, %s to %s (UTC days)\n", report.Quote(where), q.From, q.To)
	}
	if empty {
		fmt.Fprintf(os.Stderr, "No events yet in %s. Start the preview (go run ./cmd/build -serve) and open a page, which the report then takes from events.jsonl; or take the function's log with go run ./cmd/report -import FILE, or the storefront's sales with -import-sales FILE.\n", report.Quote(where))
	}
	r, err := report.Load(ctx, src, q)
	if errors.Is(err, store.ErrSalesDenied) {
		fmt.Fprintf(os.Stderr, "report: warning: the report leaves the sales out: %v\n", err)
		r.SiteWide.SalesLeftOut = "Sales: left out, as the report cannot read them: " + err.Error()
	} else if err != nil {
		return timedOut(ctx, err)
	}
	if r.NotStored, err = store.NotStoredNote(f.root); err != nil {
		return err
	} else if r.NotStored != "" {
		fmt.Fprintf(os.Stderr, "report: warning: %s\n", r.NotStored)
	}
	// An event dated after today (a clock ahead where it was received) is in no period -to allows.
	day, _ := time.Parse(time.DateOnly, q.Today)
	if later, err := src.Counts(ctx, day.AddDate(0, 0, 1).Format(time.DateOnly), "9999-12-31"); err != nil {
		return timedOut(ctx, err)
	} else if len(later) > 0 {
		fmt.Fprintf(os.Stderr, "report: warning: the store holds events dated after today, %s (UTC), from %s to %s, which no period shows: the clock where they were received was ahead, or -import took lines so dated\n", q.Today, later[0].Day, later[len(later)-1].Day)
	}
	if siteErr != nil {
		fmt.Fprintf(os.Stderr, "report: warning: the site in %s does not build, so clicks, guides and aliases are not put on their pages, nor -path held to them:\n  %s\n", f.root, strings.ReplaceAll(siteErr.Error(), "\n", "\n  "))
	} else if pl.urls != nil {
		r.Place(pl.clicks, pl.guides)
	}
	if err := checkPath(q.Filter.Path, pl.urls, r.Total.Steps != (report.Steps{}) || r.Previous.Total != (report.Steps{})); err != nil {
		return err
	}
	if note := r.NoMatch(); note != "" && !empty {
		fmt.Fprintf(os.Stderr, "report: warning: %s\n", note)
	}
	switch {
	case f.html == "-":
		return report.HTML(os.Stdout, r)
	case f.html != "":
		var b bytes.Buffer
		if err := report.HTML(&b, r); err != nil {
			return err
		}
		if err := writeWhole(f.html, b.Bytes()); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "wrote %s\n", f.html)
		return nil
	case f.json:
		return report.JSON(os.Stdout, r)
	}
	return report.Text(os.Stdout, r)
}

// writeWhole writes data to a file beside path and renames it there, so that a
// full disk leaves the last report whole rather than a cut page that looks like one.
func writeWhole(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".new-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(data)
	if err = errors.Join(err, f.Chmod(0o644), f.Close()); err != nil {
		return fmt.Errorf("%s: %w (the last report there is as it was)", path, err)
	}
	return os.Rename(f.Name(), path)
}

// refHost reads -ref as the counter records a referrer: document.referrer's host,
// lower case, without a port; no -ref is "".
func refHost(ref string) (string, error) {
	s := ref
	if !strings.Contains(s, "://") {
		s = "//" + s // a host alone, or with a path
	}
	var host string
	if u, err := url.Parse(s); err == nil {
		host = strings.TrimSuffix(u.Host, ":"+u.Port()) // [::1] keeps its brackets, as in a browser
	}
	if host == "" && ref != "" {
		return "", fmt.Errorf("-ref %q: give a referrer's host, such as news.ycombinator.com, or a URL on it", ref)
	}
	return strings.ToLower(host), nil
}

// checkPath refuses a -path that is no page of the site, unless the filter matched
// reading events (of a page since removed), naming the page it differs from only
// in slashes or case (/mcp/mcperror/ for /mcp/mcperror).
func checkPath(path string, pages []string, matched bool) error {
	if path == "" || matched || slices.Contains(pages, path) {
		return nil
	}
	err := fmt.Errorf("-path %q is no page of the site, and no reading event of the period or the one before matches the filter", path)
	key := func(p string) string { return strings.ToLower(strings.Trim(p, "/")) }
	if i := slices.IndexFunc(pages, func(p string) bool { return key(p) == key(path) }); i >= 0 {
		return fmt.Errorf("%w: the nearest page is %q", err, pages[i])
	}
	return fmt.Errorf("%w: give a page's path as its address shows it, such as /pay/", err)
}
