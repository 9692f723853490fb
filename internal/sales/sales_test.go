package sales

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const wallet = "0x52908400098527886E0F7030069857D2E4169EE7"

func read(t *testing.T, file string, o Options) (string, []Record, error) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return Read(file, f, o)
}

// TestGumroadExport: of five sales over three days, the fully refunded
// one and the one whose dispute was lost are not kept, a won dispute is,
// and a partial refund lowers the amount.
func TestGumroadExport(t *testing.T) {
	kind, recs, err := read(t, "gumroad-5-sales.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if kind != "Gumroad sales export" {
		t.Errorf("recognised as %q", kind)
	}
	// Ruby's Time#to_s writes an offset where the zone is not UTC.
	b, _ := os.ReadFile("testdata/gumroad-5-sales.csv")
	_, shifted, err := Read("f.csv", strings.NewReader(strings.Replace(string(b), "2026-03-02 00:00:01 UTC", "2026-03-01 19:00:01 -0500", 1)), Options{})
	if err != nil || shifted[2].Day != "2026-03-02" {
		t.Errorf("a time at -0500: %+v, %v; want the UTC day 2026-03-02", shifted, err)
	}
	want := []struct {
		day   string
		cents int64
		kept  bool
	}{
		{"2026-03-01", 1900, true},
		{"2026-03-01", 1900, false}, // fully refunded
		{"2026-03-02", 1450, true},  // 4.50 refunded
		{"2026-03-02", 1900, false}, // dispute lost
		{"2026-03-03", 1900, true},  // dispute won
	}
	if len(recs) != len(want) {
		t.Fatalf("%d sales, want %d: %+v", len(recs), len(want), recs)
	}
	keys := map[string]bool{}
	for i, w := range want {
		r := recs[i]
		if r.Day != w.day || r.Cents != w.cents || r.Kept != w.kept || r.Channel != "gumroad" || r.Product != "The McpError field guide" {
			t.Errorf("sale %d: %+v, want %+v", i+1, r, w)
		}
		if len(r.Key) != 64 || strings.Contains(r.Key, "PUrchAseId") || keys[r.Key] {
			t.Errorf("sale %d: key %q: want a SHA-256 of its own", i+1, r.Key)
		}
		keys[r.Key] = true
	}
}

// TestExplorerExport: only USDC transfers to the wallet count, whatever
// the case of its address: not one out of it, not another token, not one
// to another address, not a failed transaction.
func TestExplorerExport(t *testing.T) {
	for _, w := range []string{wallet, strings.ToLower(wallet)} {
		kind, recs, err := read(t, "blockscout-transfers.csv", Options{Wallet: w, Product: "The McpError field guide"})
		if err != nil {
			t.Fatal(err)
		}
		if kind != "block explorer token transfers" || len(recs) != 2 {
			t.Fatalf("%s: %d sales, want 2: %+v", kind, len(recs), recs)
		}
		for _, r := range recs {
			if r.Cents != 1900 || r.Channel != "site" || !r.Kept {
				t.Errorf("%+v: want 1900 cents, site, kept", r)
			}
		}
		if recs[0].Day != "2026-03-01" || recs[1].Day != "2026-03-02" {
			t.Errorf("days %s, %s: want 2026-03-01, 2026-03-02", recs[0].Day, recs[1].Day)
		}
	}
}

// TestRefused: a file that is neither export, or one cut short, or an
// explorer export without the wallet, is an error that says what to do.
func TestRefused(t *testing.T) {
	gumroad, _ := os.ReadFile("testdata/gumroad-5-sales.csv")
	lines := strings.SplitAfter(string(gumroad), "\n")
	for _, tc := range []struct {
		name, src string
		o         Options
		want      string
	}{
		{"events", `{"ts":"2026-03-01T00:00:00Z","name":"view"}` + "\n", Options{}, `the header "{\"ts\":\"2026-03-01T00:00:00Z\"` + "`"},
		{"other csv", "Date,Amount\n2026-03-01,19\n", Options{}, `"Date,Amount" is neither export: want Gumroad's sales export (columns Purchase ID,`},
		{"empty", "", Options{}, "empty: want Gumroad's"},
		{"no totals", strings.Join(lines[:3], ""), Options{}, "no Totals row"},
		{"after totals", string(gumroad) + lines[1], Options{}, ":8: a row after the Totals row of line 7"},
		{"bad amount", strings.Replace(string(gumroad), ",4.5,", ",4.505,", 1), Options{}, `:4: Partial Refund ($) "4.505": more than two decimals`},
		{"a zone by name", strings.Replace(string(gumroad), "2026-03-01 09:15:00 UTC", "2026-03-01 09:15:00 PST", 1), Options{}, `:2: Purchase Time (UTC timezone) "2026-03-01 09:15:00 PST"`},
		{"no wallet", "TxHash,UnixTimestamp,ToAddress,TokenContractAddress,TokenDecimals,TokensTransferred\n", Options{Product: "p"}, "set wallet_address in site.toml"},
		{"no product", "TxHash,UnixTimestamp,ToAddress,TokenContractAddress,TokenDecimals,TokensTransferred\n", Options{Wallet: wallet}, "give -product"},
	} {
		_, recs, err := Read("f.csv", strings.NewReader(tc.src), tc.o)
		if err == nil || !strings.Contains(err.Error(), strings.TrimSuffix(tc.want, "`")) {
			t.Errorf("%s: %v, %v; want an error with %q", tc.name, recs, err, tc.want)
		}
	}
}
