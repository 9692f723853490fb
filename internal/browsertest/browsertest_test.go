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
