// Package needs gives the tests that need Chromium or a PostgreSQL server one
// rule: when it is missing they fail, saying what to install or set, unless the
// user skips them with SKIP_BROWSER=1 or SKIP_POSTGRES=1 (which
// REQUIRE_BROWSER=1 and REQUIRE_POSTGRES=1, set by CI, override). They fail
// rather than skip because go test ./... shows a skip as a bare, cached "ok".
// The first test of a package to find the thing missing fails; the others skip,
// naming it.
package needs

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
)

var (
	browser  = need{what: "browser tests", skip: "SKIP_BROWSER", require: "REQUIRE_BROWSER"}
	postgres = need{what: "PostgreSQL tests", skip: "SKIP_POSTGRES", require: "REQUIRE_POSTGRES"}
)

// Browser returns the Chromium for t to start; without one, see the package comment.
func Browser(t testing.TB) string {
	t.Helper()
	path := cmp.Or(os.Getenv("CHROME_PATH"), "/usr/bin/chromium") // where Debian installs it
	_, err := exec.LookPath(path)
	browser.check(t, err != nil, fmt.Sprintf("the browser tests need Chromium, and %s cannot be run (%v). "+
		"Install Debian's chromium (apt-get install -y chromium) or set CHROME_PATH to a Chromium or Chrome", path, err))
	return path
}

// Postgres returns the URL of the PostgreSQL server for t, from
// TEST_DATABASE_URL; without one, see the package comment.
func Postgres(t testing.TB) string {
	t.Helper()
	url := os.Getenv("TEST_DATABASE_URL")
	postgres.check(t, url == "", "the PostgreSQL tests need a server, and TEST_DATABASE_URL is not set. "+
		"Set it to one's URL (postgres://USER:PASSWORD@127.0.0.1:5432/DB?sslmode=disable, "+
		"whose role owns DB and has CREATEROLE: .ci/run makes one)")
	return url
}

// Hermetic unsets the publisher's settings (SITE_*, URL, DATABASE_URL, NETLIFY_DB_URL),
// so that no result depends on the shell: TestMain calls it where the code reads them.
func Hermetic() {
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "SITE_") || k == "URL" || k == "DATABASE_URL" || k == "NETLIFY_DB_URL" {
			os.Unsetenv(k)
		}
	}
}

// A need is what a kind of test needs, and whether one has failed for want of it.
type need struct {
	what    string // "browser tests"
	skip    string // the variable that skips them
	require string // the variable that forbids skipping them

	failed atomic.Pointer[string] // the name of the test that failed for want of it
}

// check skips t when the user chose to skip these tests; else, when the need is
// missing, it fails t saying why, or skips it if another test already failed.
func (n *need) check(t testing.TB, missing bool, why string) {
	t.Helper()
	if os.Getenv(n.skip) == "1" && os.Getenv(n.require) != "1" {
		t.Skipf("skipped: %s=1", n.skip)
	}
	if !missing {
		return
	}
	if name := t.Name(); !n.failed.CompareAndSwap(nil, &name) {
		t.Skipf("skipped: %s failed for want of what it needs", *n.failed.Load())
	}
	if os.Getenv(n.require) == "1" {
		why += fmt.Sprintf(" (%s=1 is set: these tests may not skip)", n.require)
	} else {
		why += fmt.Sprintf("; or skip the %s knowingly with %s=1", n.what, n.skip)
	}
	t.Fatal(why + ".")
}
