package store

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"errref/internal/sales"
	"errref/internal/tally"
)

// gumroadFixture is the five sales of the sales package's fixture: over
// three days, one fully refunded, one dispute lost, one partly refunded.
func gumroadFixture(t *testing.T) ([]sales.Record, []byte) {
	t.Helper()
	b, err := os.ReadFile("../sales/testdata/gumroad-5-sales.csv")
	if err != nil {
		t.Fatal(err)
	}
	_, recs, err := sales.Read("gumroad-5-sales.csv", bytes.NewReader(b), sales.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return recs, b
}

// TestSalesTakenOnce: an export taken twice counts each sale once; a
// later export that shows a refund changes the sale; only kept sales are
// read, by day.
func TestSalesTakenOnce(t *testing.T) {
	recs, _ := gumroadFixture(t)
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		ctx := context.Background()
		for i, want := range []SalesResult{{Added: 5}, {Again: 5}} {
			if got, err := s.KeepSales(ctx, recs); err != nil || got != want {
				t.Errorf("import %d: %+v, %v; want %+v", i+1, got, err, want)
			}
		}
		got, err := s.Sales(ctx, "2026-03-01", "2026-03-31")
		if err != nil {
			t.Fatal(err)
		}
		want := []tally.Sale{
			{Day: "2026-03-01", Channel: "gumroad", Product: "The McpError field guide", N: 1, Cents: 1900},
			{Day: "2026-03-02", Channel: "gumroad", Product: "The McpError field guide", N: 1, Cents: 1450},
			{Day: "2026-03-03", Channel: "gumroad", Product: "The McpError field guide", N: 1, Cents: 1900},
		}
		if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
			t.Errorf("sales: %+v\nwant %+v", got, want)
		}
		// A later export: the first sale refunded since.
		later := append([]sales.Record(nil), recs...)
		later[0].Kept = false
		if res, err := s.KeepSales(ctx, later[:2]); err != nil || res != (SalesResult{Changed: 1, Again: 1}) {
			t.Errorf("the later export: %+v, %v", res, err)
		}
		if got, _ := s.Sales(ctx, "2026-03-01", "2026-03-01"); len(got) != 0 {
			t.Errorf("a sale refunded since is still read: %+v", got)
		}
	})
}

// TestNoBuyerInTheStore: after a Gumroad export and an explorer's
// transfers are taken, none of the buyers' names, emails, addresses,
// countries, license keys, payment IDs or purchase IDs, no sender's
// address or transaction hash, is anywhere in the store: not in SQLite's files (the
// database, its WAL), not in a pg_dump of the schema.
func TestNoBuyerInTheStore(t *testing.T) {
	recs, csv := gumroadFixture(t)
	var secrets []string
	for _, col := range []string{"Purchase ID", "Buyer Name", "Purchase Email", "Street Address", "City", "Country", "License Key", "Stripe Transaction ID", "Order Number"} {
		secrets = append(secrets, column(t, csv, col)...)
	}
	if len(secrets) != 45 {
		t.Fatalf("%d values to look for, want 45", len(secrets))
	}
	// And a Base explorer's transfers: no sender's address, no transaction hash.
	transfers, err := os.ReadFile("../sales/testdata/blockscout-transfers.csv")
	if err != nil {
		t.Fatal(err)
	}
	_, site, err := sales.Read("blockscout-transfers.csv", bytes.NewReader(transfers), sales.Options{Wallet: "0x52908400098527886E0F7030069857D2E4169EE7", Product: "guide"})
	if err != nil || len(site) != 2 {
		t.Fatalf("%d transfers, %v", len(site), err)
	}
	secrets = append(secrets, "0xSenderAAAA", "0xSenderBBBB", strings.Repeat("a1", 32), strings.Repeat("b2", 32))
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		if _, err := s.KeepSales(context.Background(), append(recs, site...)); err != nil {
			t.Fatal(err)
		}
		var dump []byte
		if s.postgres {
			// The test's schema, or with TEST_DATABASE_PER_TEST its own
			// database, whole.
			args := []string{"--data-only", dsn}
			if base, schema, ok := strings.Cut(dsn, "search_path="); ok {
				args = []string{"--data-only", "--schema=" + schema, strings.TrimRight(base, "?&")}
			}
			out, err := exec.Command("pg_dump", args...).CombinedOutput()
			if err != nil {
				t.Fatalf("pg_dump (apt install postgresql-client): %v: %s", err, out)
			}
			if !bytes.Contains(out, []byte("1450")) {
				t.Fatalf("the dump holds no sale: %s", out)
			}
			dump = out
		} else {
			files, _ := filepath.Glob(dsn + "*")
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				dump = append(dump, b...)
			}
			if !bytes.Contains(dump, []byte("The McpError field guide")) {
				t.Fatal("the files hold no sale")
			}
		}
		for _, v := range secrets {
			if bytes.Contains(bytes.ToLower(dump), bytes.ToLower([]byte(v))) {
				t.Errorf("the store holds %q", v)
			}
		}
	})
}

// column is every sale's value of a column in a Gumroad export.
func column(t *testing.T, csv []byte, name string) []string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
	header := strings.Split(strings.TrimSpace(lines[0]), ",")
	at := -1
	for i, h := range header {
		if h == name {
			at = i
		}
	}
	var out []string
	for _, l := range lines[1 : len(lines)-1] { // not the Totals row
		f := strings.Split(strings.TrimSpace(l), ",")
		if at < 0 || at >= len(f) || f[at] == "" {
			t.Fatalf("no %s in %q", name, l)
		}
		out = append(out, f[at])
	}
	return out
}
