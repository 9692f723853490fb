package errref_test

import (
	"cmp"
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"errref/internal/browsertest"
	"errref/internal/message"
	"errref/internal/site"
)

// serve answers the built files the way a static host does.
func serve(t *testing.T, s *site.Site) *httptest.Server {
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

// oneCall is a valid page whose first Python block is one call, which
// the dark theme paints in two colours.
var oneCall = strings.Replace(tlsRequired, "Quiver raises", "```python\nprint(\"hello\")\n```\n\nQuiver raises", 1)

// TestCodeShowsItsColours reads the computed colour of every token of
// each page's first Python block: a highlighter whose classes match no CSS
// rule paints them all one colour, which golden files cannot see. The
// colours are counted over all pages, as a short block may hold two.
func TestCodeShowsItsColours(t *testing.T) {
	s := buildWithPage(t, "content/quiver/one-call.md", oneCall)
	srv := serve(t, s)
	ctx := browsertest.New(t, browsertest.Options{})
	blocks, seen := 0, map[string]map[string]bool{"light": {}, "dark": {}}
	for _, p := range errorPages(s) {
		for _, scheme := range []string{"light", "dark"} {
			look(t, ctx, srv.URL+p.URL, 1280, scheme)
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
			if (!code) return {Colours: null, Faint: []};
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
			if res.Colours == nil {
				continue // no Python block on this page
			}
			blocks++
			for _, c := range res.Colours {
				seen[scheme][c] = true
			}
			// A colour from the other scheme's theme shows as text too faint to
			// read: every token needs 4.5:1 against its block (WCAG AA).
			if len(res.Faint) > 0 {
				t.Errorf("%s, %s scheme: tokens below 4.5:1 contrast with their block: %q", p.URL, scheme, res.Faint)
			}
			t.Logf("%s, %s: %d colours: %v", p.URL, scheme, len(res.Colours), res.Colours)
		}
	}
	if blocks == 0 {
		t.Error("no error page has a Python block: the test looked at nothing")
	}
	for scheme, cs := range seen {
		if len(cs) < 3 {
			t.Errorf("%s scheme: the Python blocks' tokens show %d distinct colours %v, want at least 3", scheme, len(cs), slices.Collect(maps.Keys(cs)))
		}
	}
}

// TestNoSidewaysScroll loads each page at phone and desktop widths: the
// page itself never scrolls sideways; code blocks and tables scroll inside
// themselves, and a keyboard can scroll each (a tab stop, or one inside).
func TestNoSidewaysScroll(t *testing.T) {
	s := build(t, publishEnv)
	srv := serve(t, s)
	ctx := browsertest.New(t, browsertest.Options{})
	for _, p := range s.Pages {
		for _, width := range []int64{320, 375, 1280} {
			look(t, ctx, srv.URL+p.URL, width, "light")
			res, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
				Scroll, Client  int
				Wide, Unreached []string
			}](`(() => {
				const d = document.documentElement, wide = [], unreached = [];
				const focusable = "a[href], button, input, select, textarea, [tabindex]";
				for (const el of document.body.querySelectorAll("*")) {
					const r = el.getBoundingClientRect();
					if (r.right > d.clientWidth + 0.5 && !el.closest("pre, table")) wide.push(el.tagName + " " + (el.textContent || "").slice(0, 60) + " " + Math.round(r.right) + "px");
					const scrolls = ["auto", "scroll"].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth;
					if (scrolls && el.tabIndex < 0 && !el.querySelector(focusable)) unreached.push(el.tagName + " " + (el.textContent || "").slice(0, 60));
				}
				return {Scroll: d.scrollWidth, Client: d.clientWidth, Wide: wide.slice(0, 5), Unreached: unreached.slice(0, 5)};
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			if res.Scroll > res.Client {
				t.Errorf("%s at %d px: the page is %d px wide in a %d px window; sticking out: %q", p.URL, width, res.Scroll, res.Client, res.Wide)
			}
			if len(res.Unreached) > 0 {
				t.Errorf("%s at %d px: these scroll sideways, but a keyboard cannot reach them to scroll: %q", p.URL, width, res.Unreached)
			}
		}
	}
}

// TestNamesWrapWhole loads each error page at phone widths and finds every place where a
// line ends inside the title, inline code or a source link: each must fall
// at a space or after a dot, slash, bracket, comma or equals sign, or after
// an underscore that joins two words. A title cut as
// "mcp.shared.exceptions.Mc" / "pError" fails.
func TestNamesWrapWhole(t *testing.T) {
	// A title whose name is wider than a phone's line (a real TypeScript type's).
	s := buildWithPage(t, "content/quiver/long-name.md", strings.Replace(tlsRequired, `title = "quiver.TlsRequired:`, `title = "quiver.StreamableHTTPServerTransportOptions TlsRequired:`, 1))
	srv := serve(t, s)
	ctx := browsertest.New(t, browsertest.Options{})
	checked := 0
	for _, p := range errorPages(s) {
		// 360 px is the commonest Android width: there Chromium broke
		// "{error_type} after its quote.
		for _, width := range []int64{320, 360, 375, 412} {
			look(t, ctx, srv.URL+p.URL, width, "light")
			res, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
				Checked int
				Bad     []string
			}](`(() => {
			const els = [...document.querySelectorAll("h1, main code:not(pre code), a.src, figcaption a")];
			const bad = [];
			let checked = 0;
			for (const el of els) {
				// Each visible character with the top of its line box.
				const chars = [];
				const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
				for (let n = walk.nextNode(); n; n = walk.nextNode()) {
					for (let i = 0; i < n.data.length; i++) {
						const c = n.data[i];
						if (/\s/.test(c)) { chars.push({c: " "}); continue; }
						const r = document.createRange();
						r.setStart(n, i); r.setEnd(n, i + 1);
						const box = r.getClientRects()[0];
						if (box) chars.push({c, top: box.top, h: box.height});
					}
				}
				const text = chars.map(x => x.c).join("");
				let prev = -1, space = false;
				for (let i = 0; i < chars.length; i++) {
					if (chars[i].c === " ") { space = true; continue; }
					if (prev >= 0 && chars[i].top > chars[prev].top + chars[prev].h / 2) {
						checked++;
						const a = chars[prev].c, b = chars[i].c, aa = prev > 0 ? chars[prev - 1].c : "";
						// Or between the words of a CamelCase name: serverT, HTTPServer.
						const hump = /[A-Z]/.test(b) && (/[a-z]/.test(a) || /[A-Z]/.test(a) && /[a-z]/.test(chars[i + 1]?.c ?? ""));
						const ok = space || hump || "./(=,-".includes(a) || (a === "]" && b === "[") || (a === "_" && /[A-Za-z0-9]/.test(aa) && /[A-Za-z0-9]/.test(b));
						if (!ok) bad.push(el.tagName + ": " + JSON.stringify(text.slice(Math.max(0, prev - 20), prev + 1)) + " / " + JSON.stringify(text.slice(i, i + 20)));
					}
					prev = i; space = false;
				}
			}
			return {Checked: checked, Bad: bad};
		})()`))
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range res.Bad {
				t.Errorf("%s at %d px a line ends inside a name: %s", p.URL, width, b)
			}
			checked += res.Checked
			t.Logf("%s at %d px: %d line ends checked", p.URL, width, res.Checked)
		}
	}
	if checked == 0 {
		t.Error("on no error page does a title, code or source link wrap at all: the test looked at nothing")
	}
}

// TestUnderscoresShowUnderLinks: a link's underline must sit below the ink
// of an underscore in the link's own font, or __init__ in a source link
// reads "stdio/ init .py". The underline's top is the baseline plus
// text-underline-offset; the underscore's lowest ink is the baseline plus
// its descent, which a canvas measures in the font the browser resolved.
func TestUnderscoresShowUnderLinks(t *testing.T) {
	s := build(t, publishEnv)
	srv := serve(t, s)
	ctx := browsertest.New(t, browsertest.Options{})
	links := 0
	for _, p := range errorPages(s) {
		for _, width := range []int64{375, 1280} {
			look(t, ctx, srv.URL+p.URL, width, "light")
			res, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
				Links int
				Bad   []string
			}](`(() => {
			const g = document.createElement("canvas").getContext("2d");
			const bad = [];
			let links = 0;
			for (const a of document.querySelectorAll("a")) {
				if (!a.textContent.includes("_")) continue;
				const cs = getComputedStyle(a);
				if (!cs.textDecorationLine.includes("underline")) continue;
				links++;
				g.font = cs.fontStyle + " " + cs.fontWeight + " " + cs.fontSize + " " + cs.fontFamily;
				const ink = g.measureText("_").actualBoundingBoxDescent;
				const offset = cs.textUnderlineOffset === "auto" ? NaN : parseFloat(cs.textUnderlineOffset);
				if (!(offset >= ink + 1)) bad.push(JSON.stringify(a.textContent.slice(0, 50)) + ": underline offset " + cs.textUnderlineOffset + ", underscore ink " + ink.toFixed(2) + "px below the baseline in " + g.font);
			}
			return {Links: links, Bad: bad.slice(0, 5)};
		})()`))
			if err != nil {
				t.Fatal(err)
			}
			links += res.Links
			for _, b := range res.Bad {
				t.Errorf("%s at %d px the underline covers the underscores: %s", p.URL, width, b)
			}
		}
	}
	if links == 0 {
		t.Error("on no error page does an underlined link hold an underscore: the test looked at nothing")
	}
}

// TestIndexFilters types into the index's filter: the box shows once the
// script runs, and only the errors holding the text stay listed.
func TestIndexFilters(t *testing.T) {
	indexFilters(t, build(t, publishEnv))
	// A valid page whose title holds a line another page lists, which the box shows first.
	indexFilters(t, buildWithPage(t, "content/anyio/broken-resource.md", "+++\ntitle = \"anyio.BrokenResourceError\"\n"+
		"description = \"A page a publisher adds.\"\nlibrary = \"anyio\"\n+++\n\nWhy.\n\n{{< marker >}}\n"))
}

func indexFilters(t *testing.T, s *site.Site) {
	t.Helper()
	srv := serve(t, s)
	ctx := browsertest.New(t, browsertest.Options{})
	look(t, ctx, srv.URL+"/", 375, "light")
	pages := errorPages(s)
	if len(pages) < 2 {
		t.Skip("fewer than two error pages to tell apart")
	}
	// The box puts a page listing a line the text holds before a page whose
	// title holds it: the first page whose title holds no other's line.
	i := slices.IndexFunc(pages, func(p *site.Page) bool {
		return !slices.ContainsFunc(pages, func(o *site.Page) bool {
			return o != p && slices.ContainsFunc(o.Messages, func(m message.Message) bool {
				return !slices.ContainsFunc(m.Parts, func(part message.Part) bool {
					_, text, _ := strings.Cut(part.Text, ": ") // the class before a line, which the box may go without
					return !part.Var && !strings.Contains(strings.ToLower(p.Meta.Title), strings.ToLower(cmp.Or(text, part.Text)))
				})
			})
		})
	})
	if i < 0 {
		t.Skip("every title holds a line another page lists")
	}
	want := pages[i]
	if err := chromedp.Do(ctx, chromedp.WaitVisible("#filter")); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys("#filter", want.Meta.Title)); err != nil {
		t.Fatal(err)
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#matches > li > a")].filter(a => a.offsetParent !== null).map(a => a.getAttribute("href"))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(shown) == 0 || shown[0] != want.URL {
		t.Errorf("after typing %q the index shows %q, want %s first", want.Meta.Title, shown, want.URL)
	}
}

// TestIndexSaysWhatItFound: what the box answers (its matches, the line
// that says no page explains the text, the one that says the search is
// short) is inside a live region already in the page when it loads, so a
// screen reader announces the answer. A live region that is itself hidden
// until it answers is announced by no browser.
func TestIndexSaysWhatItFound(t *testing.T) {
	s := build(t, publishEnv)
	srv := serve(t, s)
	ctx := browsertest.New(t, browsertest.Options{})
	for _, path := range []string{"/", "/404.html"} {
		look(t, ctx, srv.URL+path, 375, "light")
		silent, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`["matches", "no-match", "short"].filter(id => {
			const live = document.getElementById(id).closest("[aria-live=polite], [role=status]");
			return !live || live.closest("[hidden]") !== null;
		})`))
		if err != nil {
			t.Fatal(err)
		}
		if len(silent) > 0 {
			t.Errorf("%s: the box's answers %q are in no live region shown from the start: a screen reader says nothing of them", path, silent)
		}
	}
}

// TestCodePrintsWhole prints each error page: on paper nothing scrolls, so
// a code block or table wider than the page would lose the ends of its
// lines. 718 px is A4's width less Chromium's default margins. Nothing is
// pressed on paper either: a copy control ("Copy the code (records a
// click)") or a heading's # link printed is a word the reader cannot use.
func TestCodePrintsWhole(t *testing.T) {
	s := build(t, publishEnv)
	srv := serve(t, s)
	ctx := browsertest.New(t, browsertest.Options{})
	blocks, controls := 0, 0
	for _, p := range errorPages(s) {
		look(t, ctx, srv.URL+p.URL, 718, "light")
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
			t.Fatal(err)
		}
		res, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
			Blocks, Controls int
			Cut, Printed     []string
		}](`(() => {
			const els = [...document.querySelectorAll("main pre, main table")];
			const cut = els.filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.tagName + " " + el.id + ": " + el.scrollWidth + " px in " + el.clientWidth + " px, " + JSON.stringify(el.textContent.trim().slice(0, 40)));
			const controls = [...document.querySelectorAll("button, a.anchor")];
			const printed = controls.filter(el => el.getClientRects().length > 0).map(el => el.outerHTML.slice(0, 80));
			return {Blocks: els.length, Controls: controls.length, Cut: cut.slice(0, 5), Printed: printed.slice(0, 3)};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		blocks += res.Blocks
		controls += res.Controls
		for _, c := range res.Printed {
			t.Errorf("%s printed: a control that does nothing on paper is printed: %s", p.URL, c)
		}
		for _, c := range res.Cut {
			t.Errorf("%s printed: a block is cut at the paper's edge: %s", p.URL, c)
		}
	}
	if blocks == 0 || controls == 0 {
		t.Errorf("the error pages have %d code blocks or tables and %d controls: the test looked at nothing", blocks, controls)
	}
}

// TestCauseTablesStackOnAPhone: at 320 px the rows of the cause table and
// of the messages table stack, so the reader's answer never runs off the
// screen's edge, whether the table follows its heading at once or after a
// line of its own ("Reported in public threads"); a table in a later
// section stays a table.
func TestCauseTablesStackOnAPhone(t *testing.T) {
	row := "\n\n| Cause | What to check | What to do |\n|---|---|---|\n| a | b | c |\n\n"
	s := buildWithPage(t, "content/quiver/tables.md", strings.Replace(tlsRequired, "## What we checked",
		"## Causes and fixes\n\nReported in public threads, not counted."+row+"## Other"+row+"## What we checked", 1))
	srv := serve(t, s)
	ctx := browsertest.New(t, browsertest.Options{})
	stacked := 0
	for _, p := range errorPages(s) {
		look(t, ctx, srv.URL+p.URL, 320, "light")
		res, err := chromedp.Run(ctx, chromedp.Evaluate[[]struct {
			Section string
			Stacks  bool
			Cut     int
		}](`[...document.querySelectorAll("main table")].map(t => {
			let h = t.previousElementSibling;
			while (h.tagName != "H2") h = h.previousElementSibling;
			return {Section: h.id, Stacks: getComputedStyle(t.rows[1]).display == "block", Cut: t.scrollWidth - t.clientWidth};
		})`))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			switch want := r.Section == "causes-and-fixes" || r.Section == "the-exact-messages"; {
			case want && (!r.Stacks || r.Cut > 0):
				t.Errorf("%s at 320 px: the table of #%s does not stack, %d px of it past the screen's edge", p.URL, r.Section, r.Cut)
			case !want && r.Stacks:
				t.Errorf("%s at 320 px: the table of #%s stacks as a cause table does", p.URL, r.Section)
			case want:
				stacked++
			}
		}
	}
	if stacked == 0 {
		t.Error("no page has a cause or messages table: the test looked at nothing")
	}
}
