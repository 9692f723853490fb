package measure_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"errref/internal/site"
)

// shown is what the index shows: the links of the box's matches in order,
// whether the no-match line shows, each index item's link and whether it
// shows, and how many sections show.
const shown = `({
  matches: [...document.querySelectorAll("#matches > li > a")].filter(a => a.offsetParent !== null).map(a => a.getAttribute("href")),
  none: document.getElementById("no-match").offsetParent !== null,
  items: [...document.querySelectorAll("section.errors > ul > li")].map(li => [li.querySelector("a").getAttribute("href"), li.offsetParent !== null]),
  sections: [...document.querySelectorAll("section.errors")].filter(s => s.offsetParent !== null).length,
  box: document.getElementById("filter-box").offsetParent !== null,
})`

type index struct {
	Matches  []string `json:"matches"`
	None     bool     `json:"none"`
	Items    [][2]any `json:"items"`
	Sections float64  `json:"sections"`
	Box      bool     `json:"box"`
}

func (h *harness) index() index {
	h.t.Helper()
	got, err := chromedp.Run(h.ctx, chromedp.Evaluate[index](shown))
	if err != nil {
		h.t.Fatal(err)
	}
	return got
}

// paste empties the box and puts text in it as a paste does: one input
// event, trusted, with the whole text.
func (h *harness) paste(text string) index {
	h.t.Helper()
	h.eval(`document.getElementById("filter").value = ""`)
	if err := chromedp.Do(h.ctx, chromedp.Focus("#filter")); err != nil {
		h.t.Fatal(err)
	}
	if _, err := chromedp.Call(h.ctx, input.InsertText, input.InsertTextParams{Text: text}); err != nil {
		h.t.Fatal(err)
	}
	// The box answers once the index's other pages have come, if any: a
	// match, the no-match line, or the line that says the search is short.
	for range 250 {
		got := h.index()
		if len(got.Matches) > 0 || got.None || h.eval(`document.getElementById("short").offsetParent !== null`) == true {
			return got
		}
		time.Sleep(20 * time.Millisecond)
	}
	h.t.Fatalf("the box gave no answer to %q in 5 s", text)
	return index{}
}

// TestPastedLineFindsItsPage pastes lines as readers do, the last line of
// a traceback with its own names and numbers, on the index and on the
// not-found page: the page that explains the line comes first, and a line
// no page explains shows no page and says so.
func TestPastedLineFindsItsPage(t *testing.T) {
	files(t)
	// The page that lists the cancel scope's line, whatever it is named.
	scope := ""
	for _, p := range built.Pages {
		for _, m := range p.Meta.Messages {
			if strings.Contains(m, "Attempted to exit cancel scope in a different task") {
				scope = p.URL
			}
		}
	}
	if scope == "" {
		t.Error("no page lists the line RuntimeError: Attempted to exit cancel scope in a different task than it was entered in")
	}
	// The page whose title is the line a client prints for a server's
	// TypeError; the server's own log prints it with its class, TypeError.
	parse := ""
	for _, p := range built.Pages {
		if strings.HasSuffix(p.Meta.Title, ": keyValidator._parse is not a function") {
			parse = p.URL
		}
	}
	if parse == "" {
		t.Error("no page is titled with the line McpError: MCP error -32603: keyValidator._parse is not a function")
	}
	// The page that lists httpx's line for a 421, the last of its traceback.
	misdirected := ""
	for _, p := range built.Pages {
		if slices.ContainsFunc(p.Meta.Messages, func(m string) bool { return strings.Contains(m, "Misdirected Request") }) {
			misdirected = p.URL
		}
	}
	cases := []struct{ line, first string }{
		{"mcp.shared.exceptions.McpError: Timed out while waiting for response to ClientRequest. Waited 30.0 seconds.", counterPage},
		{"RuntimeError: Attempted to exit cancel scope in a different task than it was entered in", scope},
		{"TypeError: keyValidator._parse is not a function", parse},
		{"ZeroDivisionError: division by zero", ""},
		{"For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/421", misdirected},
		{"For more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/404", ""},
		// Lines that end in the first words of a listed line are not that
		// line cut short: "Bad Request: No valid session ID provided".
		{"ValueError: bad request", ""},
		{"OSError: lost connection", ""},
		// A whole traceback pasted: the box keeps it on one line.
		{"Traceback (most recent call last):\n  File \"x.py\", line 1\nmcp.shared.exceptions.McpError: Connection closed", counterPage},
	}
	for _, path := range []string{"/", "/404.html"} {
		h := newHarness(t, opts{})
		h.open(path, "")
		for _, c := range cases {
			if c.first == "" && (strings.HasPrefix(c.line, "RuntimeError") || strings.HasPrefix(c.line, "TypeError")) {
				continue // reported above
			}
			got := h.paste(c.line)
			switch {
			case c.first == "" && (len(got.Matches) > 0 || !got.None):
				t.Errorf("%s: %q shows %v, no-match line shown: %v; want no page and the line", path, c.line, got.Matches, got.None)
			case c.first != "" && (len(got.Matches) == 0 || got.Matches[0] != c.first):
				t.Errorf("%s: %q shows %v, want %s first", path, c.line, got.Matches, c.first)
			}
			if got.Sections != 0 {
				t.Errorf("%s: %q leaves %v sections showing beside the matches", path, c.line, got.Sections)
			}
		}
	}
}

