package main

import (
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
	if o.Wallet == "" {
		s, err := settings.Load(os.DirFS(root), os.Getenv)
		if err != nil {
			fail(fmt.Errorf("-import-sales: reading the wallet address: %w", err))
		}
		o.Wallet = s.Wallet
	}
	f, err := os.Open(in.file)
	if err != nil {
		fail(err)
	}
	defer f.Close()
	kind, recs, err := sales.Read(in.file, f, o)
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
