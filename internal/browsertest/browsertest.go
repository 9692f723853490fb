// Package browsertest starts Debian's Chromium for tests, through chromedp.
// Without Chromium a test fails saying what to install, unless the user
// chose to skip browser tests with SKIP_BROWSER=1 (package needs).
package browsertest

import (
	"context"
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

// New starts a fresh headless Chromium with an empty profile and returns a
// context for one tab. The browser ends with the test.
func New(t testing.TB, o Options) context.Context {
	t.Helper()
	path := needs.Browser(t)
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
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 800),
	}
	if !o.Webdriver {
		opts = append(opts, chromedp.Flag("disable-blink-features", "AutomationControlled"))
	} else {
		opts = append(opts, chromedp.Flag("enable-automation", true))
	}
	timeout := o.Timeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	ctx, cancelT := context.WithTimeout(context.Background(), timeout)
	actx, cancelA := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		cancelB()
		cancelA()
		cancelT()
		t.Fatalf("start %s: %v", path, err)
	}
	t.Cleanup(func() { cancelB(); cancelA(); cancelT() })
	return bctx
}
