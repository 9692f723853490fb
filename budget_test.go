package errref_test

import (
	"os"
	"testing"

	"errref/internal/site"
)

// netlifyEnv is every setting as Netlify's build has it: the site's
// domain, and values as long as real ones for those not given yet (a
// Gumroad listing, a wallet address, a mailbox, a guide's title), since
// each is shown on the pages.
var netlifyEnv = map[string]string{
	"URL":                  "https://errors.lilulab.ai",
	"SITE_STOREFRONT_URL":  "https://lilulab.gumroad.com/l/mcp-errors-guide",
	"SITE_WALLET_ADDRESS":  "0x52908400098527886E0F7030069857D2E4169EE7",
	"SITE_PAYMENT_CONTACT": "payments@lilulab.ai",
	"SITE_GUIDE":           "Step and turn: finishing agent runs within their cap",
}

// TestPublishedPagesFit: built as Netlify builds it, every page, the
// McpError page first, fits one round trip with its CSS and script, or
// go run ./cmd/build -publish refuses to deploy it (issue 46). A page
// over the budget fails here first.
func TestPublishedPagesFit(t *testing.T) {
	s, err := site.Build(site.Options{FS: os.DirFS("."), Getenv: func(k string) string { return netlifyEnv[k] }, Publish: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CheckBudget(); err != nil {
		t.Fatal(err)
	}
	r, err := s.Sizes()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("heaviest page: %s, %d B gzip with its CSS and script, %d B under the budget", r.Critical.URL, r.Critical.Gzip, site.CriticalBudget-r.Critical.Gzip)
}
