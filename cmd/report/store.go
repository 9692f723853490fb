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
	"errref/internal/tally"
)

// timeout bounds what the report asks of a store: a silent server is an error.
const timeout = 30 * time.Second

// locate names the store the flags choose: -db, else as store.Locate, with
// events.db in -root; from is the setting that chose it, "" for the default.
func (f flags) locate() (dsn, from string, err error) {
	if f.db != "" {
		return f.db, "-db", nil
	}
	return store.Locate(os.Getenv, filepath.Join(f.root, "events.db"))
}

// migrate brings the store's schema up to this release, creating the store if need be.
func migrate(f flags) error {
	st, err := f.open(context.Background(), store.Options{Create: true})
	if err != nil {
		return err
	}
	defer st.Close()
	fmt.Fprintf(os.Stderr, "report: %s is at schema version %d\n", report.Quote(st.String()), store.Latest)
	return nil
}

// openToRead opens the store read-only after taking the preview's journal into
// it; with neither the default store nor a journal, none. It creates only the
// default events.db, to take the journal in: a mistyped -db or SITE_EVENTS_DB
// is an error, not a new store.
func (f flags) openToRead(ctx context.Context) (*store.Store, error) {
	dsn, from, err := f.locate()
	if err != nil {
		return nil, err
	}
	journal := filepath.Join(f.root, "events.jsonl")
	_, err = os.Stat(journal)
	switch {
	case store.IsPostgres(dsn):
	case from == "" && err != nil && !exists(dsn):
		return nil, nil
	case err == nil:
		if err := takeJournal(ctx, dsn, journal, from == ""); err != nil {
			if from != "" {
				return nil, named(err, from)
			}
			return nil, fmt.Errorf("taking the preview's %s into %s: %w", journal, dsn, err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	return f.open(ctx, store.Options{ReadOnly: true})
}

// importLog takes a log's not-stored events into the store, naming each line it refuses.
func importLog(f flags) error {
	in := os.Stdin
	if f.importFile != "-" {
		file, err := os.Open(f.importFile)
		if err != nil {
			return err
		}
		defer file.Close()
		in = file
	}
	ctx := context.Background()
	st, err := f.open(ctx, store.Options{Create: true})
	if err != nil {
		return err
	}
	defer st.Close()
	res, err := st.ImportLog(ctx, in)
	for _, r := range res.Refused {
		fmt.Fprintf(os.Stderr, "report: %s: %v\n", report.Quote(f.importFile), r)
	}
	fmt.Fprintf(os.Stderr, "imported into %s: %d added, %d taken before, %d stored when they arrived, %d lines without an event, %d refused\n",
		report.Quote(st.String()), res.Added, res.Again, res.Stored, res.Skipped, len(res.Refused))
	if err != nil {
		// A batch whose COMMIT's answer was lost may be stored too: what it says it added may be short.
		return fmt.Errorf("%s: %w\nwhat was stored stays, and may be more than it says: run the same -import again once the store can take it, which takes each line once", f.importFile, err)
	}
	if len(res.Refused) > 0 {
		return fmt.Errorf("%s: %d lines refused, named above; the rest were taken", report.Quote(f.importFile), len(res.Refused))
	}
	return nil
}

// importSales takes the sales of an export into the store, each once, all or none,
// and says what it kept. site.toml matters only to a transfers export without -wallet.
func importSales(f flags) error {
	o := f.sales
	var settingsErr error
	if o.Wallet == "" {
		var s settings.Settings
		if s, settingsErr = settings.Load(os.DirFS(f.root), os.Getenv); settingsErr == nil {
			o.Wallet = s.Wallet
		}
	}
	file, err := os.Open(f.salesFile)
	if err != nil {
		return err
	}
	defer file.Close()
	kind, recs, err := sales.Read(f.salesFile, file, o)
	if errors.Is(err, sales.ErrNoWallet) && settingsErr != nil {
		return fmt.Errorf("-import-sales: reading the wallet address: %w", settingsErr)
	}
	if err != nil {
		return err
	}
	ctx := context.Background()
	st, err := f.open(ctx, store.Options{Create: true})
	if err != nil {
		return err
	}
	defer st.Close()
	res, err := st.KeepSales(ctx, recs)
	if err != nil {
		return fmt.Errorf("%w (nothing of it was stored)", err)
	}
	n := res.Added + res.Changed + res.Again
	fmt.Fprintf(os.Stderr, "report: %s: %s, %d sales, %d kept (%s), %d fully refunded, lost in a dispute, not charged yet (a pre-order, a free trial) or under half a cent\n",
		report.Quote(f.salesFile), kind, n, res.Kept, report.Money(res.Cents), n-res.Kept)
	fmt.Fprintf(os.Stderr, "imported into %s: %d sales added, %d changed since an earlier import, %d taken before\n",
		report.Quote(st.String()), res.Added, res.Changed, res.Again)
	return nil
}

// none is the store of a folder where nothing was recorded yet: no event, no sale.
type none struct{}

func (none) Counts(context.Context, string, string) ([]tally.Count, error) { return nil, nil }
func (none) Sales(context.Context, string, string) ([]tally.Sale, error)   { return nil, nil }

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// takeJournal imports the journal's new lines into the store at dsn, each once,
// naming each line it refuses and a last line left cut short.
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

// open opens the store the flags name (see locate).
func (f flags) open(ctx context.Context, o store.Options) (*store.Store, error) {
	dsn, from, err := f.locate()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	st, err := store.Open(ctx, dsn, o)
	if err != nil {
		return nil, named(timedOut(ctx, err), from)
	}
	return st, nil
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
