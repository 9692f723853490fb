package site

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fixtureSite copies testdata/fixture, a small site of three pages that
// builds, into a temp dir for a test to break. Its lines are the tests'
// own: no test that uses it changes when the real page does.
func fixtureSite(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "site")
	if err := os.CopyFS(dst, os.DirFS(filepath.Join("testdata", "fixture"))); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestFixtureBuilds: the fixture passes as it is, so each case below
// fails for the one thing it breaks.
func TestFixtureBuilds(t *testing.T) {
	s, err := Build(Options{FS: os.DirFS(fixtureSite(t)), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"index.html", "404.html", "pay/index.html", "measure.js", "robots.txt"} {
		if _, ok := s.Files[name]; !ok {
			t.Errorf("the fixture's build lacks %s", name)
		}
	}
}

// TestBadInput: the build refuses each broken site with the file and line
// to fix, and gives no site. The packages test their own checks
// (frontmatter, markdown, htmlcheck); here are what the build adds: the
// file's name on a package's error, the line of a problem found in the
// finished HTML, and the checks of the site as a whole.
func TestBadInput(t *testing.T) {
	write := func(t *testing.T, root, name, data string) {
		t.Helper()
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name   string
		break_ func(t *testing.T, root string)
		want   string // in the error
	}{
		// A package's error, with the file's name.
		{"front matter error", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "noindex = true\n+++\n", "noindex = true\n")
		}, "content/404.md:1: front matter is not closed"},
		{"Markdown error", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "Nothing lives", "# Title\n\nNothing lives")
		}, "content/404.md:8: a page has one h1"},
		{"partial missing from Markdown", func(t *testing.T, r string) {
			edit(t, r, "content/index.md", "{{< offer >}}", "{{< ofer >}}")
		}, `content/index.md:16: {{< ofer >}}: no partial "ofer": add templates/partials/ofer.html`},

		{"history that nothing quotes", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "noindex = true\n", "noindex = true\nhistory = [\"acme/lib@v1.0.0\"]\n")
		}, "content/404.md:6: history names acme/lib@v1.0.0, which no citation of this page quotes"},

		// A problem in the finished HTML, at the line that made it.
		{"problem made by the page", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "[home](/)", "[home](#nowhere)")
		}, "content/404.md:8: the link to #nowhere names no id"},
		{"problem made by the page, at its fence", func(t *testing.T, r string) {
			edit(t, r, "content/index.md", "copy=copy-x", `copy=copy-x label="Copy"`)
		}, `content/index.md:12: the click control "copy-x" reads "Copy"`},
		{"problem made by a template", func(t *testing.T, r string) {
			edit(t, r, "templates/partials/offer.html", `data-checkout="site"`, `data-checkout="stripe"`)
		}, `templates/partials/offer.html:2 (rendering content/index.md): the checkout word "stripe"`},
		{"problem that no line makes", func(t *testing.T, r string) {
			edit(t, r, "content/index.md", "{{< marker >}}", "")
		}, "content/index.md:1: the page loads /measure.js and has 0 elements with data-measure-marker"},
		{"a counter of a release before 4952992, whose endpoint the build filled in", func(t *testing.T, r string) {
			edit(t, r, "measure/measure.js", `"/api/event"`, `"__ENDPOINT__"`)
		}, `measure/measure.js: holds "__ENDPOINT__"`},
		{"another script in a template", func(t *testing.T, r string) {
			edit(t, r, "templates/base.html", "</body>", `<script src="/x.js"></script></body>`)
		}, `(rendering content/404.md): a <script> other than <script src="/measure.js" defer>`},
		{"heading id that a template makes", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "Nothing lives", "## Main\n\nNothing lives")
		}, `content/404.md:8: the id "main" is used twice (this line makes it, and so does a template or another line)`},
		{"heading id that a code block makes", func(t *testing.T, r string) {
			edit(t, r, "content/index.md", "## The section", "## Code 1")
		}, `content/index.md:10: the id "code-1" is used twice`},

		// Templates.
		{"template does not parse", func(t *testing.T, r string) {
			edit(t, r, "templates/page.html", "{{.Page.Body}}", "{{.Page.Body")
		}, "templates/page.html:4: unexpected"},
		{"missing partial", func(t *testing.T, r string) {
			edit(t, r, "templates/base.html", `{{template "footer" .}}`, `{{template "footr" .}}`)
		}, `templates/base.html:16: names the partial "footr"`},
		{"template that fails while running", func(t *testing.T, r string) {
			edit(t, r, "templates/base.html", "{{.Site.Publisher}}</a>", "{{.Site.Publisher.Nope}}</a>")
		}, "templates/base.html:12: executing \"base\" at <.Site.Publisher.Nope>: can't evaluate field Nope in type string (rendering content/404.md, content/index.md, content/pay.md)"},
		{"template that fails on every page of a catalog", func(t *testing.T, r string) {
			data, _ := os.ReadFile(filepath.Join(r, "content", "404.md"))
			write(t, r, "content/a.md", strings.Replace(string(data), "+++\n", "+++\nurl = \"/a/\"\n", 1))
			write(t, r, "content/b.md", strings.Replace(string(data), "+++\n", "+++\nurl = \"/b/\"\n", 1))
			edit(t, r, "templates/base.html", "{{.Site.Publisher}}</a>", "{{.Site.Publisher.Nope}}</a>")
		}, "in type string (rendering content/404.md, content/a.md, content/b.md and 2 more pages)"},
		{"template that never ends", func(t *testing.T, r string) {
			// It writes, so it stops once the build gives up (one that
			// writes nothing would spin for the rest of the test binary).
			edit(t, r, "templates/page.html", "{{.Page.Body}}", "{{.Page.Body}}\n{{range 100000000000}}.{{end}}")
		}, "templates/page.html:4: took longer than 1s to render: this {{range}} may not end"},

		// The pages as a whole.
		{"empty content", func(t *testing.T, r string) {
			for _, n := range []string{"index.md", "pay.md", "404.md"} {
				os.Remove(filepath.Join(r, "content", n))
			}
		}, "content/: no pages"},
		{"home page missing", func(t *testing.T, r string) {
			os.Remove(filepath.Join(r, "content", "index.md"))
		}, "content/index.md: missing, and templates/ has no home.html to lay out the index of errors"},
		{"home page in another case", func(t *testing.T, r string) {
			// Removed and written anew: a rename that changes only the
			// case does nothing under Wine.
			data, _ := os.ReadFile(filepath.Join(r, "content", "index.md"))
			os.Remove(filepath.Join(r, "content", "index.md"))
			write(t, r, "content/Index.md", string(data))
		}, "content/Index.md: a folder's own page is index.md, in lower case: rename it to index.md"},
		{"a page's extension in capitals", func(t *testing.T, r string) {
			data, _ := os.ReadFile(filepath.Join(r, "content", "404.md"))
			write(t, r, "content/notes.MD", string(data))
		}, "content/notes.MD: a page's file ends in .md, in lower case: rename it to notes.md"},
		{"a page named .markdown", func(t *testing.T, r string) {
			data, _ := os.ReadFile(filepath.Join(r, "content", "404.md"))
			write(t, r, "content/notes.markdown", string(data))
		}, "content/notes.markdown: a page's file ends in .md, in lower case: rename it to notes.md"},
		// Notepad adds .txt to a name typed without quotes, and Explorer
		// hides it: the page was left out, the build saying nothing.
		{"a page saved by Notepad as .md.txt", func(t *testing.T, r string) {
			data, _ := os.ReadFile(filepath.Join(r, "content", "404.md"))
			write(t, r, "content/notes.md.txt", string(data))
		}, "content/notes.md.txt: a page's file ends in .md, not .txt"},
		// A page's path is its file's name: a name that a URL cannot hold
		// as it is refused there, not at the links to it, or published
		// into _redirects and the sitemap as it is.
		{"a page's name with a space", func(t *testing.T, r string) {
			data, _ := os.ReadFile(filepath.Join(r, "content", "404.md"))
			write(t, r, "content/two words.md", string(data))
		}, `content/two words.md:1: the page's path "/two words/", made of its file's name, may hold only letters, digits and - _ . ~ between slashes, and no dot last, which Windows drops: rename the file, or set url`},
		// An editor saving in Windows-1252 (Notepad before 2019, a code
		// page's default): content/ refused it, while a template's or
		// site.toml's \xe9 went into every page, which browsers show as \ufffd.
		{"a template not in UTF-8", func(t *testing.T, r string) {
			edit(t, r, "templates/partials/footer.html", "Published by", "Publi\xe9 by")
		}, "templates/partials/footer.html:1: not UTF-8 at byte 16: save the file as UTF-8"},
		{"site.toml not in UTF-8", func(t *testing.T, r string) {
			edit(t, r, "site.toml", `publisher = "Fixture"`, "publisher = \"Fixtur\xe9\"")
		}, "site.toml:3: not UTF-8 at byte"},
		{"a section's name with a #", func(t *testing.T, r string) {
			data, _ := os.ReadFile(filepath.Join(r, "content", "404.md"))
			write(t, r, "content/c#/x.md", string(data))
		}, `content/c#/x.md:1: the page's path "/c#/x/", made of its file's name`},
		// Windows drops a name's last dot: it wrote pay./ into pay/, over that page.
		{"a page's name ending in a dot", func(t *testing.T, r string) {
			data, _ := os.ReadFile(filepath.Join(r, "content", "404.md"))
			write(t, r, "content/pay..md", string(data))
		}, `content/pay..md:1: the page's path "/pay./", made of its file's name, may hold only letters, digits and - _ . ~ between slashes, and no dot last, which Windows drops: rename the file`},
		{"home page moved off /", func(t *testing.T, r string) {
			edit(t, r, "content/index.md", "+++\ntitle", "+++\nurl = \"/x/\"\ntitle")
		}, "content/index.md: missing, and templates/ has no home.html to lay out the index of errors"},
		{"two pages, one output", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "noindex = true", "noindex = true\nurl = \"/pay/\"")
		}, "content/pay.md:1: this page and content/404.md both map to public/pay/index.html"},
		{"url under a file", func(t *testing.T, r string) {
			edit(t, r, "content/pay.md", "counter = false", "counter = false\nurl = \"/404.html/\"")
		}, "content/pay.md:5: the page would be written to public/404.html/index.html, but public/404.html is a file"},
		{"static file at a page's path", func(t *testing.T, r string) {
			write(t, r, "static/pay/index.html", "<!doctype html><title>x</title>")
		}, "content/pay.md:1: the page would be written to public/pay/index.html, which the build already writes"},
		{"static folder at a page's path", func(t *testing.T, r string) {
			write(t, r, "static/pay/index.html/b.txt", "b")
			write(t, r, "static/pay/index.html/a.txt", "a")
		}, "content/pay.md:1: the page would be written to public/pay/index.html, which public/pay/index.html/a.txt needs as a folder"},
		{"a url and a file name that differ only in case", func(t *testing.T, r string) {
			data, _ := os.ReadFile(filepath.Join(r, "content", "404.md"))
			write(t, r, "content/guide.md", string(data))
			edit(t, r, "content/pay.md", "counter = false", "counter = false\nurl = \"/Guide/\"")
		}, `content/guide.md:1: writes public/guide/index.html, and content/pay.md:5 writes public/Guide/index.html: "guide/index.html" and "Guide/index.html" differ only in case`},
		{"two urls that differ only in case", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "noindex = true", "noindex = true\nurl = \"/PAY/\"")
		}, `content/pay.md:1: writes public/pay/index.html, and content/404.md:6 writes public/PAY/index.html`},
		{"a page and a static folder that differ only in case", func(t *testing.T, r string) {
			write(t, r, "static/Pay/qr.txt", "x")
		}, `content/pay.md:1: writes public/pay/index.html, and static/Pay/qr.txt writes public/Pay/qr.txt: "pay" and "Pay" differ only in case`},
		{"a static file and a generated one that differ only in case", func(t *testing.T, r string) {
			write(t, r, "static/Robots.txt", "x")
		}, `static/Robots.txt: writes public/Robots.txt, and the build's robots.txt writes public/robots.txt`},

		// static/.
		{"a script in static", func(t *testing.T, r string) {
			write(t, r, "static/x.js", "1")
		}, "static/x.js: scripts are not copied"},
		{"a script in static, in capitals", func(t *testing.T, r string) {
			write(t, r, "static/x.JS", "1")
		}, "static/x.JS: scripts are not copied"},
		{"static HTML with a script", func(t *testing.T, r string) {
			write(t, r, "static/page.html", "<!doctype html>\n<p>hi\n<script>alert(1)</script>")
		}, "static/page.html:3: a <script> other than"},
		{"static SVG with a handler", func(t *testing.T, r string) {
			write(t, r, "static/x.svg", `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>`)
		}, "static/x.svg:1: <svg onload=...>: inline event handlers are not allowed"},

		{"static/ itself a link", func(t *testing.T, r string) {
			os.Rename(filepath.Join(r, "static"), filepath.Join(r, "assets"))
			link(t, "assets", filepath.Join(r, "static"))
		}, "static/: a link, not a folder"},
		// fs.WalkDir does not follow it: the build passed without the folder's pages.
		{"a folder of content/ a link", func(t *testing.T, r string) {
			writeFile(t, r, "guides/guide.md", "+++\ntitle = \"A guide\"\n+++\n\nA guide.\n")
			link(t, filepath.Join("..", "guides"), filepath.Join(r, "content", "guides"))
		}, "content/guides: a link to a folder"},

		// site.toml.
		// The counter posted there, and neither the preview nor netlify.toml took it: every event lost.
		{"endpoint other than /api/event", func(t *testing.T, r string) {
			edit(t, r, "site.toml", `endpoint = "/api/event"`, `endpoint = "/e"`)
		}, `endpoint "/e" must be /api/event`},
		{"endpoint a browser resolves off-site", func(t *testing.T, r string) {
			edit(t, r, "site.toml", `endpoint = "/api/event"`, `endpoint = "/\r/evil.example/collect"`)
		}, `endpoint "/\r/evil.example/collect" must be /api/event`},
		{"publish with settings unset", nil, "refusing to publish while these settings are unset: base_url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := fixtureSite(t)
			publish := tc.break_ == nil
			if tc.break_ != nil {
				tc.break_(t, root)
			}
			s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Publish: publish, Timeout: time.Second})
			if err == nil {
				t.Fatalf("the build passed; want an error with %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error:\n%v\nwant it to hold %q", err, tc.want)
			}
			if s != nil {
				t.Error("a failed build gave a site")
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

// link makes a symbolic link, or skips the test where none can be made.
func link(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Skipf("no symbolic link: %v", err)
	}
	// Wine's os.Symlink returns nil and makes nothing.
	if fi, err := os.Lstat(name); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Skipf("os.Symlink made no link here (%v)", err)
	}
}
