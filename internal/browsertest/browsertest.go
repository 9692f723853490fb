// Package browsertest starts Debian's Chromium for tests, through chromedp.
// Without Chromium a test fails saying what to install, unless the user
// chose to skip browser tests with SKIP_BROWSER=1 (package needs).
package browsertest

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"errref/internal/needs"
)

// Options choose how Chromium runs.
type Options struct {
	// Webdriver leaves navigator.webdriver true, as under automation. When
	// false, Chromium runs with AutomationControlled disabled, as a
	// person's browser does.
	Webdriver bool
	Timeout   time.Duration // for the whole test; 60 s when zero
}

// shared holds the browsers a package's tests share under Main, one for
// each value of Options.Webdriver, which is a command-line flag.
var shared struct {
	sync.Mutex
	on       bool
	browsers map[bool]*browser
}

type browser struct {
	ctx context.Context
	end func()
}

// Main runs a package's tests, with one Chromium for them all, and ends it
// after them. Starting Chromium takes about half a second, most of a short
// browser test; each test still gets a browser context of its own, as clean
// as a fresh profile. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(browsertest.Main(m)) }
//
// Without it, New starts a Chromium for each test.
func Main(m *testing.M) int {
	shared.Lock()
	shared.on = true
	shared.browsers = map[bool]*browser{}
	shared.Unlock()
	code := m.Run()
	shared.Lock()
	defer shared.Unlock()
	for _, b := range shared.browsers {
		b.end()
	}
	return code
}

// New returns a context for one tab of a headless Chromium with an empty
// profile, or, under Main, in a browser context of its own: storage,
// cookies and permissions start empty and end with the test.
func New(t testing.TB, o Options) context.Context {
	t.Helper()
	path := needs.Browser(t)
	timeout := o.Timeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	shared.Lock()
	on := shared.on
	shared.Unlock()
	if !on {
		dir := t.TempDir()
		b, err := start(path, dir, o.Webdriver)
		if err != nil {
			t.Fatalf("start %s: %v", path, err)
		}
		t.Cleanup(b.end)
		return tab(t, b, timeout)
	}
	shared.Lock()
	b := shared.browsers[o.Webdriver]
	if b == nil {
		dir, err := os.MkdirTemp("", "browsertest-")
		if err == nil {
			b, err = start(path, dir, o.Webdriver)
			if err != nil {
				os.RemoveAll(dir)
			}
		}
		if err != nil {
			shared.Unlock()
			t.Fatalf("start %s: %v", path, err)
		}
		end := b.end
		b.end = func() { end(); os.RemoveAll(dir) }
		shared.browsers[o.Webdriver] = b
	}
	shared.Unlock()
	return tab(t, b, timeout)
}

// start starts Chromium with its profile in dir.
func start(path, dir string, webdriver bool) (*browser, error) {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-smooth-scrolling", true),
		chromedp.Flag("no-proxy-server", true),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 800),
	}
	if !webdriver {
		opts = append(opts, chromedp.Flag("disable-blink-features", "AutomationControlled"))
	} else {
		opts = append(opts, chromedp.Flag("enable-automation", true))
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		cancelB()
		cancelA()
		return nil, err
	}
	return &browser{ctx: bctx, end: func() { cancelB(); cancelA() }}, nil
}

// tab opens a tab in a new browser context of b, closed with the test.
func tab(t testing.TB, b *browser, timeout time.Duration) context.Context {
	t.Helper()
	ctx, cancelT := context.WithTimeout(b.ctx, timeout)
	tctx, cancelTab := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
	// No steps: the first run opens the tab, already at about:blank.
	if err := chromedp.Do(tctx); err != nil {
		cancelTab()
		cancelT()
		t.Fatalf("open a tab: %v", err)
	}
	t.Cleanup(func() { cancelTab(); cancelT() })
	return tctx
}