// TestEveryListedLineFindsItsPage fills each page's listed lines as a
// reader's printout would (a class's module before it, a value in each
// {name}) and pastes it: its page comes first, unless the first page
// lists the very same line.
func TestEveryListedLineFindsItsPage(t *testing.T) {
	files(t)
	lists := map[string][]string{}
	for _, p := range built.Pages {
		lists[p.URL] = p.Meta.Messages
	}
	h := newHarness(t, opts{})
	h.open("/", "")
	n := 0
	for _, p := range built.Pages {
		for k, m := range p.Messages {
			n++
			var line strings.Builder
			line.WriteString("module.") // as Python prints a class: mcp.shared.exceptions.McpError
			for i, part := range m.Parts {
				if part.Var {
					line.WriteString("v" + strings.Repeat("9", i))
				} else {
					line.WriteString(part.Text)
				}
			}
			got := h.paste(line.String())
			if len(got.Matches) == 0 || (got.Matches[0] != p.URL && !slices.Contains(lists[got.Matches[0]], p.Meta.Messages[k])) {
				t.Errorf("%q (%s) shows %v, want %s first", line.String(), p.File, got.Matches, p.URL)
			}
		}
	}
	if n == 0 {
		t.Fatal("no page lists a message")
	}
}

// TestCopiedLineFindsItsPage pastes each listed line as it reaches a
// reader through other hands: with smart quotes, as a chat or a phone's
// keyboard writes them, and cut short, as an issue's title, a narrow log or
// a line ending in "…" shows it. Its page comes first, as for the line
// itself.
func TestCopiedLineFindsItsPage(t *testing.T) {
	files(t)
	lists := map[string][]string{}
	for _, p := range built.Pages {
		lists[p.URL] = p.Meta.Messages
	}
	type paste struct{ line, page, listed string }
	// Lines from public threads: python-sdk#407's title, without the
	// message's last period; an httpx line as a chat quotes it.
	pastes := []paste{
		{"Error: Timed out while waiting for response to ClientRequest. Waited 0:00:05 seconds", counterPage, ""},
		{"mcp.shared.exceptions.McpError: Timed out while waiting for resp", counterPage, ""},
		{"httpx.HTTPStatusError: Client error \u2018421 Misdirected Request\u2019 for url \u2018http://localhost:8000/mcp\u2019", "/mcp/invalid-host-header/", ""},
	}
	smart := strings.NewReplacer("'", "\u2019", `"`, "\u201d")
	for _, p := range built.Pages {
		for k, m := range p.Messages {
			var line strings.Builder
			line.WriteString("module.")
			for i, part := range m.Parts {
				if part.Var {
					line.WriteString("v" + strings.Repeat("9", i))
				} else {
					line.WriteString(part.Text)
				}
			}
			l, listed := line.String(), p.Meta.Messages[k]
			if strings.ContainsAny(l, `'"`) {
				pastes = append(pastes, paste{smart.Replace(l), p.URL, listed})
			}
			// Cut inside the line's last words, when they are its own text;
			// the line alone, as a title holds it.
			if last := m.Parts[len(m.Parts)-1]; !last.Var && len(last.Text) >= 16 {
				l = strings.TrimPrefix(l, "module.")
				pastes = append(pastes, paste{l[:len(l)-3], p.URL, listed}, paste{l[:len(l)-5] + "\u2026", p.URL, listed})
			}
		}
	}
	h := newHarness(t, opts{})
	h.open("/", "")
	for _, c := range pastes {
		got := h.paste(c.line)
		if len(got.Matches) == 0 || (got.Matches[0] != c.page && (c.listed == "" || !slices.Contains(lists[got.Matches[0]], c.listed))) {
			t.Errorf("%q shows %v (no-match line %v), want %s first", c.line, got.Matches, got.None, c.page)
		}
	}
	if len(pastes) < 10 {
		t.Fatalf("only %d lines to paste: the pages list too few lines with quotes or long endings", len(pastes))
	}
}

