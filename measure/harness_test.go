// The tests in this folder hold measure.js to its contract
// (docs/counter.md) in Debian's Chromium: the real page, built by the
// real build, served on 127.0.0.1 with the real receiver at /api/event,
// driven with trusted CDP input and Chromium's virtual time.
package measure_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"errref/internal/browsertest"
	"errref/internal/event"
	"errref/internal/site"
)

const storefront = "https://storefront.invalid/l/guide"

// counterPage is the error page the tests read: the McpError page, whose
// marker, copy controls and buy links they use.
const counterPage = "/mcp/mcperror/"

var (
	buildOnce sync.Once
	built     *site.Site
	buildErr  error
)

func files(t *testing.T) map[string][]byte {
	buildOnce.Do(func() {
		built, buildErr = site.Build(site.Options{FS: os.DirFS(".."), Getenv: func(k string) string {
			switch k {
			case "SITE_STOREFRONT_URL":
				return storefront
			case "SITE_WALLET_ADDRESS":
				return "0x0000000000000000000000000000000000000000"
			}
			return ""
		}})
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built.Files
}

// posted is one request to the endpoint, as the server saw it.
type posted struct {
	Body    map[string]any
	Raw     string
	Header  http.Header
	Handled bool // the receiver accepted it
}

type harness struct {
	t      *testing.T
	ctx    context.Context
	srv    *httptest.Server
	mu     sync.Mutex
	posts  []posted
	paths  []string // every request the server got
	fail   bool     // the endpoint answers 500
	wd     bool     // navigator.webdriver is true in this browser
	errors []string // exceptions thrown in the page

	// Chromium's view of the page's requests to the endpoint, for settle.
	sending  map[network.RequestID]string // started, not yet finished: their URLs
	started  map[network.RequestID]bool   // every request to the endpoint started
	settles  int                          // barriers sent by settle so far
	answered map[string]bool              // barrier URLs Chromium saw answered
}

type opts struct {
	webdriver bool
	fail      bool
	preload   string            // script run in every document before the page's own
	slow      string            // a file served only after a network's delay
	site      map[string][]byte // the files to serve, if not the repository's site
	missing   string            // a file answered 404
}

func newHarness(t *testing.T, o opts) *harness {
	h := &harness{t: t, fail: o.fail, wd: o.webdriver, sending: map[network.RequestID]string{}, started: map[network.RequestID]bool{}, answered: map[string]bool{}}
	fs := o.site
	if fs == nil {
		fs = files(t)
	}
	recv := &event.Handler{Sink: func(event.Event, time.Time) error { return nil }}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == settlePath {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.mu.Lock()
		h.paths = append(h.paths, r.URL.Path)
		h.mu.Unlock()
		if r.URL.Path == "/api/event" {
			raw, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
			r.Body = io.NopCloser(bytes.NewReader(raw))
			rec := httptest.NewRecorder()
			if h.fail {
				http.Error(rec, "down", 500)
			} else {
				recv.ServeHTTP(rec, r)
			}
			p := posted{Raw: string(raw), Header: r.Header.Clone(), Handled: rec.Code == 204}
			json.Unmarshal([]byte(p.Raw), &p.Body)
			// Kept before the answer goes out, so that a request Chromium
			// reports finished is one the test can see (settle relies on it).
			h.mu.Lock()
			h.posts = append(h.posts, p)
			h.mu.Unlock()
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		name := strings.TrimPrefix(r.URL.Path, "/")
		if name == "" || strings.HasSuffix(name, "/") {
			name += "index.html"
		}
		if name == o.slow {
			time.Sleep(300 * time.Millisecond)
		}
		data, ok := fs[name]
		if !ok || name == o.missing {
			http.NotFound(w, r)
			return
		}
		switch {
		case strings.HasSuffix(name, ".html"):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		case strings.HasSuffix(name, ".js"):
			w.Header().Set("Content-Type", "text/javascript")
		case strings.HasSuffix(name, ".css"):
			w.Header().Set("Content-Type", "text/css")
		case strings.HasSuffix(name, ".svg"):
			w.Header().Set("Content-Type", "image/svg+xml")
		}
		w.Write(data)
	}))
	t.Cleanup(h.srv.Close)
	h.ctx = browsertest.New(t, browsertest.Options{Webdriver: o.webdriver})
	if err := chromedp.Listen(h.ctx, func(ev any) {
		h.mu.Lock()
		defer h.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			h.errors = append(h.errors, e.ExceptionDetails.Text+" "+fmt.Sprint(e.ExceptionDetails.Exception))
		case *network.EventRequestWillBeSent:
			if u := e.Request.URL; u == h.srv.URL+"/api/event" || strings.HasPrefix(u, h.srv.URL+settlePath) {
				h.sending[e.RequestID] = u
				if u == h.srv.URL+"/api/event" {
					h.started[e.RequestID] = true
				}
			}
		case *network.EventLoadingFinished:
			h.finished(e.RequestID)
		case *network.EventLoadingFailed:
			h.finished(e.RequestID)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(h.ctx, runtime.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(h.ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(h.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: visibleClock + o.preload}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if len(h.errors) > 0 {
			t.Errorf("the page threw: %v", h.errors)
		}
	})
	return h
}

// open loads the page at path (with its query) and waits for it to load.
func (h *harness) open(path, referrer string) {
	h.t.Helper()
	// unsafe-url hands the page the referrer's whole address, so that the
	// test sees the counter cut it down to the host.
	if _, err := chromedp.Call(h.ctx, page.Navigate, page.NavigateParams{URL: h.srv.URL + path, Referrer: referrer, ReferrerPolicy: page.ReferrerPolicyUnsafeURL}); err != nil {
		h.t.Fatal(err)
	}
	h.loaded(path)
}

// loaded waits for the page at path to finish loading.
func (h *harness) loaded(path string) {
	h.t.Helper()
	want, _, _ := strings.Cut(path, "#")
	want, _, _ = strings.Cut(want, "?")
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		v, err := chromedp.Run(h.ctx, chromedp.Evaluate[string](`location.pathname + " " + document.readyState`))
		if err == nil && v == want+" complete" {
			// Every test runs where navigator.webdriver is what it
			// expects: false without the automation flag.
			if wd := h.eval(`navigator.webdriver`); wd != h.wd {
				h.t.Fatalf("navigator.webdriver = %v, want %v", wd, h.wd)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.t.Fatalf("%s did not load", path)
}

// pause stops the page's clock: from here on, only advance moves it.
func (h *harness) pause() {
	h.t.Helper()
	if _, err := chromedp.Call(h.ctx, emulation.SetVirtualTimePolicy, emulation.SetVirtualTimePolicyParams{Policy: emulation.VirtualTimePolicyPause}); err != nil {
		h.t.Fatal(err)
	}
}

// advance runs the page's clock forward by ms virtual milliseconds, timers
// and all, in a few real ones, and leaves it paused.
func (h *harness) advance(ms float64) {
	h.t.Helper()
	// In steps of at most 5 s. Now and then, after a wheel event, Chromium
	// never reports a budget as spent; the step is then asked for again,
	// which can only move the clock further, never less far.
	for ms > 0 {
		step := min(ms, 5000)
		ms -= step
		for try := 0; ; try++ {
			if try == 5 {
				h.t.Fatal("Chromium's virtual time does not advance")
			}
			ctx, cancel := context.WithCancel(h.ctx)
			expired := chromedp.Events(ctx, emulation.VirtualTimeBudgetExpired)
			done := make(chan error, 1)
			go func() {
				for _, err := range expired {
					done <- err
					return
				}
			}()
			if _, err := chromedp.Call(h.ctx, emulation.SetVirtualTimePolicy, emulation.SetVirtualTimePolicyParams{Policy: emulation.VirtualTimePolicyAdvance, Budget: &step}); err != nil {
				cancel()
				h.t.Fatal(err)
			}
			select {
			case err := <-done:
				cancel()
				if err != nil {
					h.t.Fatal(err)
				}
			case <-time.After(3 * time.Second):
				cancel()
				continue
			}
			break
		}
	}
}

// visibleClock counts the milliseconds the page has been visible since
// measure.js started its own clock, for advanceTo. Its listeners run in
// the bubble phase, after measure.js's (capture), because measure.js's
// first read of scrollY lays the page out, which takes a few hundred
// milliseconds when Chromium is busy: counted from DOMContentLoaded's
// start, this clock would run ahead of the page's.
const visibleClock = `(() => {
  let from = 0, hiddenSince = 0, hidden = 0;
  const now = () => performance.now();
  addEventListener("DOMContentLoaded", () => { from = now(); if (document.hidden) hiddenSince = from; });
  addEventListener("visibilitychange", () => {
    if (!from) return;
    if (document.hidden && !hiddenSince) hiddenSince = now();
    if (!document.hidden && hiddenSince) { hidden += now() - hiddenSince; hiddenSince = 0; }
  });
  window.__visibleMs = () => from && now() - from - hidden - (hiddenSince && now() - hiddenSince);
})();`

// advanceTo runs the page's clock until the page has been visible for ms
// milliseconds. The real time a test spends before it pauses the clock
// counts too, and grows when tests run side by side, so a threshold is
// approached from what the page has already counted, never by a fixed
// step alone.
func (h *harness) advanceTo(ms float64) {
	h.t.Helper()
	v, ok := h.eval(`__visibleMs()`).(float64)
	if !ok || v <= 0 {
		h.t.Fatalf("the page's visible time is %v, want a number above 0", v)
	}
	if v > ms {
		h.t.Fatalf("the page was already visible for %.0f ms, past the %.0f ms the test wants to reach", v, ms)
	}
	h.advance(ms - v)
}

// frames waits, on the real clock, until the page has drawn two frames,
// so that what a scroll set off (the marker's observer) has run.
func (h *harness) frames() {
	h.t.Helper()
	js := `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(1))))`
	if _, err := chromedp.Run(h.ctx, chromedp.Evaluate[any](js, chromedp.EvalAwaitPromise)); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) mouse(typ input.DispatchMouseEventType, x, y float64, opts ...chromedp.MouseOption) {
	h.t.Helper()
	if err := chromedp.Do(h.ctx, chromedp.MouseEvent(typ, x, y, opts...)); err != nil {
		h.t.Fatal(err)
	}
}

// wheel scrolls with a trusted mouse wheel event.
func (h *harness) wheel(dy float64) {
	h.mouse(input.DispatchMouseEventTypeMouseWheel, 200, 300, func(p *input.DispatchMouseEventParams) {
		// CDP wants both deltas, and drops a zero one.
		p.DeltaX, p.DeltaY = 0.01, dy
	})
}

func (h *harness) eval(js string) any {
	h.t.Helper()
	v, err := chromedp.Run(h.ctx, chromedp.Evaluate[any](js))
	if err != nil {
		h.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// named returns the events the endpoint got with that name.
func (h *harness) named(name string) []posted {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []posted
	for _, p := range h.posts {
		if p.Body["name"] == name {
			out = append(out, p)
		}
	}
	return out
}

func (h *harness) all() []posted {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]posted(nil), h.posts...)
}

// waitFor waits, in real time, for the first event with that name.
func (h *harness) waitFor(name string) posted {
	h.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if ps := h.named(name); len(ps) > 0 {
			return ps[0]
		}
		time.Sleep(10 * time.Millisecond)
	}
	h.t.Fatalf("no %q event arrived; got %v", name, h.names())
	return posted{}
}

// settlePath is the barrier settle sends; the server answers it and keeps
// no record of it.
const settlePath = "/_settle"

// finished notes that Chromium has the answer to a request; h.mu is held.
func (h *harness) finished(id network.RequestID) {
	if u, ok := h.sending[id]; ok {
		delete(h.sending, id)
		if strings.HasPrefix(u, h.srv.URL+settlePath) {
			h.answered[u] = true
		}
	}
}

// settle returns once every event the page has sent so far has reached the
// server. It makes the page send a barrier request through fetch, the way
// measure.js sends, and waits until Chromium has the barrier's answer and
// that of every endpoint request it reported before it. The page starts
// its requests in order, so none sent before the barrier can still be on
// its way; and the server keeps an event before it answers. Chromium does
// not report the answer to a keepalive request of a page navigated away
// from, so the server holding as many events as were started will do too.
func (h *harness) settle() {
	h.t.Helper()
	h.mu.Lock()
	h.settles++
	url := fmt.Sprintf("%s%s?%d", h.srv.URL, settlePath, h.settles)
	h.mu.Unlock()
	// no-cors, since the page may be on another origin by now.
	h.eval(fmt.Sprintf(`fetch(%q, {method: "POST", mode: "no-cors", credentials: "omit"}).catch(() => 0); 1`, url))
	deadline := time.Now().Add(5 * time.Second)
	for {
		h.mu.Lock()
		done, left := h.answered[url], len(h.sending)
		if len(h.posts) >= len(h.started) {
			left = 0
		}
		h.mu.Unlock()
		if done && left == 0 {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("the page's requests did not settle: barrier answered %v, %d requests unanswered", done, left)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (h *harness) names() []string {
	var n []string
	for _, p := range h.all() {
		n = append(n, fmt.Sprint(p.Body["name"]))
	}
	return n
}

func (h *harness) none(name string) {
	h.t.Helper()
	h.settle()
	if ps := h.named(name); len(ps) > 0 {
		h.t.Fatalf("a %q event was sent: %s", name, ps[0].Raw)
	}
}

func keys(m map[string]any) []string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	sort.Strings(k)
	return k
}
