package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"errref/internal/report"
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

// TestExplorerExportsCountEachTransferOnce: of seven transfers, the USDC
// paid into the wallet in four transactions are four sales; Basescan's
// export of the same transfers, taken after Blockscout's, adds none.
func TestExplorerExportsCountEachTransferOnce(t *testing.T) {
	dir := t.TempDir()
	wallet := []string{"SITE_WALLET_ADDRESS=0x52908400098527886E0F7030069857D2E4169EE7"}
	for _, tc := range []struct{ file, want string }{
		{"blockscout-1d6172f.csv", "Blockscout token transfers, 4 sales, 4 kept ($1,287.00)"},
		{"basescan-txhash.csv", "Basescan token transfers, 4 sales, 4 kept ($1,287.00)"},
	} {
		export, _ := filepath.Abs("../../internal/sales/testdata/" + tc.file)
		code, _, errs := runReport(t, dir, wallet, "-import-sales", export, "-product", "guide")
		if code != 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d: %s", tc.file, code, errs)
		}
		if tc.file == "basescan-txhash.csv" && !strings.Contains(errs, "0 sales added, 0 changed since an earlier import, 4 taken before") {
			t.Errorf("%s after Blockscout's: %s", tc.file, errs)
		}
	}
	export, _ := filepath.Abs("../../internal/sales/testdata/basescan-txhash.csv")
	code, _, errs := runReport(t, dir, nil, "-import-sales", export, "-product", "guide")
	if code != 1 || !strings.Contains(errs, "set wallet_address in site.toml") {
		t.Errorf("without a wallet: exit %d: %s", code, errs)
	}
}

