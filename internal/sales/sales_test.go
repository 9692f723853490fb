package sales

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const wallet = "0x52908400098527886E0F7030069857D2E4169EE7"

// all reads the export in src whole, stopping at its first error.
func all(name, src string, o Options) (string, []Record, error) {
	kind, each, err := Read(name, strings.NewReader(src), o)
	if err != nil {
		return "", nil, err
	}
	var recs []Record
	err = each(func(r Record) error { recs = append(recs, r); return nil })
	return kind, recs, err
}

func fixture(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGumroadExport: of five sales over three days, the fully refunded
// one and the one whose dispute was lost are not kept, a won dispute is,
// and a partial refund lowers the amount.
func TestGumroadExport(t *testing.T) {
	kind, recs, err := all("gumroad-5-sales.csv", fixture(t, "gumroad-5-sales.csv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if kind != "Gumroad sales export" {
		t.Errorf("recognised as %q", kind)
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

// TestGumroadNotChargedYet: a pre-order's authorization and a free
// trial's start are rows of the export, but nothing was charged: the
// pre-order's charge on release day and the trial's first charge come as
// rows of their own, and the authorization leaves later exports. Kept,
// they would count each such sale twice, or one never paid.
func TestGumroadNotChargedYet(t *testing.T) {
	_, recs, err := all("gumroad-preorder-and-trial.csv", fixture(t, "gumroad-preorder-and-trial.csv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		day   string
		cents int64
		kept  bool
	}{
		{"2026-03-04", 1900, false}, // the pre-order authorized
		{"2026-03-05", 900, false},  // the free trial begun
		{"2026-03-20", 1900, true},  // the pre-order charged
		{"2026-03-12", 900, true},   // the trial's first charge
	}
	if len(recs) != len(want) {
		t.Fatalf("%d sales, want %d: %+v", len(recs), len(want), recs)
	}
	for i, w := range want {
		if r := recs[i]; r.Day != w.day || r.Cents != w.cents || r.Kept != w.kept {
			t.Errorf("sale %d: %+v, want %+v", i+1, r, w)
		}
	}
}

// TestExplorerExports: Blockscout's export (both headers) and Basescan's
// (both headers) of the same transfers give the same sales, keys and all:
// only USDC paid to the wallet, whatever the case of its address; not a
// transfer out, not DAI; a transaction paying in two transfers is one
// sale; amounts exact to the unit, days in UTC.
func TestExplorerExports(t *testing.T) {
	want := []struct {
		day   string
		cents int64
	}{
		{"2026-12-03", 1900},
		{"2026-12-03", 1900},   // 10 + 9 USDC in one transaction
		{"2026-12-04", 1450},   // 00:00:08 UTC
		{"2026-12-04", 123450}, // 1,234.5 USDC
	}
	var first []Record
	for _, tc := range []struct{ file, kind, wallet string }{
		{"blockscout-1d6172f.csv", "Blockscout token transfers", wallet},
		{"blockscout-v11.2.7.csv", "Blockscout token transfers", strings.ToLower(wallet)},
		{"basescan-txhash.csv", "Basescan token transfers", wallet},
		{"basescan-transaction-hash.csv", "Basescan token transfers", strings.ToLower(wallet)},
	} {
		kind, recs, err := all(tc.file, fixture(t, tc.file), Options{Wallet: tc.wallet, Product: "The McpError field guide"})
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if kind != tc.kind || len(recs) != len(want) {
			t.Fatalf("%s: %s, %d sales, want %s, %d: %+v", tc.file, kind, len(recs), tc.kind, len(want), recs)
		}
		if first == nil {
			first = recs
		}
		for i, w := range want {
			r := recs[i]
			if r.Day != w.day || r.Cents != w.cents || r.Channel != "site" || !r.Kept || r.Product != "The McpError field guide" {
				t.Errorf("%s: sale %d: %+v, want %+v", tc.file, i+1, r, w)
			}
			if r.Key != first[i].Key {
				t.Errorf("%s: sale %d has key %s, the first export's %s: overlapping exports would count it twice", tc.file, i+1, r.Key, first[i].Key)
			}
		}
	}
}

// TestCents: an amount as Gumroad writes it, Ruby's Float#to_s of a
// value rounded to the cent, is read exactly; anything else is refused.
func TestCents(t *testing.T) {
	for s, want := range map[string]int64{"19.0": 1900, "19": 1900, "4.5": 450, "19.99": 1999, "0.0": 0, "19.00": 1900, "1234567.05": 123456705} {
		if got, err := cents("Sale Price ($)", s); err != nil || got != want {
			t.Errorf("cents(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"19.+5", "-0.50", "+5", "", "19.", ".5", "1e3", "1.9e1", "19.505", "1,000.00", "19,5", "0x10", "١٩", "99999999999999999"} {
		if got, err := cents("Sale Price ($)", s); err == nil || !strings.Contains(err.Error(), `Sale Price ($) "`+s+`": want dollars`) {
			t.Errorf("cents(%q) = %d, %v; want it refused", s, got, err)
		}
	}
}

// TestGumroadTime: Ruby's Time#to_s, in UTC or at an offset, is read to
// its UTC day; a zone by name or another layout is refused.
func TestGumroadTime(t *testing.T) {
	for s, day := range map[string]string{
		"2026-03-01 14:05:09 UTC":   "2026-03-01",
		"2026-03-01 19:00:01 -0500": "2026-03-02",
		"2026-03-02 00:30:00 +0100": "2026-03-01",
	} {
		if at, err := gumroadTime(s); err != nil || at.UTC().Format(time.DateOnly) != day {
			t.Errorf("gumroadTime(%q) = %v, %v; want the UTC day %s", s, at, err, day)
		}
	}
	for _, s := range []string{"2026-03-01 09:15:00 PST", "2026-03-01T14:05:09Z", "2026-03-01", "", "1772355600"} {
		if at, err := gumroadTime(s); err == nil {
			t.Errorf("gumroadTime(%q) = %v; want it refused", s, at)
		}
	}
}

// TestExplorerCells: each explorer's amount and time as it writes them,
// and what it does not write refused.
func TestExplorerCells(t *testing.T) {
	at := time.Date(2026, 12, 3, 9, 15, 0, 0, time.UTC)
	for _, tc := range []struct {
		read  func(func(string) string) (int64, time.Time, error)
		cells map[string]string
		units int64  // when read
		err   string // when refused
	}{
		{blockscout, map[string]string{"TokenDecimals": "6", "TokensTransferred": "19000000", "UnixTimestamp": "2026-12-03 09:15:00.000000Z"}, 19000000, ""},
		{blockscout, map[string]string{"TokenDecimals": "6", "TokensTransferred": "1", "UnixTimestamp": "2026-12-03 09:15:00Z"}, 1, ""},
		{blockscout, map[string]string{"TokenDecimals": "6", "TokensTransferred": "19000000", "UnixTimestamp": "1796289300"}, 0, `UnixTimestamp "1796289300": want a block time`},
		{blockscout, map[string]string{"TokenDecimals": "6", "TokensTransferred": "19000000", "UnixTimestamp": "2026-12-03 09:15:00.000000"}, 0, "want a block time"},
		{blockscout, map[string]string{"TokenDecimals": "18", "TokensTransferred": "19000000", "UnixTimestamp": "2026-12-03 09:15:00Z"}, 0, `TokenDecimals "18": USDC has 6`},
		{blockscout, map[string]string{"TokenDecimals": "6", "TokensTransferred": "1.9E+7", "UnixTimestamp": "2026-12-03 09:15:00Z"}, 0, `TokensTransferred "1.9E+7"`},
		{blockscout, map[string]string{"TokenDecimals": "6", "TokensTransferred": "-19000000", "UnixTimestamp": "2026-12-03 09:15:00Z"}, 0, `TokensTransferred "-19000000"`},
		{basescan, map[string]string{"TokenValue": "19", "UnixTimestamp": "1796289300"}, 19000000, ""},
		{basescan, map[string]string{"TokenValue": "1,234.5", "UnixTimestamp": "1796289300"}, 1234500000, ""},
		{basescan, map[string]string{"TokenValue": "1,000,000.000001", "UnixTimestamp": "1796289300"}, 1000000000001, ""},
		{basescan, map[string]string{"TokenValue": "0.000001", "UnixTimestamp": "1796289300"}, 1, ""},
		{basescan, map[string]string{"TokenValue": "0.0000001", "UnixTimestamp": "1796289300"}, 0, `TokenValue "0.0000001"`},
		{basescan, map[string]string{"TokenValue": "19,5", "UnixTimestamp": "1796289300"}, 0, `TokenValue "19,5"`},
		{basescan, map[string]string{"TokenValue": "1234.5", "UnixTimestamp": "1796289300"}, 0, `TokenValue "1234.5"`},
		{basescan, map[string]string{"TokenValue": "-19", "UnixTimestamp": "1796289300"}, 0, `TokenValue "-19"`},
		{basescan, map[string]string{"TokenValue": "19", "UnixTimestamp": "2026-12-03 09:15:00"}, 0, `UnixTimestamp "2026-12-03 09:15:00": want seconds`},
	} {
		units, got, err := tc.read(func(c string) string { return tc.cells[c] })
		switch {
		case tc.err == "" && (err != nil || units != tc.units || !got.Equal(at)):
			t.Errorf("%v: %d units at %v, %v; want %d at %v", tc.cells, units, got, err, tc.units, at)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%v: %v; want an error with %q", tc.cells, err, tc.err)
		}
	}
}

// TestRefused: a file that is neither export, or one cut short or
// damaged, or an explorer export without the wallet, is an error that
// says where and what to do; a damaged row ends the sales at its line.
func TestRefused(t *testing.T) {
	gumroad := fixture(t, "gumroad-5-sales.csv")
	lines := strings.SplitAfter(gumroad, "\n")
	blockscout, basescan := fixture(t, "blockscout-v11.2.7.csv"), fixture(t, "basescan-txhash.csv")
	o := Options{Wallet: wallet, Product: "p"}
	for _, tc := range []struct {
		name, src string
		o         Options
		want      string
	}{
		{"events", `{"ts":"2026-03-01T00:00:00Z","name":"view"}` + "\n", Options{}, `f.csv: not a CSV export (parse error on line 1, column 2: bare " in non-quoted-field): want Gumroad's sales export`},
		{"other csv", "Date,Amount\n2026-03-01,19\n", Options{}, `"Date,Amount" is neither export: want Gumroad's sales export (columns Purchase ID,`},
		{"a column short", strings.Replace(blockscout, "TokensTransferred", "Amount", 1), o, "Blockscout's token transfers (columns TxHash,ToAddress,TokenContractAddress,UnixTimestamp,TokenDecimals,TokensTransferred, ...) or Basescan's (columns Txhash,To,ContractAddress,UnixTimestamp,TokenValue, ..., the first also named Transaction Hash)"},
		{"empty", "", Options{}, "empty: want Gumroad's"},
		{"no totals", strings.Join(lines[:3], ""), Options{}, "no Totals row"},
		{"after totals", gumroad + lines[1], Options{}, ":8: a row after the Totals row of line 7"},
		{"bad amount", strings.Replace(gumroad, ",4.5,", ",4.505,", 1), Options{}, `f.csv:4: Partial Refund ($) "4.505": want dollars with at most two decimals`},
		// Gumroad writes each flag 0 or 1: an empty Fully Refunded? would keep a refunded sale.
		{"a flag left empty", strings.Replace(gumroad, ",direct,1,0.0,1,0,", ",direct,1,0.0,,0,", 1), Options{}, `f.csv:3: Fully Refunded? is "": want 0 or 1`},
		{"a zone by name", strings.Replace(gumroad, "2026-03-01 09:15:00 UTC", "2026-03-01 09:15:00 PST", 1), Options{}, `f.csv:2: Purchase Time (UTC timezone) "2026-03-01 09:15:00 PST"`},
		// A row one cell short would be read a column off: $19.00 as the fees' $2.37.
		{"a cell short", strings.Replace(gumroad, "19.0,0.0,,0.0,19.0,2.37,", "19.0,0.0,,0.0,2.37,", 1), Options{}, "f.csv:2: 71 cells where the header has 72: the row is damaged"},
		// Excel on Windows saves "CSV (Comma delimited)" in Windows-1252: a
		// product named with a dash was kept as another product, off its page's row.
		{"saved by Excel in Windows-1252", strings.Replace(gumroad, "The McpError field guide,Bram", "The McpError field guide \x96 2nd,Bram", 1), Options{}, "f.csv:3: not UTF-8"},
		// Blockscout writes ok or error: an empty Status could be a failed transfer counted as a sale.
		{"a Blockscout status left empty", strings.Replace(blockscout, ",ok,", ",,", 1), o, `f.csv:2: Status "": want ok or error`},
		{"a Blockscout row a cell short", strings.Replace(blockscout, ",IN,6,USDC,", ",IN,6,", 1), o, "f.csv:2: 12 cells where the header has 13"},
		{"a Basescan row a cell long", strings.Replace(basescan, `"USD Coin"`, `"USD Coin","x"`, 1), o, "f.csv:2: 12 cells where the header has 11"},
		{"no wallet", blockscout, Options{Product: "p"}, "set wallet_address in site.toml"},
		{"no product", basescan, Options{Wallet: wallet}, "give -product"},
		// A wallet a digit off: none of the file's transfers is to it.
		{"another wallet, Blockscout", blockscout, Options{Wallet: wallet[:41] + "8", Product: "p"}, "f.csv: none of its 7 transfers is of USDC to the wallet " + wallet[:41] + "8: check -wallet"},
		{"another wallet, Basescan", basescan, Options{Wallet: wallet[:41] + "8", Product: "p"}, "f.csv: none of its 7 transfers is of USDC to the wallet " + wallet[:41] + "8: check -wallet"},
	} {
		_, recs, err := all("f.csv", tc.src, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, %v; want an error with %q", tc.name, recs, err, tc.want)
		}
	}
}

// TestAFailedTransferIsNoSale: a transfer whose transaction Blockscout
// marks failed is not a sale.
func TestAFailedTransferIsNoSale(t *testing.T) {
	src := fixture(t, "blockscout-v11.2.7.csv")
	failed := strings.Replace(src, "1843022400000,ok,", "1843022400000,error,Reverted", 1)
	_, recs, err := all("f.csv", failed, Options{Wallet: wallet, Product: "p"})
	if err != nil || len(recs) != 3 || recs[0].Day != "2026-12-03" || recs[0].Cents != 1900 {
		t.Errorf("%+v, %v: want 3 sales, the first of 10 + 9 USDC", recs, err)
	}
}

// unread fails the test that reads it.
type unread struct{ t *testing.T }

func (u unread) Read([]byte) (int, error) {
	u.t.Error("the export was read")
	return 0, io.EOF
}

// TestAMalformedWalletIsRefusedBeforeReading: an address a digit short,
// or a URL, is no wallet; the export is not read.
func TestAMalformedWalletIsRefusedBeforeReading(t *testing.T) {
	for _, w := range []string{wallet[:41], "52908400098527886E0F7030069857D2E4169EE7", "0x52908400098527886E0F7030069857D2E4169EEG", "https://basescan.org/address/" + wallet} {
		if _, _, err := Read("f.csv", unread{t}, Options{Wallet: w, Product: "p"}); err == nil || !strings.Contains(err.Error(), "the wallet "+strconv.Quote(w)+" is not an address: want 0x and 40 hex digits") {
			t.Errorf("%s: %v", w, err)
		}
	}
}

// TestADustTransferIsNoSale: anyone may send the wallet USDC for the price
// of the gas, and address poisoners do, in transfers of 0 or a few units
// from addresses that look like a buyer's; none of them is a sale.
func TestADustTransferIsNoSale(t *testing.T) {
	src := fixture(t, "blockscout-v11.2.7.csv")
	for i, units := range []string{"0", "1", "4999"} {
		src += fmt.Sprintf("0x%064x,54800100,2026-12-04 16:00:00.000000Z,0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed,%s,0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913,IN,6,USDC,%s,1988102700000,ok,\n", i+1, wallet, units)
	}
	_, recs, err := all("f.csv", src, Options{Wallet: wallet, Product: "p"})
	kept := 0
	for _, r := range recs {
		if r.Kept {
			kept++
		}
	}
	if err != nil || kept != 4 {
		t.Errorf("%+v, %v: want the fixture's 4 sales kept, and none of the transfers of 0, 1 and 4,999 units", recs, err)
	}
}
