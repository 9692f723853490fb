package report

import (
	"bytes"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"errref/internal/browsertest"
	"errref/internal/store"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const hostile = `<script>document.title="pwned";window.pwned=1</script>`

// counts is a fixed data set: two pages, a click, checkouts, a referrer,
// a campaign whose value is markup, and an outreach code.
var counts = []store.Count{
	{Day: "2026-03-01", Name: "view", Path: "/", N: 10},
	{Day: "2026-03-01", Name: "view", Path: "/", Scrolled: true, Ref: "news.ycombinator.com", N: 30},
	{Day: "2026-03-01", Name: "human-candidate", Path: "/", Scrolled: true, Ref: "news.ycombinator.com", N: 12},
	{Day: "2026-03-02", Name: "view", Path: "/", Scrolled: true, Source: "hn", Medium: "post", Campaign: hostile, N: 5},
	{Day: "2026-03-02", Name: "human-candidate", Path: "/", Scrolled: true, Source: "hn", Medium: "post", Campaign: hostile, N: 4},
	{Day: "2026-03-02", Name: "engaged", Path: "/", Scrolled: true, Source: "hn", Medium: "post", Campaign: hostile, Outreach: "oc-7", N: 3},
	{Day: "2026-03-02", Name: "view", Path: "/pay/", N: 2},
	{Day: "2026-03-02", Name: "copy-sketch", N: 6},
	{Day: "2026-03-03", Name: "checkout", Checkout: "gumroad", N: 2},
	{Day: "2026-03-03", Name: "checkout", Checkout: "site", N: 1},
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		os.WriteFile(p, got, 0o644)
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (go test ./internal/report -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s:\n%s", name, p, got)
	}
}

func TestTextAndJSON(t *testing.T) {
	r := Build(counts, "2026-03-01", "2026-03-04")
	var text, js bytes.Buffer
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	if err := JSON(&js, r); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.txt", text.Bytes())
	golden(t, "report.json", js.Bytes())
	// The figures, not just the bytes.
	if r.Total != (Steps{View: 47, HumanCandidate: 16, Engaged: 3}) || r.Pages[0].Path != "/" || r.Pages[0].Scrolled != 35 {
		t.Errorf("total %+v, first page %+v", r.Total, r.Pages[0])
	}
	if *r.Pages[0].ToHumanCandidate != 0.3556 || *r.Pages[0].ToEngaged != 0.1875 || *r.CheckoutsPerEngaged != 1 {
		t.Errorf("rates %v %v %v", *r.Pages[0].ToHumanCandidate, *r.Pages[0].ToEngaged, *r.CheckoutsPerEngaged)
	}
	if len(r.Days) != 4 || r.Days[3] != (Day{Day: "2026-03-04"}) || r.Days[2].Checkout != 3 {
		t.Errorf("days %+v", r.Days)
	}
	if !strings.Contains(text.String(), `"hn / post / `+strings.ReplaceAll(hostile, `"`, `\"`)+`"`) {
		t.Error("the terminal table does not quote a value with spaces and quotes")
	}
}

func TestPeriod(t *testing.T) {
	now := time.Date(2026, 3, 31, 23, 30, 0, 0, time.FixedZone("x", -5*3600)) // 1 April UTC
	for _, tc := range []struct {
		since            time.Duration
		from, to         string
		wantFrom, wantTo string
		err              string
	}{
		{30 * 24 * time.Hour, "", "", "2026-03-03", "2026-04-01", ""},
		{24 * time.Hour, "", "", "2026-04-01", "2026-04-01", ""},
		{0, "2026-03-01", "2026-03-31", "2026-03-01", "2026-03-31", ""},
		{7 * 24 * time.Hour, "", "2026-03-10", "2026-03-04", "2026-03-10", ""},
		{0, "2026-03-31", "2026-03-01", "", "", "is after"},
		{0, "31/03/2026", "", "", "", "write a date"},
		{time.Hour, "", "", "", "", "at least one day"},
	} {
		from, to, err := Period(now, tc.since, tc.from, tc.to)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Period(%v, %q, %q) = %v, want %q", tc.since, tc.from, tc.to, err, tc.err)
			}
			continue
		}
		if err != nil || from != tc.wantFrom || to != tc.wantTo {
			t.Errorf("Period(%v, %q, %q) = %s, %s, %v; want %s, %s", tc.since, tc.from, tc.to, from, to, err, tc.wantFrom, tc.wantTo)
		}
	}
	if d, err := ParseSince("30d"); err != nil || d != 30*24*time.Hour {
		t.Errorf("ParseSince(30d) = %v, %v", d, err)
	}
}

// TestHTMLRunsNoScriptAndShowsValuesAsText opens the report in Chromium:
// a campaign of <script> is shown as text and never runs, the page's own
// stylesheet applies under its strict policy, and nothing sticks out at
// 375 px.
func TestHTMLRunsNoScriptAndShowsValuesAsText(t *testing.T) {
	var b bytes.Buffer
	if err := HTML(&b, Build(counts, "2026-03-01", "2026-03-31")); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.html", b.Bytes())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(b.Bytes())
	}))
	defer srv.Close()
	ctx := browsertest.New(t, browsertest.Options{})
	if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: 375, Height: 800, DeviceScaleFactor: 1, Mobile: true}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
		Pwned   bool
		Title   string
		Scripts int
		Shown   bool
		Weight  string
		Scroll  int
		Client  int
		Rects   int
	}](`({
		Pwned: !!window.pwned,
		Title: document.title,
		Scripts: document.scripts.length,
		Shown: document.body.innerText.includes(`+"`"+hostile+"`"+`),
		Weight: getComputedStyle(document.querySelector("h1")).fontSize,
		Scroll: document.documentElement.scrollWidth,
		Client: document.documentElement.clientWidth,
		Rects: document.querySelectorAll("svg rect").length,
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Pwned || got.Scripts != 0 || strings.Contains(got.Title, "pwned") {
		t.Errorf("a script ran or stands in the page: %+v", got)
	}
	if !got.Shown {
		t.Error("the hostile campaign is not shown as text")
	}
	if got.Weight != "21.6px" { // 1.35rem: the stylesheet applied under the policy
		t.Errorf("h1 font-size %s: the page's own stylesheet did not apply", got.Weight)
	}
	if got.Scroll > got.Client {
		t.Errorf("the page is %d px wide at 375 px", got.Scroll)
	}
	if got.Rects < 3+31 {
		t.Errorf("%d bars in the charts, want the funnel's 3 and one a day at least", got.Rects)
	}
}
