// Command screenshots writes the report's page for a generated month of
// traffic, and PNGs of it at 375 and 1280 px, light and dark, for a person
// to look at. TestHTMLInABrowser checks what a program can (no sideways
// scrolling, the charts, both themes); this shows the rest.
//
//	go run ./internal/report/cmd/screenshots -out /tmp/shots
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"errref/internal/needs"
	"errref/internal/report"
	"errref/internal/tally"
	"errref/internal/traffic"
)

func main() {
	out := flag.String("out", "", "the folder to write month.html and the PNGs into (required)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	log.SetFlags(0)
	log.SetPrefix("screenshots: ")
	if err := run(*out); err != nil {
		log.Fatal(err)
	}
}

func run(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	html, err := month()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "month.html"), html, 0o644); err != nil {
		return err
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(html)
	}))
	defer srv.Close()

	chromium := os.Getenv("CHROME_PATH")
	if chromium == "" {
		chromium = needs.ChromiumPath
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ctx, cancel = chromedp.NewExecAllocator(ctx, chromedp.ExecPath(chromium), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun)
	defer cancel()
	ctx, cancel = chromedp.NewContext(ctx)
	defer cancel()

	for _, width := range []int64{375, 1280} {
		for _, scheme := range []string{"light", "dark"} {
			if err := shoot(ctx, srv.URL, dir, width, scheme); err != nil {
				return fmt.Errorf("%d px, %s: %v", width, scheme, err)
			}
		}
	}
	fmt.Println(dir)
	return nil
}

// month is the report's page for traffic.Month, with a campaign of markup
// and a long host name, the two things most likely to break the layout.
func month() ([]byte, error) {
	end := time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC)
	counts := append(traffic.Counts(traffic.Make(traffic.Month(end))),
		tally.Count{Day: "2026-03-20", Name: "view", Path: "/", Source: "x", Campaign: `<script>document.title="pwned"</script>`, N: 3},
		tally.Count{Day: "2026-03-20", Name: "view", Path: "/", Ref: "a-rather-long-host-name-for-a-phone.example-mirror.org", N: 2})
	r, err := report.Build(counts, report.Query{From: "2026-03-02", To: "2026-03-31", Today: "2026-03-31"})
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = report.HTML(&b, r)
	return b.Bytes(), err
}

// shoot writes the page at one width and colour scheme as PNGs a screen
// high each, so that each is readable at its size, with the day table
// open as after a click on its summary.
func shoot(ctx context.Context, url, dir string, width int64, scheme string) error {
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
		return err
	}
	if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: width, Height: 800, DeviceScaleFactor: 1, Mobile: width < 600}); err != nil {
		return err
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return err
	}
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
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("report-%d-%s-%d.png", width, scheme, i)), shot.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
