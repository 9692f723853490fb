package report

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"errref/internal/browsertest"
	"errref/internal/tally"
)

// month is the HTML of the generated month's report (trafficMonth), with
// a hostile campaign, a long host name, and one with the longest label DNS
// allows (63 characters), which anyone may send as a ref, added.
func month(t testing.TB) []byte {
	t.Helper()
	end := time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC)
	counts := trafficCounts(makeTraffic(trafficMonth(end)))
	counts = append(counts,
		tally.Count{Day: "2026-03-20", Name: "view", Path: "/", Source: "x", Campaign: hostile, N: 3},
		tally.Count{Day: "2026-03-20", Name: "view", Path: "/", Ref: "a-rather-long-host-name-for-a-phone.example-mirror.org", N: 2},
		tally.Count{Day: "2026-03-20", Name: "view", Path: "/", Ref: strings.Repeat("w", 63) + ".example", N: 1})
	var b bytes.Buffer
	if err := HTML(&b, build(t, counts, Query{From: "2026-03-02", To: "2026-03-31", Today: "2026-03-31"})); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func serve(t testing.TB, page []byte) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func viewport(ctx context.Context, width int64, dark bool) error {
	scheme := "light"
	if dark {
		scheme = "dark"
	}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
		return err
	}
	_, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: width, Height: 800, DeviceScaleFactor: 1, Mobile: width < 600})
	return err
}

// layout is what the browser test measures of the page.
type layout struct {
	Pwned, Shown   bool
	Title          string
	Scripts, Rects int
	H1             string
	Scroll, Client int
	Overflowing    []string // tables, and the boxes around them, wider than they show
	Body           string   // the body's font-size
	Funnel         []string // each funnel text's font-size as drawn, where it differs from the body's
	FunnelTexts    int
	SplitHosts     []string // host names drawn on more than one line
	Partial        bool
	Background     string // the body's background colour
}

const measure = `(() => {
	document.querySelectorAll("details").forEach(d => d.open = true);
	const body = getComputedStyle(document.body).fontSize;
	// A table, or a box around it, that scrolls, or that sticks out of
	// the body's column.
	const overflowing = [];
	const edge = document.body.getBoundingClientRect().right - parseFloat(getComputedStyle(document.body).paddingRight);
	document.querySelectorAll("table").forEach((t, i) => {
		for (let e = t; e && e !== document.body; e = e.parentElement) {
			const right = e.getBoundingClientRect().right;
			if (e.scrollWidth > e.clientWidth + 1 || right > edge + 1) {
				overflowing.push("table " + i + ": " + e.tagName + " scrolls " + e.scrollWidth + " px in " + e.clientWidth + ", right edge at " + Math.round(right) + " px of " + Math.round(edge));
				break;
			}
		}
	});
	// Every element of the funnel that draws text, and the size it is
	// drawn at: an SVG text's font-size scaled by its viewBox.
	const funnel = [];
	let texts = 0;
	const root = document.getElementById("funnel");
	if (root) for (const e of [root, ...root.querySelectorAll("*")]) {
		if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
		texts++;
		let size = parseFloat(getComputedStyle(e).fontSize);
		if (e instanceof SVGElement) size *= e.getScreenCTM().a;
		if (Math.abs(size - parseFloat(body)) > 0.5) funnel.push(e.tagName + " " + JSON.stringify(e.textContent.slice(0, 20)) + " " + size.toFixed(1) + "px");
	}
	const split = [];
	// A host may break after a dot when it is wider than the screen,
	// never inside a label but one wider than its cell.
	document.querySelectorAll(".host > span").forEach(h => {
		const r = document.createRange();
		r.selectNodeContents(h);
		const rects = [...r.getClientRects()];
		const lines = new Set(rects.map(x => Math.round(x.top)));
		const width = rects.reduce((w, x) => w + x.width, 0);
		if (lines.size > 1 && width <= h.closest("td").clientWidth) split.push(h.textContent);
	});
	return {
		Pwned: !!window.pwned,
		Title: document.title,
		Scripts: document.scripts.length,
		Shown: document.body.innerText.includes(` + "`" + hostile + "`" + `),
		H1: getComputedStyle(document.querySelector("h1")).fontSize,
		Scroll: document.documentElement.scrollWidth,
		Client: document.documentElement.clientWidth,
		Rects: document.querySelectorAll("svg rect").length,
		Overflowing: overflowing,
		Body: body,
		Funnel: funnel,
		FunnelTexts: texts,
		SplitHosts: split,
		Partial: document.body.innerText.includes("2026-03-31, today, not over"),
		Background: getComputedStyle(document.body).backgroundColor,
	};
})()`

