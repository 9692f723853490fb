package site

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestARunawayPartialOfTheIndexStops: -timeout reports a template that
// never ends in each template, the partials that lay out the index of
// errors too: entries runs entry.html and section.html to weigh each entry
// before any page renders. (A failure here leaves the runaway template
// running until the test binary ends.)
func TestARunawayPartialOfTheIndexStops(t *testing.T) {
	for _, tc := range []struct{ file, old string }{
		{"templates/partials/entry.html", `<li><a href="{{.URL}}">`},
		{"templates/partials/section.html", `<ul class="errors">`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			root := benchSite(t, 3)
			edit(t, root, tc.file, tc.old, "{{range 100000000000}}.{{end}}"+tc.old)
			done := make(chan error, 1)
			go func() {
				_, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Timeout: 300 * time.Millisecond})
				done <- err
			}()
			select {
			case err := <-done:
				if err == nil || !strings.Contains(err.Error(), "took longer than 300ms") {
					t.Fatalf("err = %v, want the time out", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("the build with -timeout 300ms has not ended 10 s later: a {{range}} in %s runs for ever", tc.file)
			}
		})
	}
}

// TestACaseClashWithFilterJSNamesThePageFirst: in a case clash the
// writer's file comes first, as the one to rename (see checkCase): the
// page's url, not measure/filter.js, which the build reads by that name
// only (renamed, the index's filter is silently gone).
func TestACaseClashWithFilterJSNamesThePageFirst(t *testing.T) {
	root := fixtureSite(t)
	edit(t, root, "content/404.md", "noindex = true", "noindex = true\nurl = \"/Filter.js/\"")
	if err := os.WriteFile(root+"/measure/filter.js", []byte("console.log(1)"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	want := "content/404.md:6: writes public/Filter.js/index.html, and measure/filter.js writes public/filter.js"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("err = %v\nwant it to begin %q", err, want)
	}
}

// TestACaseClashWithRedirectsNamesTheFileFirst: static/_Redirects beside
// pages' aliases is a clash with the build's _redirects; the error begins
// with the writer's file, as every build error begins with a file to fix,
// not with "the build's _redirects".
func TestACaseClashWithRedirectsNamesTheFileFirst(t *testing.T) {
	root := homeSite(t)
	writeFile(t, root, "content/zz/sample.md", errorPage("Sample", "aliases = [\"/old/\"]\n"))
	writeFile(t, root, "static/_Redirects", "/from /to 302\n")
	_, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	want := "static/_Redirects: writes public/_Redirects, and the build's _redirects writes public/_redirects"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("err = %v\nwant it to begin %q", err, want)
	}
}

// TestAnEditorsLockInTemplatesIsSkipped: Emacs's lock beside a template
// with unsaved changes, .#page.html, a link that points nowhere, is not
// the author's (see Ignored) and must not fail the build; the preview,
// which skips its events, would otherwise keep the failure it causes.
func TestAnEditorsLockInTemplatesIsSkipped(t *testing.T) {
	root := fixtureSite(t)
	if err := os.Symlink("user@host.4242:1700000000", root+"/templates/.#page.html"); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if _, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv}); err != nil {
		t.Fatal(err)
	}
}
