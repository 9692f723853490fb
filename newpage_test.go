package errref_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"errref/internal/browsertest"
	"errref/internal/site"
)

// tlsRequired is a valid error page a publisher wrote for a made-up
// library: its title and message end in a URL parameter, as many
// messages that say what to add do.
const tlsRequired = `+++
title = "quiver.TlsRequired: server requires TLS; add ?tls=require"
description = "Why quiver raises TlsRequired: the URL has no tls parameter."
updated = 2026-12-01
library = "Quiver (Python)"
messages = ["TlsRequired: server requires TLS; add ?tls=require"]
+++

{{< checked >}}

Quiver raises it here:

` + "```python cite=acme/quiver@v2.3.0:src/quiver/auth.py#44-44\nraise TlsRequired(\"server requires TLS; add ?tls=require\")\n```" + `

## What we checked

Quotes were checked at the tag in their link.

{{< marker >}}

More.
`

// buildWithPage builds this site with one more page, in a copy of its folders.
func buildWithPage(t *testing.T, name, page string) *site.Site {
	t.Helper()
	s, err := tryWithPage(t, name, page)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func tryWithPage(t *testing.T, name, page string) (*site.Site, error) {
	t.Helper()
	root := t.TempDir()
	for _, dir := range []string{"content", "templates", "static", "measure"} {
		if err := os.CopyFS(filepath.Join(root, dir), os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
	}
	for _, file := range []string{"site.toml", name} {
		data := []byte(page)
		if file == "site.toml" {
			var err error
			if data, err = os.ReadFile(file); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, file)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, file), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return site.Build(site.Options{FS: os.DirFS(root), Getenv: func(k string) string { return publishEnv[k] }})
}

// TestATitleWithAParameterWrapsWhole: the build accepts the page, and then
// TestNamesWrapWhole fails on it once it is in content/: at 412 px Chromium
// ends the title's line after "?" ("add ?" / "tls=require"), inside the
// name a reader would copy. A valid new page must not break a test: the
// build keeps the parameter whole, as it keeps "{ whole (linebreak.HTML).
func TestATitleWithAParameterWrapsWhole(t *testing.T) {
	s := buildWithPage(t, filepath.Join("content", "quiver", "tls-required.md"), tlsRequired)
	srv := serve(t, s)
	ctx := browsertest.New(t, browsertest.Options{})
	for _, width := range []int64{320, 360, 375, 412} {
		look(t, ctx, srv.URL+"/quiver/tls-required/", width, "light")
		// The top of the line box of each character of the h1.
		tops, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
			const h = document.querySelector("h1"), tops = [];
			const walk = document.createTreeWalker(h, NodeFilter.SHOW_TEXT);
			for (let n = walk.nextNode(); n; n = walk.nextNode()) {
				for (let i = 0; i < n.data.length; i++) {
					const r = document.createRange();
					r.setStart(n, i); r.setEnd(n, i + 1);
					const box = r.getClientRects()[0];
					tops.push(box ? box.top : -1);
				}
			}
			return tops;
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		title := "quiver.TlsRequired: server requires TLS; add ?tls=require"
		if len(tops) != len(title) {
			t.Fatalf("the h1 has %d characters, want the title's %d", len(tops), len(title))
		}
		q := len(title) - len("?tls=require")
		if tops[q+1] > tops[q] {
			t.Errorf("at %d px the title's line ends after %q, inside \"?tls=require\"", width, title[:q+1])
		}
	}
}

// TestASectionPageWithTheBoxIsToldWhatToDo: a writer gives a section a
// page of its own with the index's box, as docs/writing.md offers
// ({{< errors >}}, "the box that searches the index of errors"). The page
// has the counter by default, so the build refuses it; the refusal named
// `templates/base.html:30 (rendering content/quiver/index.md)` and stated
// the rule, not what to do. It must name the writer's file and the fix:
// counter = false, as the not-found page has.
func TestASectionPageWithTheBoxIsToldWhatToDo(t *testing.T) {
	page := "+++\ntitle = \"Quiver errors\"\ndescription = \"The errors quiver raises.\"\n+++\n\nEvery error quiver raises.\n\n{{< errors >}}\n\n{{< marker >}}\n"
	_, err := tryWithPage(t, filepath.Join("content", "mcp", "index.md"), page)
	if err == nil {
		t.Fatal("a page with the counter and the box was built")
	}
	for _, want := range []string{"content/mcp/index.md:", "counter = false"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if strings.HasPrefix(err.Error(), "templates/") {
		t.Errorf("error %q starts with a template the writer did not touch", err)
	}
}

// TestTheDocsNameOnlyMarksTheSiteHas: a writer who follows a mark the
// docs or site.toml's comments name, {{< NAME >}}, gets its partial, not
// a failed build.
func TestTheDocsNameOnlyMarksTheSiteHas(t *testing.T) {
	docs, _ := filepath.Glob("docs/*.md")
	for _, f := range append(docs, "README.md", "site.toml") {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`{{< ([a-z]+) >}}`).FindAllStringSubmatch(string(src), -1) {
			if _, err := os.Stat("templates/partials/" + m[1] + ".html"); err != nil {
				t.Errorf("%s names %s, which templates/partials/ does not hold", f, m[0])
			}
		}
	}
}

// TestAnUnsetPublisherIsShownUnset: without a publisher the pages said
// "Published by , an autonomous agent lab"; they show the placeholder other
// unset settings show, and the build warns (so -publish refuses).
func TestAnUnsetPublisherIsShownUnset(t *testing.T) {
	root := t.TempDir()
	for _, dir := range []string{"content", "templates", "static", "measure"} {
		if err := os.CopyFS(filepath.Join(root, dir), os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
	}
	toml, err := os.ReadFile("site.toml")
	if err != nil {
		t.Fatal(err)
	}
	toml = regexp.MustCompile(`(?m)^publisher = .*$`).ReplaceAll(toml, []byte(`publisher = " "`))
	if err := os.WriteFile(filepath.Join(root, "site.toml"), toml, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := site.Build(site.Options{FS: os.DirFS(root), Getenv: func(k string) string { return publishEnv[k] }})
	if err != nil {
		t.Fatal(err)
	}
	page := string(s.Files["mcp/mcperror/index.html"])
	if strings.Contains(page, "Published by ,") || !strings.Contains(page, "[publisher is not set]") {
		t.Errorf("the footer without a publisher:\n%s", page[max(0, strings.Index(page, "<footer")):])
	}
	if !strings.Contains(strings.Join(s.Warnings, "\n"), "publisher") {
		t.Errorf("no warning of the publisher unset: %q", s.Warnings)
	}
}
