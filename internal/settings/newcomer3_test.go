package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestABadValueIsNamedWhereItWasSet: a value that an environment variable
// set (Netlify's UI, or SITE_* in a shell) is not in site.toml, whose line
// says base_url = "": the error must name the variable, or the writer
// edits the wrong file. Seen with SITE_BASE_URL=errors.quiverdb.dev
// go run ./cmd/build -publish, which said
// `site.toml: base_url "errors.quiverdb.dev" must be an absolute http(s) URL`.
func TestABadValueIsNamedWhereItWasSet(t *testing.T) {
	for _, tc := range []struct{ env, value string }{
		{"SITE_BASE_URL", "errors.quiverdb.dev"},
		{"URL", "errors.quiverdb.dev"},
		{"SITE_PAYMENT_CONTACT", "mailto:pay@quiverdb.dev"},
		{"SITE_WALLET_ADDRESS", "0x8ba1f109551bd432803012645ac136ddd64dba7"},
		{"SITE_STOREFRONT_URL", "http://quiverlab.gumroad.com/l/quiver-guide"},
	} {
		t.Run(tc.env, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, File), []byte("base_url = \"\"\npayment_contact = \"\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(os.DirFS(dir), func(k string) string {
				if k == tc.env {
					return tc.value
				}
				return ""
			})
			if err == nil {
				t.Fatalf("%s=%s was accepted", tc.env, tc.value)
			}
			if !strings.Contains(err.Error(), tc.env) {
				t.Errorf("%s=%s: error %q does not name %s, which set the value", tc.env, tc.value, err, tc.env)
			}
		})
	}
}

// TestABaseURLWithAPathIsRefused: every page links the site's files from
// the root (/style.css, /measure.js, /quiver/deadlock/), so a site can only
// be published at a host's root; a base_url with a path makes every
// canonical link, og:url, sitemap entry and robots.txt's Sitemap line name
// an address the site does not serve there, and -publish accepted it.
func TestABaseURLWithAPathIsRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, File), []byte("base_url = \"https://errors.quiverdb.dev/docs\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(os.DirFS(dir), func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "base_url") {
		t.Errorf("Load() error = %v, want base_url with a path refused", err)
	}
}
