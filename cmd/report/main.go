// Command report shows the reading funnel from the stored events and sales.
// It reads PostgreSQL when DATABASE_URL (or NETLIFY_DB_URL) is set, else the
// SQLite file events.db in the site folder (or -db, or SITE_EVENTS_DB), after
// taking into it what the preview kept in events.jsonl.
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
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"errref/internal/report"
	"errref/internal/sales"

	_ "modernc.org/sqlite" // the store's default: a file beside the site
)

func main() {
	root := flag.String("root", ".", "the site folder, where events.db is")
	db := flag.String("db", "", "the SQLite file of events (default: events.db in -root, or SITE_EVENTS_DB)")
	since := flag.String("since", "30d", "the period: this many days up to today, UTC")
	from := flag.String("from", "", "the first UTC day of the period, YYYY-MM-DD (instead of -since)")
	to := flag.String("to", "", "the last UTC day of the period, YYYY-MM-DD (default today)")
	asJSON := flag.Bool("json", false, "write JSON, for scripts")
	htmlFile := flag.String("html", "", "write a self-contained HTML page with charts to this file; - writes it to standard output")
	var f report.Filter
	flag.StringVar(&f.Path, "path", "", "only the reading events of this path, such as /pay/ (clicks, buy-link clicks and sales, which carry no path, are left out)")
	flag.StringVar(&f.Ref, "ref", "", "only the reading events from this referrer host, such as news.ycombinator.com")
	flag.StringVar(&f.Campaign, "campaign", "", "only the reading events of this utm_campaign")
	flag.StringVar(&f.Outreach, "outreach", "", "only the reading events of this outreach code")
	importFile := flag.String("import", "", "store the not-stored events of a log of JSON lines (the function's stdout, netlify logs --function event --json, or a journal), each once; - reads standard input")
	migrate := flag.Bool("migrate", false, "bring the store's schema up to this release, creating it if need be, and stop")
	salesFile := flag.String("import-sales", "", "store the sales of Gumroad's sales export (CSV) or of a Base explorer's token transfers export (CSV), counts only, each sale once, and stop")
	var o sales.Options
	flag.StringVar(&o.Wallet, "wallet", "", "with -import-sales of transfers: the wallet paid in USDC (default: wallet_address in site.toml, or SITE_WALLET_ADDRESS)")
	flag.StringVar(&o.Product, "product", "", "with -import-sales of transfers: the product the wallet's payments buy")
	flag.Parse()
	if flag.NArg() > 0 {
		fail(fmt.Errorf("unexpected argument %q: flags come before it, and -html takes a file name or -", flag.Arg(0)))
	}
	if *htmlFile != "" && *asJSON {
		fail(fmt.Errorf("-html and -json: choose one"))
	}

	days, err := report.ParseSince(*since)
	if err != nil {
		fail(err)
	}
	// Where, and how: read-only unless a step needs to write (see store.go).
	ctx := context.Background()
	st, done := openStore(ctx, *db, *root, *importFile, *migrate, *salesFile, o)
	if done {
		return
	}
	defer st.Close()
	if empty, err := st.Empty(ctx); err != nil {
		fail(err)
	} else if empty {
		fmt.Println(noEvents(report.Quote(st.String())))
		return
	}

	q, err := report.Period(time.Now(), days, *from, *to)
	if err != nil {
		fail(err)
	}
	q.Filter = f
	fmt.Fprintf(os.Stderr, "report: %s, %s to %s (UTC days)\n", report.Quote(st.String()), q.From, q.To)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	r, err := report.Load(ctx, st, q)
	if err != nil {
		fail(timedOut(ctx, err))
	}
	clicks, guides, err := readSite(*root)
	if err != nil {
		fail(err)
	}
	r.SetClickPages(clicks)
	r.SetGuides(guides)
	switch {
	case *htmlFile == "-":
		err = report.HTML(os.Stdout, r)
	case *htmlFile != "":
		var b bytes.Buffer
		if err = report.HTML(&b, r); err == nil {
			err = os.WriteFile(*htmlFile, b.Bytes(), 0o644)
		}
		if err == nil {
			fmt.Fprintf(os.Stderr, "wrote %s\n", *htmlFile)
		}
	case *asJSON:
		err = report.JSON(os.Stdout, r)
	default:
		err = report.Text(os.Stdout, r)
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "report:", err)
	os.Exit(1)
}