// TestTypedWordFiltersTheIndex types as a reader who knows a word: an
// error's title shows it, text no page holds shows none and says so, and
// an empty box shows the whole index again.
func TestTypedWordFiltersTheIndex(t *testing.T) {
	typedWordFiltersTheIndex(t, opts{})
	// A valid page whose title holds a line another page lists, which the box shows first.
	typedWordFiltersTheIndex(t, opts{site: siteWith(t, map[string]string{"anyio/broken-resource.md": "+++\ntitle = \"anyio.BrokenResourceError\"\n" +
		"description = \"A page a publisher adds.\"\nlibrary = \"anyio\"\n+++\n\nWhy.\n\n{{< marker >}}\n"})})
}

func typedWordFiltersTheIndex(t *testing.T, o opts) {
	t.Helper()
	h := newHarness(t, o)
	h.open("/", "")
	before := h.index()
	if len(before.Items) == 0 {
		t.Fatal("the index lists no errors")
	}
	if !before.Box {
		t.Fatal("the box does not show with script on")
	}
	// The box puts a page listing a line the text holds before a page whose
	// title holds it: the first page whose title holds no other's line.
	pick, err := chromedp.Run(h.ctx, chromedp.Evaluate[[]string](`(() => {
  const items = [...document.querySelectorAll("section.errors > ul > li")];
  const holds = (title, li) => [...li.querySelectorAll("ul.messages code")].some(code => [...code.childNodes].every(n =>
    n.nodeName === "VAR" || title.includes(n.textContent.toLowerCase().replace(/^[\w$.]+: (?=.)/, ""))));
  const li = items.find(li => items.every(o => o === li || !holds(li.querySelector("a").textContent.toLowerCase(), o)));
  return li ? [li.querySelector("a").getAttribute("href"), li.querySelector("a").textContent] : [];
})()`))
	if err != nil {
		t.Fatal(err)
	}
	if len(pick) == 0 {
		t.Skip("every title holds a line another page lists")
	}
	first, title := pick[0], pick[1]
	if err := chromedp.Do(h.ctx, chromedp.SendKeys("#filter", title)); err != nil {
		t.Fatal(err)
	}
	if got := h.index(); len(got.Matches) == 0 || got.Matches[0] != first {
		t.Errorf("typing %q shows %v, want %s first", title, got.Matches, first)
	}
	none := h.paste("zq-no-error-holds-this")
	if len(none.Matches) != 0 || !none.None || none.Sections != 0 {
		t.Errorf("text no page holds shows %v (no-match line %v, %v sections)", none.Matches, none.None, none.Sections)
	}
	// Emptied, then a key typed and taken back, so that the last input
	// event is the reader's own.
	h.eval(`document.getElementById("filter").value = ""`)
	if err := chromedp.Do(h.ctx, chromedp.SendKeys("#filter", " \b")); err != nil {
		t.Fatal(err)
	}
	all := h.index()
	for _, it := range all.Items {
		if it[1] != true {
			t.Errorf("an empty box hides %s", it[0])
		}
	}
	if len(all.Matches) != 0 || all.None {
		t.Errorf("an empty box shows matches %v or the no-match line (%v)", all.Matches, all.None)
	}
}

