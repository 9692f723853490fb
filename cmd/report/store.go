package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"errref/internal/report"
	"errref/internal/sales"
	"errref/internal/settings"
	"errref/internal/store"
)

// timeout bounds what the report asks of a store: a silent server is an error.
const timeout = 30 * time.Second

// openStore opens the store the flags name: -db, else DATABASE_URL,
// NETLIFY_DB_URL, SITE_EVENTS_DB, else events.db in root. -migrate and the
// imports are done here; it reports whether the command is done.
func openStore(ctx context.Context, db, root, importFile string, migrate bool, salesFile string, o sales.Options) (*store.Store, bool) {
	dsn, from, err := store.Locate(os.Getenv, filepath.Join(root, "events.db"))
	if db != "" {
		dsn, from, err = db, "-db", nil
	}
	if err != nil {
		fail(err)
	}
	switch {
	case migrate:
		st := open(ctx, dsn, from, store.Options{Create: true})
		fmt.Fprintf(os.Stderr, "report: %s is at schema version %d\n", report.Quote(st.String()), store.Latest)
		st.Close()
		return nil, true
	case importFile != "":
		st := open(ctx, dsn, from, store.Options{Create: true})
		defer st.Close()
		importLog(ctx, st, importFile)
		return nil, true
	case salesFile != "":
		recs := readSales(salesFile, root, o)
		st := open(ctx, dsn, from, store.Options{Create: true})
		defer st.Close()
		res, err := st.KeepSales(ctx, recs)
		if err != nil {
			fail(err)
		}
		fmt.Fprintf(os.Stderr, "imported into %s: %d sales added, %d changed since an earlier import, %d taken before\n",
			report.Quote(st.String()), res.Added, res.Changed, res.Again)
		return nil, true
	}
	// The report reads the store read-only, after taking the preview's
	// journal into it. Only the default events.db is created for that: a
	// mistyped -db or SITE_EVENTS_DB is an error, not a new store.
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	journal := filepath.Join(root, "events.jsonl")
	_, err = os.Stat(journal)
	switch {
	case store.IsPostgres(dsn):
	case from == "" && err != nil && !exists(dsn):
		fmt.Println(noEvents(report.Quote(dsn))) // a fresh site: no store and no journal yet
		return nil, true
	case err == nil:
		if err := takeJournal(ctx, dsn, journal, from == ""); err != nil {
			if from != "" {
				fail(named(err, from))
			}
			fail(fmt.Errorf("taking the preview's %s into %s: %w", journal, dsn, err))
		}
	case !errors.Is(err, fs.ErrNotExist):
		fail(err)
	}
	return open(ctx, dsn, from, store.Options{ReadOnly: true}), false
}

// importLog takes a log's not-stored events into st, names each line it
// refuses, and exits 1 when it refused any.
func importLog(ctx context.Context, st *store.Store, file string) {
	in := os.Stdin
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			fail(err)
		}
		defer f.Close()
		in = f
	}
	res, err := st.ImportLog(ctx, in)
	for _, r := range res.Refused {
		fmt.Fprintf(os.Stderr, "report: %s: %v\n", report.Quote(file), r)
	}
	fmt.Fprintf(os.Stderr, "imported into %s: %d added, %d taken before, %d stored when they arrived, %d lines without an event, %d refused\n",
		report.Quote(st.String()), res.Added, res.Again, res.Stored, res.Skipped, len(res.Refused))
	if err != nil {
		fail(fmt.Errorf("%s: %w", file, err))
	}
	if len(res.Refused) > 0 {
		os.Exit(1)
	}
}

// readSales reads the export's sales, and says what it found, kept and
// left. site.toml matters only to a transfers export without -wallet.
func readSales(file, root string, o sales.Options) []sales.Record {
	var settingsErr error
	if o.Wallet == "" {
		var s settings.Settings
		if s, settingsErr = settings.Load(os.DirFS(root), os.Getenv); settingsErr == nil {
			o.Wallet = s.Wallet
		}
	}
	f, err := os.Open(file)
	if err != nil {
		fail(err)
	}
	defer f.Close()
	kind, recs, err := sales.Read(file, f, o)
	if errors.Is(err, sales.ErrNoWallet) && settingsErr != nil {
		fail(fmt.Errorf("-import-sales: reading the wallet address: %w", settingsErr))
	}
	if err != nil {
		fail(err)
	}
	kept, cents := 0, int64(0)
	for _, r := range recs {
		if r.Kept {
			kept++
			cents += r.Cents
		}
	}
	fmt.Fprintf(os.Stderr, "report: %s: %s, %d sales, %d kept (%s), %d fully refunded or lost in a dispute\n",
		report.Quote(file), kind, len(recs), kept, report.Money(cents), len(recs)-kept)
	return recs
}

// noEvents says what to do when nothing was recorded yet.
func noEvents(where string) string {
	return fmt.Sprintf("No events yet in %s: nothing has been recorded. Start the preview (go run ./cmd/build -serve) and open a page, which the report then takes from events.jsonl; or take the function's log with go run ./cmd/report -import FILE, or the storefront's sales with -import-sales FILE.", where)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// takeJournal imports the journal's new lines into the store at dsn, each
// once, naming each line it refuses and a last line left cut short.
func takeJournal(ctx context.Context, dsn, path string, create bool) error {
	st, err := store.Open(ctx, dsn, store.Options{Create: create})
	if err != nil {
		return err
	}
	defer st.Close()
	res, err := st.TakeJournal(ctx, path)
	if err != nil {
		return err
	}
	if res.Cut > 0 {
		fmt.Fprintf(os.Stderr, "report: warning: %s: left its last line untaken: %d bytes without a line end, a preview writing it or a crash cutting it (the preview removes a cut line before its next event); it is taken once whole\n",
			report.Quote(path), res.Cut)
	}
	if len(res.Refused) > 0 {
		var lines []int
		for _, r := range res.Refused {
			fmt.Fprintf(os.Stderr, "report: %s:%d: %v\n", report.Quote(path), r.Line, r.Err)
			lines = append(lines, r.Line)
		}
		what := fmt.Sprintf("%d lines refused, named above: stop the preview, remove them", len(res.Refused))
		if len(res.Refused) == 1 {
			what = "a line refused, named above: stop the preview, remove it"
		}
		return fmt.Errorf("%s (%s), then run the report again", what, store.RemoveLines(path, lines))
	}
	if res.Added > 0 {
		fmt.Fprintf(os.Stderr, "report: took %d events from %s\n", res.Added, report.Quote(path))
	}
	return nil
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