// TestAWrongWalletFailsLoudly: a wallet a digit off, in site.toml or
// -wallet, is paid by none of the export's seven transfers: exit 1, naming
// the wallet and the count, and no sale stored, where "0 sales" would hide
// every USDC sale; a malformed -wallet is refused before the file is read.
func TestAWrongWalletFailsLoudly(t *testing.T) {
	dir := t.TempDir()
	export, _ := filepath.Abs("../../internal/sales/testdata/blockscout-1d6172f.csv")
	typo := "0x52908400098527886E0F7030069857D2E4169EE8"
	os.WriteFile(filepath.Join(dir, "site.toml"), []byte("wallet_address = \""+typo+"\"\n"), 0o644)
	for _, args := range [][]string{nil, {"-wallet", strings.ToLower(typo)}} {
		code, _, errs := runReport(t, dir, nil, append([]string{"-import-sales", export, "-product", "guide"}, args...)...)
		if code != 1 || !strings.Contains(strings.ToLower(errs), "none of its 7 transfers is of usdc to the wallet "+strings.ToLower(typo)) || !strings.Contains(errs, "nothing of it was stored") {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
	code, out, errs := runReport(t, dir, nil, "-from", "2026-12-03", "-to", "2026-12-04", "-json")
	if code != 0 || !strings.Contains(out, `"sales": 0,`) || strings.Contains(out, `"sales": 1`) {
		t.Errorf("after the refused export: exit %d, %s\n%s", code, errs, out)
	}
	code, _, errs = runReport(t, dir, nil, "-import-sales", export, "-product", "guide", "-wallet", typo[:41])
	if code != 1 || !strings.Contains(errs, `report: the wallet "`+typo[:41]+`" is not an address: want 0x and 40 hex digits`) {
		t.Errorf("a wallet a digit short: exit %d: %s", code, errs)
	}
}

// TestADamagedRowStoresNothingOfItsFile: a Gumroad row one cell short is
// refused at its line, and no sale of the file is stored.
func TestADamagedRowStoresNothingOfItsFile(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile("../../internal/sales/testdata/gumroad-5-sales.csv")
	if err != nil {
		t.Fatal(err)
	}
	// The third sale's row: its Sale Price would be read as its Fees, $2.37.
	lines := strings.SplitAfter(string(b), "\n")
	lines[3] = strings.Replace(lines[3], "19.0,0.0,,0.0,19.0,2.37,", "19.0,0.0,,0.0,2.37,", 1)
	export := filepath.Join(dir, "Sales.csv")
	os.WriteFile(export, []byte(strings.Join(lines, "")), 0o644)
	code, _, errs := runReport(t, dir, nil, "-import-sales", export)
	if code != 1 || !strings.Contains(errs, "Sales.csv:4: 71 cells where the header has 72") || !strings.Contains(errs, "nothing of it was stored") {
		t.Errorf("exit %d: %s", code, errs)
	}
	code, out, errs := runReport(t, dir, nil, "-from", "2026-03-01", "-to", "2026-03-03", "-json")
	if code != 0 || !strings.Contains(out, `"sales": 0,`) || strings.Contains(out, `"sales": 1`) {
		t.Errorf("after the refused export: exit %d, %s\n%s", code, errs, out)
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
// recorded says so and what to do on stderr, writes its zeros, well
// formed in every form (in JSON every list and section there, zeros and
// all), and exits 0, as it does on a store that holds nothing; a mistyped
// -db is still an error.
func TestAFreshSiteHasNoEventsYet(t *testing.T) {
	dir := t.TempDir()
	zeros := func(when string) {
		t.Helper()
		code, out, errs := runReport(t, dir, nil, "-since", "3d")
		if code != 0 || !strings.Contains(errs, "No events yet in events.db. Start the preview (go run ./cmd/build -serve)") || !strings.HasPrefix(out, "Readers, ") {
			t.Errorf("%s: exit %d, %q, %q", when, code, out, errs)
		}
		code, out, errs = runReport(t, dir, nil, "-since", "3d", "-json")
		var r report.Report
		if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || len(r.Days) != 3 || r.Total.View != 0 || r.SiteWide == nil {
			t.Errorf("%s, -json: exit %d, %v, %q\n%s", when, code, err, errs, out)
		}
		// Every list a list, every section there, as on a store with data.
		if strings.Contains(out, "null") || r.SiteWide.Sales == nil || len(r.SiteWide.Sales.Channels) != 3 || r.Days[0].Sales == nil || r.Visible == nil {
			t.Errorf("%s, -json: a list or a section is missing:\n%s", when, out)
		}
		page := filepath.Join(t.TempDir(), "r.html")
		code, out, errs = runReport(t, dir, nil, "-html", page)
		if b, err := os.ReadFile(page); code != 0 || err != nil || out != "" || !strings.HasSuffix(string(b), "</html>\n") {
			t.Errorf("%s, -html FILE: exit %d, %v, %q, %q", when, code, err, out, errs)
		}
	}
	zeros("a fresh folder")
	if exists(filepath.Join(dir, "events.db")) {
		t.Error("the report made a store")
	}
	if code, _, errs := runReport(t, dir, nil, "-migrate"); code != 0 {
		t.Fatal(errs)
	}
	zeros("an empty store")
	if code, _, errs := runReport(t, dir, nil, "-db", "evnets.db"); code != 1 || !strings.Contains(errs, "no such store") {
		t.Errorf("a mistyped -db: exit %d, %q", code, errs)
	}
}

// siteIn makes dir a site that builds: the repository's templates,
// static files and counter, and content, by file under content/.
func siteIn(t *testing.T, dir string, content map[string]string) {
	t.Helper()
	for _, d := range []string{"templates", "static", "measure"} {
		if err := os.CopyFS(filepath.Join(dir, d), os.DirFS(filepath.Join("..", "..", d))); err != nil {
			t.Fatal(err)
		}
	}
	for name, src := range content {
		p := filepath.Join(dir, "content", filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestEachClickWithItsPage: a click event carries only its name; the
// report names the content file whose page has its control, and says so
// when no page has it now.
func TestEachClickWithItsPage(t *testing.T) {
	dir := t.TempDir()
	siteIn(t, dir, map[string]string{
		"index.md":    "+++\ntitle = \"x\"\ndescription = \"d\"\n+++\n```python copy=copy-sketch\nx = 1\n```\n\n{{< marker >}}\n",
		"guides/b.md": "+++\ntitle = \"y\"\ndescription = \"d\"\n+++\n~~~go copy=\"copy-main\" label=\"Copy the code (records a click)\"\nx := 1\n~~~\n\n{{< marker >}}\n",
	})
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
	if _, out, _ = runReport(t, dir, nil, "-since", "1d", "-json"); !strings.Contains(out, `"copy-gone": []`) {
		t.Errorf("-json: a click on no page now is not an empty list:\n%s", out)
	}
}

// TestAGuideOnItsPagesRow: a product that one page names as its guide has
// its sales on that page's row; one that two pages name, on neither; and
// site.toml's guide is read as the build reads it, SITE_GUIDE first, as
// named by the pages that show it (<setting:guide>), not by every page
// without a guide of its own, as the site's other error pages are.
func TestAGuideOnItsPagesRow(t *testing.T) {
	dir := t.TempDir()
	// index.md and c.md take site.toml's guide: two pages, so neither row.
	os.WriteFile(filepath.Join(dir, "site.toml"), []byte("guide = \"Other guide\"\n"), 0o644)
	pages := map[string]string{}
	for name, fm := range map[string]string{
		"pay.md":   "guide = \"The McpError field guide\"\nurl = \"/buy/\"",
		"index.md": "",
		"b.md":     "guide = \"B guide\"",
		"mcp/c.md": "",
		"mcp/d.md": "",
	} {
		body := "Text on <setting:guide>."
		if name == "mcp/d.md" {
			body = "Text." // shows no guide
		}
		pages[name] = "+++\ntitle = \"x\"\ndescription = \"d\"\n" + fm + "\n+++\n" + body + "\n\n{{< marker >}}\n"
	}
	siteIn(t, dir, pages)
	var lines string
	for _, path := range []string{"/buy/", "/", "/b/", "/mcp/c/"} {
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
	// The table's cells, one space apart.
	rows := func(out string) string { return strings.Join(strings.Fields(out), " ") }
	if !strings.Contains(rows(out), `/b/ "B guide" 0 $0.00 /buy/ "The McpError field guide" 3 $52.50`) || strings.Contains(out, `"Other guide"`) {
		t.Errorf("the guides' rows:\n%s", out)
	}
	// SITE_GUIDE names the guide of the pages that name none, as in the build.
	os.Remove(filepath.Join(dir, "content", "pay.md"))
	code, out, errs = runReport(t, dir, []string{"SITE_GUIDE=The McpError field guide"}, "-from", "2026-03-01", "-to", "2026-03-03")
	if code != 0 || strings.Contains(out, "Guides sold") && !strings.Contains(rows(out), `revenue /b/ "B guide" 0 $0.00 Site-wide`) {
		t.Errorf("two pages take SITE_GUIDE, so neither row: exit %d, %s\n%s", code, errs, out)
	}
	os.Remove(filepath.Join(dir, "content", "mcp", "c.md"))
	code, out, errs = runReport(t, dir, []string{"SITE_GUIDE=The McpError field guide"}, "-from", "2026-03-01", "-to", "2026-03-03")
	if code != 0 || !strings.Contains(rows(out), `revenue / "The McpError field guide" 3 $52.50 /b/`) {
		t.Errorf("with SITE_GUIDE, the index's row: exit %d, %s\n%s", code, errs, out)
	}
}

// TestARenamedPageKeepsItsReadsBefore: a page's aliases, its earlier
// paths, answer with a 301 to it, so their reading events are the page's,
// read before it was renamed: on its row, not "none before" beside a row
// of the old path going to 0.
func TestARenamedPageKeepsItsReadsBefore(t *testing.T) {
	dir := t.TempDir()
	siteIn(t, dir, map[string]string{
		"new-name.md": "+++\ntitle = \"x\"\ndescription = \"d\"\naliases = [\"/old-name/\"]\n+++\nText.\n\n{{< marker >}}\n",
		"other.md":    "+++\ntitle = \"y\"\ndescription = \"d\"\n+++\nText.\n\n{{< marker >}}\n",
	})
	var lines string
	for i, at := range []string{"2026-02-27T10:00:00Z", "2026-02-28T10:00:00Z", "2026-03-01T10:00:00Z", "2026-03-02T10:00:00Z"} {
		path := []string{"/old-name/", "/old-name/", "/old-name/", "/new-name/"}[i]
		lines += `{"ts":"` + at + `","stored":false,"name":"view","path":"` + path + `","visible_ms":0,"scrolled":false}` + "\n"
	}
	lines += `{"ts":"2026-03-02T11:00:00Z","stored":false,"name":"view","path":"/other/","visible_ms":0,"scrolled":false}` + "\n"
	log := filepath.Join(dir, "log.jsonl")
	os.WriteFile(log, []byte(lines), 0o644)
	if code, _, errs := runReport(t, dir, nil, "-import", log); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := runReport(t, dir, nil, "-from", "2026-03-01", "-to", "2026-03-03", "-json")
	var r report.Report
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
		t.Fatalf("exit %d, %s\n%s", code, errs, out)
	}
	var got []string
	for _, p := range r.Pages {
		got = append(got, fmt.Sprintf("%s %d (before %d)", p.Path, p.View, p.Previous.View))
	}
	if want := []string{"/new-name/ 2 (before 2)", "/other/ 1 (before 0)"}; !slices.Equal(got, want) {
		t.Errorf("pages %q, want %q", got, want)
	}
	// -path counts the same, by the page's path or by its alias.
	for _, path := range []string{"/new-name/", "/old-name/"} {
		code, out, errs := runReport(t, dir, nil, "-from", "2026-03-01", "-to", "2026-03-03", "-json", "-path", path)
		var r report.Report
		if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
			t.Fatalf("-path %s: exit %d, %s\n%s", path, code, errs, out)
		}
		if r.Total.View != 2 || r.Previous.Total.View != 2 || r.Filter.Path != "/new-name/" {
			t.Errorf("-path %s: %d views (before %d) of %s, want 2 (before 2) of /new-name/", path, r.Total.View, r.Previous.Total.View, r.Filter.Path)
		}
	}
}
