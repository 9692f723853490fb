// Package browsertest starts Debian's Chromium for tests, through chromedp;
// without it, a test fails or skips as package needs says.
package browsertest

import (
	"context"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"

	"errref/internal/needs"
)

// Options choose how Chromium runs.
type Options struct {
	// Webdriver leaves navigator.webdriver true, as under automation. When false,
	// Chromium runs with AutomationControlled disabled, as a person's browser does.
	Webdriver bool
}

// shared holds the browsers a package's tests share under Main, one for each
// value of Options.Webdriver, a command-line flag.
var shared struct {
	sync.Mutex
	browsers map[bool]*browser // nil outside Main
}

type browser struct {
	ctx context.Context
	end func()
}

// Main runs a package's tests with one Chromium for them all, which takes half
// a second to start, most of a short browser test. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(browsertest.Main(m)) }
func Main(m *testing.M) int {
	shared.browsers = map[bool]*browser{} // before any test starts
	code := m.Run()
	for _, b := range shared.browsers { // every test has ended
		b.end()
	}
	return code
}

// New returns a context for one tab of a headless Chromium, in a browser context
// of its own, whose storage, cookies and permissions start empty. TestMain must call Main.
func New(t testing.TB, o Options) context.Context {
	t.Helper()
	path := needs.Browser(t)
	if shared.browsers == nil { // set before any test starts, so read unlocked
		t.Fatal("browsertest.New needs browsertest.Main in the package's TestMain")
	}
	shared.Lock()
	b, err := shared.browsers[o.Webdriver], error(nil)
	if b == nil {
		if b, err = start(path, o.Webdriver); err == nil {
			shared.browsers[o.Webdriver] = b
		}
	}
	shared.Unlock()
	if err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	// No deadline: a test over every page takes longer as the catalog grows.
	tctx, cancelTab := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancelTab)
	// No steps: the first run opens the tab, already at about:blank.
	if err := chromedp.Do(tctx); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	return tctx
}

// start starts Chromium, its profile in a temporary folder chromedp removes.
func start(path string, webdriver bool) (*browser, error) {
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
		chromedp.WindowSize(1280, 800),
		chromedp.Flag("enable-automation", webdriver), // false: no flag
	}
	if !webdriver {
		opts = append(opts, chromedp.Flag("disable-blink-features", "AutomationControlled"))
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	end := func() { cancelB(); cancelA() }
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		end()
		return nil, err
	}
	return &browser{ctx: bctx, end: end}, nil
}
