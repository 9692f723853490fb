package main

import (
	"errors"
	"fmt"
	"os"

	"errref/internal/report"
	"errref/internal/sales"
	"errref/internal/settings"
)

// salesImport is what -import-sales, -wallet and -product ask.
type salesImport struct {
	file, wallet, product string
}

// read reads the export's sales, and says what it found, kept and left.
func (in salesImport) read(root string) []sales.Record {
	o := sales.Options{Wallet: in.wallet, Product: in.product}
	// site.toml matters only to a transfers export without -wallet.
	var settingsErr error
	if o.Wallet == "" {
		var s settings.Settings
		if s, settingsErr = settings.Load(os.DirFS(root), os.Getenv); settingsErr == nil {
			o.Wallet = s.Wallet
		}
	}
	f, err := os.Open(in.file)
	if err != nil {
		fail(err)
	}
	defer f.Close()
	kind, recs, err := sales.Read(in.file, f, o)
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
		report.Quote(in.file), kind, len(recs), kept, report.Money(cents), len(recs)-kept)
	return recs
}
