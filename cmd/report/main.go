// Command report shows the reading funnel from the stored events: per
// page, views, human candidates and engaged readers; site-wide clicks and
// checkouts; referrers, campaigns and outreach codes; and a day-by-day
// series. It reads PostgreSQL when DATABASE_URL (or NETLIFY_DB_URL) is set,
// else the SQLite file events.db in the site folder (or -db, or
// SITE_EVENTS_DB), after taking into it the events the local preview
// kept in events.jsonl.
//
//	go run ./cmd/report                      the last 30 days, as tables
//	go run ./cmd/report -from 2026-03-01 -to 2026-03-31 -json
//	go run ./cmd/report -html report.html
//	go run ./cmd/report -import events.jsonl  take the function's log lines into the store
//	go run ./cmd/report -migrate              bring the store's schema up to this release
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"errref/internal/report"
	"errref/internal/store"

	_ "modernc.org/sqlite" // the store's default: a file beside the site
)

// timeout bounds everything the report asks of a store: a server that
// accepts and never answers is an error, not a wait for ever.
const timeout = 30 * time.Second

// maxDays is the longest -since: a century of days, far inside what a
// time.Duration holds (213,505 days overflowed it to one).
const maxDays = 36_500

func main() {
	root := flag.String("root", ".", "the site folder, where events.db and the preview's events.jsonl are")
	db := flag.String("db", "", "the store: a SQLite file or a PostgreSQL URL (default: DATABASE_URL, NETLIFY_DB_URL, SITE_EVENTS_DB, else events.db in -root)")
	since := flag.String("since", "30d", "the period: this many days up to today, UTC")
	from := flag.String("from", "", "the first UTC day of the period, YYYY-MM-DD (instead of -since)")
	to := flag.String("to", "", "the last UTC day of the period, YYYY-MM-DD (default today)")
	asJSON := flag.Bool("json", false, "write JSON, for scripts")
	htmlFile := flag.String("html", "", "write a self-contained HTML page with charts to this file")
	importFile := flag.String("import", "", "store the not-stored events of a log of JSON lines (the function's stdout, netlify logs --function event --json, or a journal), each once; - reads standard input")
	migrate := flag.Bool("migrate", false, "bring the store's schema up to this release, creating it if need be, and stop")
	flag.Parse()

	dsn, from0, err := store.Locate(os.Getenv, filepath.Join(*root, "events.db"))
	if *db != "" {
		dsn, from0, err = *db, "-db", nil
	}
	if err != nil {
		fail(err)
	}
	ctx := context.Background()
	switch {
	case *migrate:
		st := open(ctx, dsn, from0, store.Options{Create: true})
		defer st.Close()
		fmt.Fprintf(os.Stderr, "report: %s is at schema version %d\n", quote(st.String()), store.Latest)
		return
	case *importFile != "":
		st := open(ctx, dsn, from0, store.Options{Create: true})
		defer st.Close()
		in := os.Stdin
		if *importFile != "-" {
			if in, err = os.Open(*importFile); err != nil {
				fail(err)
			}
		}
		res, err := st.ImportLog(ctx, in)
		for _, r := range res.Refused {
			fmt.Fprintf(os.Stderr, "report: %s: %v\n", quote(*importFile), r)
		}
		fmt.Fprintf(os.Stderr, "imported into %s: %d added, %d taken before, %d stored when they arrived, %d lines without an event, %d refused\n", quote(st.String()), res.Added, res.Again, res.Stored, res.Skipped, len(res.Refused))
		if err != nil {
			fail(fmt.Errorf("%s: %w", *importFile, err))
		}
		if len(res.Refused) > 0 {
			os.Exit(1)
		}
		return
	}

	if err := checkSince(*since); err != nil {
		fail(err)
	}
	days, err := report.ParseSince(*since)
	if err != nil {
		fail(err)
	}
	first, last, err := report.Period(time.Now(), days, *from, *to)
	if err != nil {
		fail(err)
	}

	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	st, err := openForReport(ctx, dsn, from0, filepath.Join(*root, "events.jsonl"))
	if err != nil {
		fail(err)
	}
	defer st.Close()
	fmt.Fprintf(os.Stderr, "report: %s, %s to %s (UTC days)\n", quote(st.String()), first, last)
	counts, err := st.Counts(ctx, first, last)
	if err != nil {
		fail(timedOut(ctx, err))
	}
	r := report.Build(counts, first, last)
	switch {
	case *htmlFile != "":
		var b bytes.Buffer
		if err := report.HTML(&b, r); err != nil {
			fail(err)
		}
		if err := os.WriteFile(*htmlFile, b.Bytes(), 0o644); err != nil {
			fail(err)
		}
		fmt.Fprintf(os.Stderr, "wrote %s\n", *htmlFile)
	case *asJSON:
		err = report.JSON(os.Stdout, r)
	default:
		err = report.Text(os.Stdout, r)
	}
	if err != nil {
		fail(err)
	}
}

// openForReport opens the store read-only, after taking into a SQLite
// store the events the preview kept in its journal (which needs the right
// to write it, and may create it: the journal is the preview's store).
func openForReport(ctx context.Context, dsn, from, journal string) (*store.Store, error) {
	if !store.IsPostgres(dsn) {
		if _, err := os.Stat(journal); err == nil {
			st, err := store.Open(ctx, dsn, store.Options{Create: true})
			if err != nil {
				return nil, fmt.Errorf("taking the preview's %s into %s: %w", journal, dsn, err)
			}
			n, err := takeJournal(ctx, st, journal)
			if err != nil {
				st.Close()
				return nil, fmt.Errorf("taking the preview's %s into %s: %w", journal, dsn, err)
			}
			if n > 0 {
				fmt.Fprintf(os.Stderr, "report: took %d events from %s\n", n, quote(journal))
			}
			st.Close()
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	st, err := store.Open(ctx, dsn, store.Options{ReadOnly: true})
	if err != nil {
		return nil, named(timedOut(ctx, err), from)
	}
	return st, nil
}

func takeJournal(ctx context.Context, st *store.Store, path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	res, err := st.ImportLog(ctx, f)
	if err != nil {
		return 0, err
	}
	if len(res.Refused) > 0 {
		return 0, fmt.Errorf("%v (and %d more lines): fix or remove them", res.Refused[0], len(res.Refused)-1)
	}
	return res.Added, nil
}

func open(ctx context.Context, dsn, from string, o store.Options) *store.Store {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	st, err := store.Open(ctx, dsn, o)
	if err != nil {
		fail(named(timedOut(ctx, err), from))
	}
	return st
}

// named says which setting chose the store, when one did.
func named(err error, from string) error {
	if from == "" {
		return err
	}
	return fmt.Errorf("%w (the store named by %s)", err, from)
}

// timedOut says plainly that the server did not answer in time.
func timedOut(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("no answer within %v: the server accepted but did not reply (%v)", timeout, err)
	}
	return err
}

// checkSince refuses a number of days too large to count.
func checkSince(s string) error {
	if d, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(d); err == nil && n > maxDays {
			return fmt.Errorf("-since %s: at most %dd (a century); for an older period give -from", s, maxDays)
		}
	}
	return nil
}

// quote shows a name from the environment or the command line as Go would
// quote it when it holds anything a terminal could take for a control.
func quote(s string) string {
	q := strconv.Quote(s)
	if q[1:len(q)-1] == s {
		return s
	}
	return q
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "report:", err)
	os.Exit(1)
}
