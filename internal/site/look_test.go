package site

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"errref/internal/browsertest"
)

// serve answers the built files the way a static host does.
func serve(t *testing.T, s *Site) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" || strings.HasSuffix(name, "/") {
			name += "index.html"
		}
		data, ok := s.Files[name]
		if !ok {
			http.NotFound(w, r)
			return
		}
		for ext, typ := range map[string]string{".html": "text/html; charset=utf-8", ".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"} {
			if strings.HasSuffix(name, ext) {
				w.Header().Set("Content-Type", typ)
			}
		}
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// look opens path at width px in the given colour scheme.
func look(t *testing.T, ctx context.Context, url string, width int64, scheme string) {
	t.Helper()
	if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: width, Height: 800, DeviceScaleFactor: 1, Mobile: width < 600}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
}

// TestCodeShowsItsColours reads the computed colour of every token of the
// first Python block: a highlighter whose classes match no CSS rule paints
// them all one colour, which golden files cannot see.
func TestCodeShowsItsColours(t *testing.T) {
	s := build(t, publishEnv)
	srv := serve(t, s)
	ctx := browsertest.New(t, browsertest.Options{})
	for _, scheme := range []string{"light", "dark"} {
		look(t, ctx, srv.URL+"/", 1280, scheme)
		res, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
			Colours []string
			Faint   []string
		}](`(() => {
			const rgb = s => s.match(/[\d.]+/g).slice(0, 3).map(Number);
			const lum = c => {
				const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
				return 0.2126 * r + 0.7152 * g + 0.0722 * b;
			};
			const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
			const code = document.querySelector("pre code.language-python");
			if (!code) return {Colours: [], Faint: ["no Python block"]};
			const seen = new Set(), faint = [];
			for (const el of code.querySelectorAll("span")) seen.add(getComputedStyle(el).color);
			// Contrast: every token of every block on the page.
			for (const pre of document.querySelectorAll("pre")) {
				const bg = rgb(getComputedStyle(pre).backgroundColor);
				for (const el of pre.querySelectorAll("code, code span")) {
					const c = getComputedStyle(el).color, r = contrast(rgb(c), bg);
					if (el.textContent.trim() && r < 4.5) faint.push(pre.id + " " + el.className + " " + JSON.stringify(el.textContent.slice(0, 20)) + " " + c + " " + r.toFixed(2));
				}
			}
			return {Colours: [...seen], Faint: faint.slice(0, 5)};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Colours) < 3 {
			t.Errorf("%s scheme: the Python block's tokens show %d distinct colours %v, want at least 3", scheme, len(res.Colours), res.Colours)
		}
		// A colour from the other scheme's theme shows as text too faint to
		// read: every token needs 4.5:1 against its block (WCAG AA).
		if len(res.Faint) > 0 {
			t.Errorf("%s scheme: tokens below 4.5:1 contrast with their block: %q", scheme, res.Faint)
		}
		t.Logf("%s: %d colours: %v", scheme, len(res.Colours), res.Colours)
	}
}

// TestNoSidewaysScroll loads each page at phone and desktop widths: the
// page itself never scrolls sideways; code blocks and tables scroll inside
// themselves.
func TestNoSidewaysScroll(t *testing.T) {
	s := build(t, publishEnv)
	srv := serve(t, s)
	ctx := browsertest.New(t, browsertest.Options{})
	for _, p := range s.Pages {
		for _, width := range []int64{320, 375, 1280} {
			look(t, ctx, srv.URL+p.URL, width, "light")
			res, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
				Scroll, Client int
				Wide           []string
			}](`(() => {
				const d = document.documentElement, wide = [];
				for (const el of document.body.querySelectorAll("*")) {
					const r = el.getBoundingClientRect();
					if (r.right > d.clientWidth + 0.5 && !el.closest("pre, table")) wide.push(el.tagName + " " + (el.textContent || "").slice(0, 60) + " " + Math.round(r.right) + "px");
				}
				return {Scroll: d.scrollWidth, Client: d.clientWidth, Wide: wide.slice(0, 5)};
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			if res.Scroll > res.Client {
				t.Errorf("%s at %d px: the page is %d px wide in a %d px window; sticking out: %q", p.URL, width, res.Scroll, res.Client, res.Wide)
			}
		}
	}
}
