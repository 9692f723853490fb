// Package browsertest starts Debian's Chromium for tests, through chromedp.
// Without Chromium a test skips with a loud message, unless REQUIRE_BROWSER=1,
// when it fails: browser tests never pass silently.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"errref/internal/loudskip"
)

// Skipped counts the browser tests that skip. A package that has them
// says so at the end, without -v too:
//
//	func TestMain(m *testing.M) { loudskip.Main(m, browsertest.Skipped) }
var Skipped = loudskip.New("browser tests", "install Debian's chromium (apt-get install -y chromium) to run them; REQUIRE_BROWSER=1 makes a skip a failure")

// ExecPath is where Debian installs Chromium.
const ExecPath = "/usr/bin/chromium"

// Options choose how Chromium runs.
type Options struct {
	// Webdriver leaves navigator.webdriver true, as under automation. When
	// false, Chromium runs with AutomationControlled disabled, as a
	// person's browser does.
	Webdriver bool
	Timeout   time.Duration // for the whole test; 60 s when zero
}

func path() string {
	if p := os.Getenv("CHROME_PATH"); p != "" {
		return p
	}
	return ExecPath
}

// Available reports whether Chromium can be started.
func Available() bool {
	_, err := exec.LookPath(path())
	return err == nil
}

// New starts a fresh headless Chromium with an empty profile and returns a
// context for one tab. The browser ends with the test.
func New(t testing.TB, o Options) context.Context {
	t.Helper()
	if !Available() {
		if os.Getenv("REQUIRE_BROWSER") == "1" {
			t.Fatalf("REQUIRE_BROWSER=1 but %s is missing: apt-get install -y chromium", path())
		}
		Skipped.Skip(t, path()+" not found")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path()),
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
		t.Fatalf("start %s: %v", path(), err)
	}
	t.Cleanup(func() { cancelB(); cancelA(); cancelT() })
	return bctx
}
