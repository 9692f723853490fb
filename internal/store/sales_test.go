package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"errref/internal/sales"
	"errref/internal/tally"
)

// gumroadFixture is the five sales of the sales package's fixture: over
// three days, one fully refunded, one dispute lost, one partly refunded.
func gumroadFixture(t *testing.T) ([]sales.Record, []byte) {
	t.Helper()
	return salesOf(t, "gumroad-5-sales.csv", sales.Options{})
}

// salesOf reads the sales package's fixture file whole.
func salesOf(t *testing.T, file string, o sales.Options) ([]sales.Record, []byte) {
	t.Helper()
	b, err := os.ReadFile("../sales/testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	_, each, err := sales.Read(file, bytes.NewReader(b), o)
	if err != nil {
		t.Fatal(err)
	}
	var recs []sales.Record
	if err := each(func(r sales.Record) error { recs = append(recs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return recs, b
}

// seq hands keep recs, as the each of sales.Read does an export's.
func seq(recs ...sales.Record) func(keep func(sales.Record) error) error {
	return func(keep func(sales.Record) error) error {
		for _, r := range recs {
			if err := keep(r); err != nil {
				return err
			}
		}
		return nil
	}
}

// TestSalesTakenOnce: an export taken twice counts each sale once; a
// later export that shows a refund changes the sale; only kept sales are
// read, by day.
func TestSalesTakenOnce(t *testing.T) {
	recs, _ := gumroadFixture(t)
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		ctx := context.Background()
		for i, want := range []SalesResult{{Added: 5, Kept: 3, Cents: 5250}, {Again: 5, Kept: 3, Cents: 5250}} {
			if got, err := s.KeepSales(ctx, seq(recs...)); err != nil || got != want {
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
		if res, err := s.KeepSales(ctx, seq(later[:2]...)); err != nil || res != (SalesResult{Changed: 1, Again: 1}) {
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
	site, transfers := salesOf(t, "blockscout-1d6172f.csv", sales.Options{Wallet: "0x52908400098527886E0F7030069857D2E4169EE7", Product: "guide"})
	for _, l := range strings.Split(string(transfers), "\r\n")[1:] {
		if cells := strings.Split(l, ","); len(cells) > 4 {
			secrets = append(secrets, cells[0], cells[3]) // the hash, the sender
		}
	}
	if len(site) != 4 || len(secrets) != 45+14 {
		t.Fatalf("%d sales, %d values to look for", len(site), len(secrets))
	}
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		if _, err := s.KeepSales(context.Background(), seq(append(recs, site...)...)); err != nil {
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

// TestOverlappingExportsCountEachTransferOnce: Blockscout's export and
// Basescan's (both forms) of the same transfers, taken one after the
// other, add each sale once.
func TestOverlappingExportsCountEachTransferOnce(t *testing.T) {
	o := sales.Options{Wallet: "0x52908400098527886E0F7030069857D2E4169EE7", Product: "guide"}
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		ctx := context.Background()
		for _, tc := range []struct {
			file string
			want SalesResult
		}{
			{"blockscout-1d6172f.csv", SalesResult{Added: 4, Kept: 4, Cents: 128700}},
			{"basescan-txhash.csv", SalesResult{Again: 4, Kept: 4, Cents: 128700}},
			{"basescan-transaction-hash.csv", SalesResult{Again: 4, Kept: 4, Cents: 128700}},
			{"blockscout-v11.2.7.csv", SalesResult{Again: 4, Kept: 4, Cents: 128700}},
		} {
			recs, _ := salesOf(t, tc.file, o)
			if got, err := s.KeepSales(ctx, seq(recs...)); err != nil || got != tc.want {
				t.Errorf("%s: %+v, %v; want %+v", tc.file, got, err, tc.want)
			}
		}
		got, err := s.Sales(ctx, "2026-12-01", "2026-12-31")
		want := []tally.Sale{{Day: "2026-12-03", Channel: "site", Product: "guide", N: 2, Cents: 3800}, {Day: "2026-12-04", Channel: "site", Product: "guide", N: 2, Cents: 124900}}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("sales: %+v, %v; want %+v", got, err, want)
		}
	})
}

// TestADustSaleAnOlderReleaseKeptIsNoSale: releases up to 5413124 kept a
// transfer of under half a cent to the wallet (address poisoning) as a sale
// of $0.00, and this release, taking the same export, passes it over: the
// row stays, and the report counted it among the sales.
func TestADustSaleAnOlderReleaseKeptIsNoSale(t *testing.T) {
	recs, _ := salesOf(t, "blockscout-v11.2.7.csv", sales.Options{Wallet: "0x52908400098527886E0F7030069857D2E4169EE7", Product: "guide"})
	dust := sales.Record{Key: strings.Repeat("d", 64), Day: "2026-12-04", Channel: "site", Product: "guide", Kept: true} // as 5413124 kept it
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		ctx := context.Background()
		if _, err := s.KeepSales(ctx, seq(append(recs, dust)...)); err != nil {
			t.Fatal(err)
		}
		got, err := s.Sales(ctx, "2026-12-01", "2026-12-31")
		want := []tally.Sale{{Day: "2026-12-03", Channel: "site", Product: "guide", N: 2, Cents: 3800}, {Day: "2026-12-04", Channel: "site", Product: "guide", N: 2, Cents: 124900}}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("sales: %+v, %v; want %+v, without the $0.00 one", got, err, want)
		}
	})
}

// TestADustSaleAnOlderReleaseKeptIsNoneOnTakenAgain: the report of
// 5413124, still deployed while this release is taken up, counts every row
// kept = 1, a transfer that rounds to $0.00 among them as that release kept
// it; taking the same export again with this release makes it none for both.
func TestADustSaleAnOlderReleaseKeptIsNoneOnTakenAgain(t *testing.T) {
	tx := "0x" + strings.Repeat("d", 64)
	b, err := os.ReadFile("../sales/testdata/blockscout-v11.2.7.csv")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, tx+",54800100,2026-12-04 16:00:00.000000Z,0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed,0x52908400098527886E0F7030069857D2E4169EE7,0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913,IN,6,USDC,1,1988102700000,ok,\n"...)
	sum := sha256.Sum256([]byte("site\n" + tx))
	old := sales.Record{Key: hex.EncodeToString(sum[:]), Day: "2026-12-04", Channel: "site", Product: "guide", Kept: true} // as 5413124 kept it
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		ctx := context.Background()
		if _, err := s.KeepSales(ctx, seq(old)); err != nil {
			t.Fatal(err)
		}
		_, export, err := sales.Read("export.csv", bytes.NewReader(b), sales.Options{Wallet: "0x52908400098527886E0F7030069857D2E4169EE7", Product: "guide"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.KeepSales(ctx, export); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sales WHERE kept = 1`).Scan(&n); err != nil || n != 4 {
			t.Errorf("%d sales kept, %v; want the export's 4, the $0.00 one no longer", n, err)
		}
	})
}

// TestAnExportRefusedMidwayStoresNothing: an error after some sales, a
// row refused at its line, leaves the store as it was.
func TestAnExportRefusedMidwayStoresNothing(t *testing.T) {
	recs, _ := gumroadFixture(t)
	refused := errors.New("f.csv:4: 71 cells where the header has 72")
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		ctx := context.Background()
		_, err := s.KeepSales(ctx, func(keep func(sales.Record) error) error {
			if err := seq(recs[:2]...)(keep); err != nil {
				return err
			}
			return refused
		})
		if !errors.Is(err, refused) {
			t.Errorf("KeepSales: %v, want the row's error", err)
		}
		if got, err := s.Sales(ctx, "2026-03-01", "2026-03-31"); err != nil || len(got) != 0 {
			t.Errorf("after a refused export the store holds %+v (%v)", got, err)
		}
	})
}

// TestAnOlderExportTakenAfterANewerUndoesNoRefund: exports overlap and may be
// taken in any order (a loop over a folder of them goes by name): one from before a
// refund or a dispute, taken after one that shows it, leaves the sale refunded;
// a dispute won since still brings it back.
func TestAnOlderExportTakenAfterANewerUndoesNoRefund(t *testing.T) {
	older, _ := gumroadFixture(t)
	older = older[:1]
	refunded, partly, disputed, won := older[0], older[0], older[0], older[0]
	refunded.Kept = false
	partly.Cents -= 450
	disputed.Kept = false
	won.Won = true
	part, whole := older[0], older[0] // a transaction of two transfers, in an export that holds one
	part.Channel, whole.Channel, part.Cents = "site", "site", 950
	for _, c := range []struct {
		name        string
		newer, then sales.Record
		want        []tally.Sale
	}{
		{"fully refunded", refunded, older[0], nil},
		{"partly refunded", partly, older[0], []tally.Sale{{Day: "2026-03-01", Channel: "gumroad", Product: "The McpError field guide", N: 1, Cents: 1450}}},
		{"disputed", disputed, older[0], nil},
		{"dispute won since", disputed, won, []tally.Sale{{Day: "2026-03-01", Channel: "gumroad", Product: "The McpError field guide", N: 1, Cents: 1900}}},
		{"a transfer's whole transaction", part, whole, []tally.Sale{{Day: "2026-03-01", Channel: "site", Product: "The McpError field guide", N: 1, Cents: 1900}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			each(t, func(t *testing.T, dsn string) {
				s := open(t, dsn)
				ctx := context.Background()
				for _, r := range []sales.Record{c.newer, c.then} {
					if _, err := s.KeepSales(ctx, seq(r)); err != nil {
						t.Fatal(err)
					}
				}
				if got, err := s.Sales(ctx, "2026-03-01", "2026-03-31"); err != nil || !slices.Equal(got, c.want) {
					t.Errorf("sales: %+v, %v; want %+v", got, err, c.want)
				}
			})
		})
	}
}
