package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestASalesExportBesideTheFunnel: on a fresh folder, a Gumroad export of
// five sales over three days (one fully refunded, one dispute lost, one
// partly refunded), taken twice, shows three sales and their revenue by
// day beside the funnel, in text and -json.
func TestASalesExportBesideTheFunnel(t *testing.T) {
	dir := t.TempDir()
	export, err := filepath.Abs("../../internal/sales/testdata/gumroad-5-sales.csv")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"5 sales added, 0 changed since an earlier import, 0 taken before", "0 sales added, 0 changed since an earlier import, 5 taken before"} {
		code, _, errs := runReport(t, dir, nil, "-import-sales", export)
		if code != 0 || !strings.Contains(errs, want) || !strings.Contains(errs, "Gumroad sales export, 5 sales, 3 kept ($52.50)") {
			t.Errorf("import %d: exit %d, %s", i+1, code, errs)
		}
	}
	code, out, errs := runReport(t, dir, nil, "-from", "2026-03-01", "-to", "2026-03-03")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"  gumroad                0      3                         -   $52.50",
		"sales 3 (-); revenue $52.50",
		"2026-03-01      0                 0        0       0                0      1   $19.00",
		"2026-03-02      0                 0        0       0                0      1   $14.50",
		"2026-03-03      0                 0        0       0                0      1   $19.00",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	code, out, errs = runReport(t, dir, nil, "-from", "2026-03-01", "-to", "2026-03-03", "-json")
	if code != 0 {
		t.Fatalf("-json: exit %d: %s", code, errs)
	}
	var r struct {
		SiteWide struct {
			Sales struct {
				Channels []struct {
					Channel      string `json:"channel"`
					Sales        int    `json:"sales"`
					RevenueCents int64  `json:"revenue_cents"`
				} `json:"channels"`
			} `json:"sales"`
		} `json:"site_wide"`
		Days []struct {
			Day          string `json:"day"`
			Sales        *int   `json:"sales"`
			RevenueCents *int64 `json:"revenue_cents"`
		} `json:"days"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	all := r.SiteWide.Sales.Channels[len(r.SiteWide.Sales.Channels)-1]
	if all.Channel != "all" || all.Sales != 3 || all.RevenueCents != 5250 || len(r.Days) != 3 {
		t.Fatalf("-json: %+v", r)
	}
	for i, cents := range []int64{1900, 1450, 1900} {
		if d := r.Days[i]; d.Sales == nil || *d.Sales != 1 || *d.RevenueCents != cents {
			t.Errorf("-json: day %d: %+v, want 1 sale of %d cents", i, d, cents)
		}
	}
}

// TestAnExplorerExportCountsOnlyUSDCToTheWallet: of six transfers, the two
// USDC transfers into the wallet are sales; not one out, not DAI, not one
// to another address, not a failed one.
func TestAnExplorerExportCountsOnlyUSDCToTheWallet(t *testing.T) {
	dir := t.TempDir()
	export, _ := filepath.Abs("../../internal/sales/testdata/blockscout-transfers.csv")
	code, _, errs := runReport(t, dir, []string{"SITE_WALLET_ADDRESS=0x52908400098527886E0F7030069857D2E4169EE7"}, "-import-sales", export, "-product", "guide")
	if code != 0 || !strings.Contains(errs, "block explorer token transfers, 2 sales, 2 kept ($38.00)") {
		t.Errorf("exit %d: %s", code, errs)
	}
	code, _, errs = runReport(t, dir, nil, "-import-sales", export, "-product", "guide")
	if code != 1 || !strings.Contains(errs, "set wallet_address in site.toml") {
		t.Errorf("without a wallet: exit %d: %s", code, errs)
	}
}

// TestAnyOtherFileIsRefused names the header it found and those expected.
func TestAnyOtherFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "orders.csv")
	os.WriteFile(f, []byte("Order,Total\n1,19\n"), 0o644)
	code, _, errs := runReport(t, dir, nil, "-import-sales", f)
	if code != 1 || !strings.Contains(errs, `the header "Order,Total" is neither export: want Gumroad's sales export (columns Purchase ID,`) {
		t.Errorf("exit %d: %s", code, errs)
	}
	if exists(filepath.Join(dir, "events.db")) {
		t.Error("a refused export made a store")
	}
}