// TestFilterMovesNothing: the box is laid out from the start, so the
// filter's script shifts no part of the index (Lighthouse's CLS), even
// when it comes after the first paint.
func TestFilterMovesNothing(t *testing.T) {
	h := newHarness(t, opts{slow: "filter.js", preload: `window.shifts = 0;
new PerformanceObserver(l => l.getEntries().forEach(e => { window.shifts += e.value; })).observe({type: "layout-shift", buffered: true});`})
	h.open("/", "")
	h.frames()
	h.frames()
	if s := h.eval(`window.shifts`); s != float64(0) {
		t.Errorf("the index shifted as it loaded: layout shift %v, want 0", s)
	}
}

// TestWithoutScriptEveryErrorShowsAndNoBox: with script off, the box that
// would do nothing is hidden; the index lists every error with its lines,
// and the not-found page, which lists none, links to the index below the
// hidden box, where it tells the reader to paste the line.
func TestWithoutScriptEveryErrorShowsAndNoBox(t *testing.T) {
	for _, path := range []string{"/", "/404.html"} {
		h := newHarness(t, opts{})
		if _, err := chromedp.Call(h.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatal(err)
		}
		h.open(path, "")
		got := h.index()
		if got.Box || got.None {
			t.Errorf("%s: the box (%v) or the no-match line (%v) shows with script off", path, got.Box, got.None)
		}
		if path == "/404.html" {
			if h.eval(`[...document.querySelectorAll("main a[href='/']")].some(a => a.offsetParent !== null && document.getElementById("filter-box").compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING)`) != true {
				t.Errorf("%s: with script off nothing shows below the hidden box, where the page says to paste the line: no link to the index there", path)
			}
			continue
		}
		for _, it := range got.Items {
			if it[1] != true {
				t.Errorf("%s: %s is hidden with script off", path, it[0])
			}
		}
		lines := h.eval(`[...document.querySelectorAll("ul.messages code")].filter(c => c.offsetParent !== null).length`)
		want := 0
		for _, p := range built.Pages {
			want += len(p.Messages)
		}
		if lines != float64(want) {
			t.Errorf("%s: %v listed lines show with script off, want every page's %d", path, lines, want)
		}
	}
}

// TestTypedWordFindsTheTitleFirst: a typed word that one page's title
// holds brings that page before pages whose description holds it and come
// first on the index.
func TestTypedWordFindsTheTitleFirst(t *testing.T) {
	h := newHarness(t, opts{})
	h.open("/", "")
	type entry struct{ URL, Title, Desc string }
	pages, err := chromedp.Run(h.ctx, chromedp.Evaluate[[]entry](`[...document.querySelectorAll("section.errors > ul > li")].map(li => ({
  url: li.querySelector("a").getAttribute("href"), title: li.querySelector("a").textContent.toLowerCase(), desc: li.querySelector("p").textContent.toLowerCase()}))`))
	if err != nil {
		t.Fatal(err)
	}
	word, want := "", ""
	for i, p := range pages {
		for _, w := range strings.Fields(p.Title) {
			if len(w) < 6 || strings.ContainsAny(w, ":.()'") {
				continue
			}
			inTitles, before := 0, false
			for j, o := range pages {
				if strings.Contains(o.Title, w) {
					inTitles++
				} else if j < i && strings.Contains(o.Desc, w) {
					before = true
				}
			}
			if inTitles == 1 && before {
				word, want = w, p.URL
			}
		}
	}
	if word == "" {
		t.Skip("no word of one title that an earlier page's description holds")
	}
	if got := h.paste(word); len(got.Matches) < 2 || got.Matches[0] != want {
		t.Errorf("typing %q shows %v, want %s, whose title holds it, first", word, got.Matches, want)
	}
}

// manySite is the repository's site with 300 more error pages, of words
// drawn at random (seeded), enough for the index to go on over pages.
func manySite(t *testing.T) map[string][]byte {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 4))
	words := func(k int) string {
		w := make([]string, k)
		for i := range w {
			b := make([]byte, 3+r.IntN(8))
			for j := range b {
				b[j] = byte('a' + r.IntN(26))
			}
			w[i] = string(b)
		}
		return strings.Join(w, " ")
	}
	pages := map[string]string{}
	for i := range 300 {
		pages[fmt.Sprintf("zz/p%03d.md", i)] = fmt.Sprintf("+++\ntitle = %q\ndescription = %q\ncounter = false\n+++\n\nWhy.\n", words(5), words(24)+".")
	}
	return siteWith(t, pages)
}

