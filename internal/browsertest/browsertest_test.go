package browsertest

import (
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// TestEachTestStartsEmpty: what one test leaves in the shared browser (a
// cookie, local storage) is not there for the next.
func TestEachTestStartsEmpty(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<!doctype html><title>x</title>"))
	}))
	defer srv.Close()
	for i := range 2 {
		t.Run("", func(t *testing.T) {
			ctx := New(t, Options{})
			if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
				t.Fatal(err)
			}
			got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.cookie + (localStorage.getItem("k") || "")`))
			if err != nil {
				t.Fatal(err)
			}
			if got != "" {
				t.Errorf("test %d found %q left by the one before", i, got)
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.cookie = "c=1"; localStorage.setItem("k", "v"); ""`)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestATabLastsAsLongAsItsTest: the root package's browser tests visit
// every page, so a tab with a deadline of its own fails them once the
// catalog grows or the machine is busy; go test's -timeout bounds a hang.
func TestATabLastsAsLongAsItsTest(t *testing.T) {
	if d, ok := New(t, Options{}).Deadline(); ok {
		t.Errorf("a tab ends at %v, whatever its test still has to visit", d)
	}
}