// TestHTMLInABrowser opens the month's report in Chromium at 375 and
// 1280 px, light and dark (each with its own background): a campaign of
// <script> is shown as text and never runs, the page's own stylesheet
// applies under its strict policy, neither the page nor any table scrolls
// sideways, no host name is split, the funnel's text is drawn at the
// body's size, and today is marked.
func TestHTMLInABrowser(t *testing.T) {
	page := month(t)
	url := serve(t, page)
	if *shots != "" {
		if err := os.MkdirAll(*shots, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*shots, "month.html"), page, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := browsertest.New(t, browsertest.Options{})
	for _, width := range []int64{375, 1280} {
		backgrounds := map[bool]string{}
		for _, dark := range []bool{false, true} {
			name := fmt.Sprintf("%d px, dark %v", width, dark)
			if err := viewport(ctx, width, dark); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
				t.Fatal(err)
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[layout](measure))
			if err != nil {
				t.Fatal(err)
			}
			checkLayout(t, name, got)
			backgrounds[dark] = got.Background
			if *shots != "" {
				if err := shoot(ctx, width, dark); err != nil {
					t.Fatal(err)
				}
			}
		}
		// Both themes render: the dark scheme gives the page a background
		// of its own.
		if backgrounds[false] == backgrounds[true] {
			t.Errorf("%d px: the same background, %s, light and dark", width, backgrounds[false])
		}
	}
}

var shots = flag.String("shots", "", "with TestHTMLInABrowser, also write the page (month.html) and PNGs of it at each width and scheme into this folder, for a person to look at")

// shoot writes the page in ctx as PNGs a screen high each, so that each is
// readable at its size, with the day table open as after a click.
func shoot(ctx context.Context, width int64, dark bool) error {
	height, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector("details").open = true, document.documentElement.scrollHeight`))
	if err != nil {
		return err
	}
	beyond := true
	for i, y := 0, 0.0; y < height; i, y = i+1, y+900 {
		shot, err := chromedp.Call(ctx, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Clip:                  &page.Viewport{X: 0, Y: y, Width: float64(width), Height: min(900, height-y), Scale: 1},
			CaptureBeyondViewport: &beyond,
		})
		if err != nil {
			return err
		}
		name := fmt.Sprintf("report-%d-dark-%v-%d.png", width, dark, i)
		if err := os.WriteFile(filepath.Join(*shots, name), shot.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func checkLayout(t *testing.T, name string, got layout) {
	t.Helper()
	if got.Pwned || got.Scripts != 0 || strings.Contains(got.Title, "pwned") {
		t.Errorf("%s: a script ran or stands in the page: %+v", name, got)
	}
	if !got.Shown {
		t.Errorf("%s: the hostile campaign is not shown as text", name)
	}
	if got.H1 != "21.6px" { // 1.35rem: the stylesheet applied under the policy
		t.Errorf("%s: h1 font-size %s: the page's own stylesheet did not apply", name, got.H1)
	}
	if got.Scroll > got.Client {
		t.Errorf("%s: the page is %d px wide in %d", name, got.Scroll, got.Client)
	}
	if len(got.Overflowing) > 0 {
		t.Errorf("%s: tables scroll sideways: %v", name, got.Overflowing)
	}
	if got.FunnelTexts < 3 || len(got.Funnel) > 0 {
		t.Errorf("%s: the funnel's %d texts are not drawn at the body's %s: %v", name, got.FunnelTexts, got.Body, got.Funnel)
	}
	if len(got.SplitHosts) > 0 {
		t.Errorf("%s: host names split over lines: %v", name, got.SplitHosts)
	}
	if !got.Partial {
		t.Errorf("%s: today's partial day is not marked", name)
	}
	if got.Rects < 3+3*30 {
		t.Errorf("%s: %d bars in the charts, want the funnel's 3 and 30 a step", name, got.Rects)
	}
}