// siteWith is the repository's site with more pages, by their names in content/.
func siteWith(t *testing.T, pages map[string]string) map[string][]byte {
	t.Helper()
	root := t.TempDir()
	for _, dir := range []string{"content", "templates", "static", "measure"} {
		if err := os.CopyFS(filepath.Join(root, dir), os.DirFS(filepath.Join("..", dir))); err != nil {
			t.Fatal(err)
		}
	}
	toml, err := os.ReadFile("../site.toml")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "site.toml"), toml, 0o644)
	for name, page := range pages {
		os.MkdirAll(filepath.Dir(filepath.Join(root, "content", name)), 0o755)
		os.WriteFile(filepath.Join(root, "content", name), []byte(page), 0o644)
	}
	s, err := site.Build(site.Options{FS: os.DirFS(root), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return s.Files
}

// TestTheBoxSearchesEveryPageOfTheIndex: where the index goes on over
// several pages, the box on any of them, and on the not-found page, finds
// a page listed on another; a page of the index that does not come says
// the search is short rather than that no page explains the line.
func TestTheBoxSearchesEveryPageOfTheIndex(t *testing.T) {
	files := manySite(t)
	last := ""
	for n := 2; files[fmt.Sprintf("page/%d/index.html", n)] != nil; n++ {
		last = fmt.Sprintf("/page/%d/", n)
	}
	if last == "" || files["page/3/index.html"] == nil {
		t.Fatal("300 more pages leave the index on fewer than 3 pages")
	}
	line := "mcp.shared.exceptions.McpError: Timed out while waiting for response to ClientRequest. Waited 30.0 seconds."
	// What the box asks for (docs/counter.md): the index's pages, as a link
	// would, once the reader comes to it, and nothing else.
	index := regexp.MustCompile(`^/(page/[0-9]+/)?$`)
	asked := func(h *harness, from int) []string {
		h.mu.Lock()
		defer h.mu.Unlock()
		var got []string
		for _, p := range h.paths[from:] {
			if !strings.HasSuffix(p, ".css") && !strings.HasSuffix(p, ".js") && !strings.HasSuffix(p, ".svg") {
				got = append(got, p)
			}
		}
		return got
	}
	for _, path := range []string{last, "/404.html"} {
		h := newHarness(t, opts{site: files})
		h.open(path, "")
		h.frames()
		if got := asked(h, 0); !slices.Equal(got, []string{path}) {
			t.Errorf("%s: before the reader comes to the box the page asks for %v, want only itself", path, got)
		}
		h.mu.Lock()
		loaded := len(h.paths)
		h.mu.Unlock()
		if got := h.paste(line); len(got.Matches) == 0 || got.Matches[0] != counterPage {
			t.Errorf("%s: the McpError line, listed on /, shows %v, want %s first", path, got.Matches, counterPage)
		}
		for _, p := range asked(h, loaded) {
			if !index.MatchString(p) {
				t.Errorf("%s: the box asks for %s, which is no page of the index", path, p)
			}
		}
		if len(h.posts) > 0 {
			t.Errorf("%s: the box sent %d events", path, len(h.posts))
		}
		// A title on the last page of the index, from the not-found page.
		title, err := chromedp.Run(h.ctx, chromedp.Evaluate[string](`document.querySelector("section.errors li a") ? document.querySelector("section.errors li a").textContent : ""`))
		if err != nil {
			t.Fatal(err)
		}
		if title == "" {
			continue
		}
		h2 := newHarness(t, opts{site: files})
		h2.open("/", "")
		if got := h2.paste(title); len(got.Matches) == 0 {
			t.Errorf("/: %q, a title on %s, shows no page", title, path)
		}
	}
	h := newHarness(t, opts{site: files, missing: "page/2/index.html"})
	h.open("/", "")
	got := h.paste("zq-no-error-holds-this")
	short := h.eval(`document.getElementById("short").offsetParent !== null`)
	if got.None || short != true {
		t.Errorf("with /page/2/ not come, a line no page holds shows the no-match line (%v) and the short search (%v); want only the short search", got.None, short)
	}
}