// TestAFreshSiteHasNoEventsYet: the report on a folder with nothing
// recorded says so and what to do, and exits 0, as it does on a store
// that holds nothing; a mistyped -db is still an error.
func TestAFreshSiteHasNoEventsYet(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runReport(t, dir, nil)
	if code != 0 || !strings.Contains(out, "No events yet in events.db: nothing has been recorded. Start the preview (go run ./cmd/build -serve)") {
		t.Errorf("a fresh folder: exit %d, %q, %q", code, out, errs)
	}
	if exists(filepath.Join(dir, "events.db")) {
		t.Error("the report made a store")
	}
	if code, _, errs := runReport(t, dir, nil, "-migrate"); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs = runReport(t, dir, nil)
	if code != 0 || !strings.Contains(out, "No events yet in") {
		t.Errorf("an empty store: exit %d, %q, %q", code, out, errs)
	}
	if code, _, errs := runReport(t, dir, nil, "-db", "evnets.db"); code != 1 || !strings.Contains(errs, "no such store") {
		t.Errorf("a mistyped -db: exit %d, %q", code, errs)
	}
}

// TestEachClickWithItsPage: a click event carries only its name; the
// report names the content file whose page has its control, and says so
// when no page has it now.
func TestEachClickWithItsPage(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "content", "guides"), 0o755)
	os.WriteFile(filepath.Join(dir, "content", "index.md"), []byte("+++\ntitle = \"x\"\n+++\n```python copy=copy-sketch\nx = 1\n```\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "content", "guides", "b.md"), []byte("+++\ntitle = \"y\"\n+++\n~~~go copy=\"copy-main\" label=\"Copy\"\nx := 1\n~~~\n"), 0o644)
	log := filepath.Join(dir, "log.jsonl")
	now := time.Now().UTC().Format(time.RFC3339)
	var lines string
	for _, name := range []string{"copy-sketch", "copy-main", "copy-gone"} {
		lines += `{"ts":"` + now + `","stored":false,"name":"` + name + `"}` + "\n"
	}
	os.WriteFile(log, []byte(lines), 0o644)
	if code, _, errs := runReport(t, dir, nil, "-import", log); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := runReport(t, dir, nil, "-since", "1d")
	if code != 0 {
		t.Fatal(errs)
	}
	for _, want := range []string{"click copy-sketch on content/index.md ", "click copy-main on content/guides/b.md ", "click copy-gone on no page now "} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

// TestAGuideOnItsPagesRow: a product that one page names as its guide has
// its sales on that page's row; one that two pages name, on neither.
func TestAGuideOnItsPagesRow(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "content"), 0o755)
	// index.md and b.md take site.toml's guide: two pages, so neither row.
	os.WriteFile(filepath.Join(dir, "site.toml"), []byte("guide = \"Other guide\"\n"), 0o644)
	for name, fm := range map[string]string{
		"pay.md":   "guide = \"The McpError field guide\"\nurl = \"/buy/\"",
		"index.md": "",
		"b.md":     "",
	} {
		os.WriteFile(filepath.Join(dir, "content", name), []byte("+++\ntitle = \"x\"\ndescription = \"d\"\n"+fm+"\n+++\nText.\n"), 0o644)
	}
	var lines string
	for _, path := range []string{"/buy/", "/", "/b/"} {
		lines += `{"ts":"2026-03-01T10:00:00Z","stored":false,"name":"view","path":"` + path + `","visible_ms":0,"scrolled":false}` + "\n"
	}
	log := filepath.Join(dir, "log.jsonl")
	os.WriteFile(log, []byte(lines), 0o644)
	export, _ := filepath.Abs("../../internal/sales/testdata/gumroad-5-sales.csv")
	for _, args := range [][]string{{"-import", log}, {"-import-sales", export}} {
		if code, _, errs := runReport(t, dir, nil, args...); code != 0 {
			t.Fatal(errs)
		}
	}
	code, out, errs := runReport(t, dir, nil, "-from", "2026-03-01", "-to", "2026-03-03")
	if code != 0 {
		t.Fatal(errs)
	}
	if !strings.Contains(out, `/buy/  "The McpError field guide"      3   $52.50`) || strings.Contains(out, `"Other guide"`) {
		t.Errorf("the guides' rows:\n%s", out)
	}
}

// TestGuidesArePlacedAsTheBuildPlacesPages: a section's index page is at
// /DIR/, as the build writes it, so its guide's sales land on that row.
func TestGuidesArePlacedAsTheBuildPlacesPages(t *testing.T) {
	dir := t.TempDir()
	for name, guide := range map[string]string{"index.md": "Home guide", "mcp/index.md": "Section guide", "mcp/mcperror.md": "Page guide"} {
		p := filepath.Join(dir, "content", filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("+++\ntitle = \"x\"\ndescription = \"d\"\nguide = \""+guide+"\"\n+++\nText.\n"), 0o644)
	}
	_, guides, err := readSite(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"/": "Home guide", "/mcp/": "Section guide", "/mcp/mcperror/": "Page guide"}
	if !maps.Equal(guides, want) {
		t.Errorf("guides %v, want %v", guides, want)
	}
}
