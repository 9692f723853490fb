package site

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFile writes data at name under root, making its folders.
func writeFile(t *testing.T, root, name, data string) {
	t.Helper()
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// errorPage is a page with only what a writer must give.
func errorPage(title, extra string) string {
	return "+++\ntitle = \"" + title + "\"\ndescription = \"About " + title + ".\"\nupdated = 2026-12-01\n" + extra + "+++\n\nWhy.\n\n{{< marker >}}\n\nMore.\n"
}

// homeSite is the fixture without content/index.md, whose / is the
// generated index of errors, laid out by the repository's home.html.
func homeSite(t *testing.T) string {
	root := fixtureSite(t)
	os.Remove(filepath.Join(root, "content", "index.md"))
	for _, name := range []string{"home.html", "partials/errors.html", "partials/section.html", "partials/entry.html"} {
		src, err := os.ReadFile(filepath.Join("..", "..", "templates", name))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, root, "templates/"+name, string(src))
	}
	edit(t, root, "templates/base.html", `{{template "main" .}}`, `{{if .Home}}{{template "home" .}}{{else}}{{template "main" .}}{{end}}`)
	return root
}

// TestFoldersAreSections: a page in a folder is published at the folder's
// path, takes the folder as its section, and has its neighbours and
// related pages (those sharing a tag, in any case); the home page lists it
// under its section.
func TestFoldersAreSections(t *testing.T) {
	root := homeSite(t)
	writeFile(t, root, "content/zz/sample.md", errorPage("B sample", "tags = [\"net\"]\n"))
	writeFile(t, root, "content/zz/another.md", errorPage("A another", "library = \"Zed\"\n"))
	writeFile(t, root, "content/yy/deep/third.md", errorPage("C third", "tags = [\"Net\"]\n")) // one tag, in any case
	writeFile(t, root, "content/xx/bare.md", strings.Replace(errorPage("D bare", ""), "updated = 2026-12-01\n", "", 1))
	s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]*Page{}
	for _, p := range s.Pages {
		pages[p.URL] = p
	}
	for _, tc := range []struct {
		url, out, section, prev, next, related, library string
	}{
		{"/zz/sample/", "zz/sample/index.html", "zz", "/zz/another/", "", "/yy/deep/third/", "Zed"},
		{"/zz/another/", "zz/another/index.html", "zz", "", "/zz/sample/", "", "Zed"},
		{"/yy/deep/third/", "yy/deep/third/index.html", "yy/deep", "", "", "/zz/sample/", ""},
	} {
		p := pages[tc.url]
		if p == nil {
			t.Errorf("no page at %s", tc.url)
			continue
		}
		url := func(p *Link) string {
			if p == nil {
				return ""
			}
			return p.URL
		}
		var related []string
		for _, r := range p.Related {
			related = append(related, r.URL)
		}
		got := []string{p.Out, p.Section, url(p.Prev), url(p.Next), strings.Join(related, " "), p.LibraryName}
		want := []string{tc.out, tc.section, tc.prev, tc.next, tc.related, tc.library}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: out, section, prev, next, related, library = %q, want %q", tc.url, got, want)
		}
		if _, ok := s.Files[tc.out]; !ok {
			t.Errorf("%s is not written", tc.out)
		}
		if !strings.Contains(string(s.Files["index.html"]), `href=/`+strings.Trim(tc.url, "/")+`/>`) {
			t.Errorf("the home page does not link %s", tc.url)
		}
	}
	home := string(s.Files["index.html"])
	if i, j := strings.Index(home, ">yy/deep<"), strings.Index(home, ">Zed<"); i < 0 || j < 0 || i > j {
		t.Errorf("the home page does not group the pages by section, yy/deep before Zed (zz):\n%s", home)
	}
	// yy/deep names no library, which no build requires.
	if !strings.Contains(home, "<p class=meta>updated <time datetime=2026-12-01>") || strings.Contains(home, "class=meta>,") {
		t.Errorf("the entry of a page with no library does not read \"updated 1 December 2026\":\n%s", home)
	}
	// Nor does a page say nothing in an empty paragraph when it has neither.
	if strings.Contains(home, "<p class=meta></p>") {
		t.Errorf("an entry with neither a library nor a date holds an empty paragraph:\n%s", home)
	}
}

// TestASectionIsNamedAsMostOfItsPagesName: a page that names another
// library (an error two SDKs share) keeps its own on its entry, and does
// not rename its section on the index, whatever its file's name.
func TestASectionIsNamedAsMostOfItsPagesName(t *testing.T) {
	root := homeSite(t)
	writeFile(t, root, "content/ts/abort.md", errorPage("A shared", "library = \"TS and Python\"\n"))
	writeFile(t, root, "content/ts/closed.md", errorPage("B closed", "library = \"TS\"\n"))
	writeFile(t, root, "content/ts/timeout.md", errorPage("C timeout", "library = \"TS\"\n"))
	s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	home := string(s.Files["index.html"])
	if !strings.Contains(home, "<h2 id=s-ts>TS</h2>") || !strings.Contains(home, "<p class=meta>TS and Python, updated") {
		t.Errorf("the ts section is not headed TS, with the shared page's entry naming TS and Python:\n%s", home)
	}
}

// TestASectionNamedAsOftenByTwoLibrariesIsWarnedOf: one page naming the
// section's library and one naming a shared error's leave the pages that
// name none saying the first file's, maybe not the writer's: a warning
// says so; with a third naming the section's, or none naming none, none.
func TestASectionNamedAsOftenByTwoLibrariesIsWarnedOf(t *testing.T) {
	for _, tc := range []struct {
		timeout string // the third page's front matter
		warned  bool
	}{
		{"", true},
		{"library = \"TS\"\n", false},
	} {
		root := homeSite(t)
		writeFile(t, root, "content/ts/abort.md", errorPage("A shared", "library = \"TS and Python\"\n"))
		writeFile(t, root, "content/ts/closed.md", errorPage("B closed", "library = \"TS\"\n"))
		writeFile(t, root, "content/ts/timeout.md", errorPage("C timeout", tc.timeout))
		s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
		if err != nil {
			t.Fatal(err)
		}
		want := `content/ts/: its pages name "TS and Python" and "TS" as often, so its heading and its pages that name no library say "TS and Python", the first file's`
		if got := slices.ContainsFunc(s.Warnings, func(w string) bool { return strings.HasPrefix(w, want) }); got != tc.warned {
			t.Errorf("third page %q: warned %v, want %v: %q", tc.timeout, got, tc.warned, s.Warnings)
		}
	}
}

// TestEveryMarkdownFileIsPublishedOrRefused: no Markdown file is skipped.
func TestEveryMarkdownFileIsPublishedOrRefused(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"content/zz/Sample.MD", "content/zz/Sample.MD: a page's file ends in .md, in lower case"},
		{"content/zz/Index.md", "content/zz/Index.md: a folder's own page is index.md, in lower case"},
	} {
		root := homeSite(t)
		writeFile(t, root, tc.file, errorPage("X", ""))
		_, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.file, err, tc.want)
		}
	}
}

// TestASectionIsInTitleOrderWhateverTheCase: anyio.X stands between A and
// C, as a reader scanning the list looks for it, and so do its neighbours.
func TestASectionIsInTitleOrderWhateverTheCase(t *testing.T) {
	root := homeSite(t)
	for _, title := range []string{"Cz", "anyio", "Ab"} {
		writeFile(t, root, "content/zz/"+strings.ToLower(title)+".md", errorPage(title, ""))
	}
	s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range s.catalog.sections[0].Pages {
		got = append(got, p.Meta.Title)
	}
	if want := []string{"Ab", "anyio", "Cz"}; !slices.Equal(got, want) {
		t.Errorf("section zz in the order %q, want %q", got, want)
	}
}

// TestAMessageTheQuotesDoNotMakeIsRefusedAtItsLine: every message a page
// lists is made of its quotes; one that is not is named at its own line.
func TestAMessageTheQuotesDoNotMakeIsRefusedAtItsLine(t *testing.T) {
	root := homeSite(t)
	page := errorPage("X", "messages = [\n  \"ValueError: bad {what}\",\n  \"ValueError: worse\",\n]\n") +
		"\n```python cite=a/b@v1.0.0:x.py#1\nraise ValueError(f\"bad {what}\")\n```\n"
	writeFile(t, root, "content/zz/x.md", page)
	_, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	want := `content/zz/x.md:7: message "ValueError: worse": "ValueError: worse" is not made of the page's quotes`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
}

// TestARelatedPageThatIsNoneIsRefusedAtItsLine: the error names the
// line that sets related, not the file's first, and every page's in one
// build, not one a build.
func TestARelatedPageThatIsNoneIsRefusedAtItsLine(t *testing.T) {
	root := homeSite(t)
	writeFile(t, root, "content/zz/x.md", errorPage("X", "tags = [\"net\"]\nrelated = [\"/zz/none/\"]\n"))
	writeFile(t, root, "content/zz/y.md", errorPage("Y", "related = [\"/zz/gone/\", \"/zz/x\"]\n"))
	_, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	for _, want := range []string{`content/zz/x.md:6: related "/zz/none/" is no page of this site`,
		`content/zz/y.md:5: related "/zz/gone/" is no page of this site`,
		`content/zz/y.md:5: related "/zz/x" is no page of this site: write "/zz/x/", with its last /`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	}
}

// TestAnErrorPageAtTheRootIsRefused: url = "/" on an error page (a typo
// for its own path) took the index's place, and the site published with
// no index of errors and no word said; /page/2/ is the index's too.
func TestAnErrorPageAtTheRootIsRefused(t *testing.T) {
	for _, url := range []string{"/", "/page/2/"} {
		root := homeSite(t)
		writeFile(t, root, "content/zz/x.md", errorPage("X", "tags = [\"net\"]\nurl = \""+url+"\"\n"))
		writeFile(t, root, "content/zz/y.md", errorPage("Y", ""))
		_, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
		if want := `content/zz/x.md:6: url "` + url + `" is the index of errors'`; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	}
}

// TestCheckedAgainst: the checked line names, per repository in the order
// first quoted, the newest release of each major version (in the order
// internal/version holds), leaving out releases quoted as history.
func TestCheckedAgainst(t *testing.T) {
	c := func(repo, version string, history bool) Citation {
		var m Citation
		m.Repo, m.Version, m.History = repo, version, history
		return m
	}
	for _, tc := range []struct {
		name  string
		cites []Citation
		want  string
	}{
		{"nothing cited", nil, ""},
		{"one release", []Citation{c("a/x", "v1.2.0", false)}, "a/x v1.2.0"},
		{"the newest per major, by number", []Citation{c("a/x", "v1.9.0", false), c("a/x", "v1.10.0", false), c("a/x", "v2.0.0", false), c("b/y", "0.28.1", false)}, "a/x v1.10.0 and v2.0.0; b/y 0.28.1"},
		{"history left out", []Citation{c("a/x", "v1.5.0", true), c("a/x", "v1.4.0", false)}, "a/x v1.4.0"},
		{"only history", []Citation{c("a/x", "v1.5.0", true)}, ""},
		{"a candidate below its release", []Citation{c("a/x", "v2.0.0", false), c("a/x", "v2.0.0rc1", false)}, "a/x v2.0.0"},
		{"a v prefix says nothing", []Citation{c("a/x", "v1.29.0", false), c("a/x", "1.30.0", false)}, "a/x 1.30.0"},
		{"a commit named as cited, after the releases", []Citation{c("a/x", "3f2a1b9", false), c("a/x", "v1.2.0", false), c("a/x", "3f2a1b9", false)},
			"a/x v1.2.0 and 3f2a1b9"},
	} {
		var got []string
		for _, ch := range checkedAgainst(tc.cites) {
			got = append(got, ch.Repo+" "+ch.Versions)
		}
		if g := strings.Join(got, "; "); g != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, g, tc.want)
		}
	}
}

// TestAPageStatesOnlyItsOwnFacts: a page that cites nothing has no
// checked line, and a page without a buy link has no sentence about one
// in its notice. A page that names the guide (<setting:guide>) with none
// set by it or site.toml makes the build warn and -publish refuse at its
// line; a guide the page names is the one shown.
func TestAPageStatesOnlyItsOwnFacts(t *testing.T) {
	root := homeSite(t)
	for _, name := range []string{"checked", "notice", "footer"} {
		src, err := os.ReadFile(filepath.Join("..", "..", "templates", "partials", name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, root, "templates/partials/"+name+".html", string(src))
	}
	writeFile(t, root, "content/zz/sample.md", errorPage("Sample", "")+"\n{{< checked >}}\n")
	writeFile(t, root, "content/zz/offers.md", errorPage("Offers", "")+"\nThe guide, <setting:guide>: [buy it](checkout:gumroad).\n")
	// A page's checked line shows its updated, which it does not set.
	writeFile(t, root, "content/zz/dated.md", strings.Replace(errorPage("Dated", ""), "updated = 2026-12-01\n", "", 1)+
		"\n{{< checked >}}\n\n```python cite=acme/lib@v1.0.0:lib.py#1-1\nraise Dated()\n```\n")
	edit(t, root, "site.toml", `guide = "Fixture guide"`, "")
	env := map[string]string{
		"URL":                  "https://errors.lilulab.net",
		"SITE_CONTACT":         "lilu@lilulab.net",
		"SITE_STOREFRONT_URL":  "https://lilulab.gumroad.com/l/guide",
		"SITE_WALLET_ADDRESS":  "0x52908400098527886E0F7030069857D2E4169EE7",
		"SITE_PAYMENT_CONTACT": "orders@lilulab.net",
	}
	const buySentence = "Following\na link to buy the guide sends one event"
	s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	page := string(s.Files["zz/sample/index.html"])
	if strings.Contains(page, "class=checked") || strings.Contains(page, "Quotes:") {
		t.Errorf("a page that cites nothing has a checked line:\n%s", page)
	}
	if !strings.Contains(page, "What this page measures") || strings.Contains(page, buySentence) {
		t.Errorf("a page without a buy link lacks the notice, or speaks of a buy link:\n%s", page)
	}
	if !strings.Contains(strings.Join(s.Warnings, "\n"), "content/zz/offers.md:13: <setting:guide> names no guide") {
		t.Errorf("no warning of the guide unnamed: %q", s.Warnings)
	}
	if !strings.Contains(strings.Join(s.Warnings, "\n"), "content/zz/dated.md:12: {{< checked >}} shows the day") {
		t.Errorf("no warning of the checked line's day unset: %q", s.Warnings)
	}
	_, err = Build(Options{FS: os.DirFS(root), Getenv: func(k string) string { return env[k] }, Publish: true})
	if err == nil || !strings.Contains(err.Error(), "content/zz/offers.md:13: <setting:guide> names no guide") {
		t.Errorf("-publish with the guide unnamed: %v", err)
	}
	// With settings unset too, one refusal names them all, the guide's line with them.
	_, err = Build(Options{FS: os.DirFS(root), Getenv: noEnv, Publish: true})
	if err == nil || !strings.Contains(err.Error(), "settings are unset") || !strings.Contains(err.Error(), "content/zz/offers.md:13: <setting:guide> names no guide") {
		t.Errorf("-publish with settings and the guide unset names not both: %v", err)
	}
	edit(t, root, "content/zz/offers.md", "updated = ", "guide = \"Offers, the guide\"\nupdated = ")
	_, err = Build(Options{FS: os.DirFS(root), Getenv: func(k string) string { return env[k] }, Publish: true})
	if err == nil || !strings.Contains(err.Error(), "content/zz/dated.md:12: {{< checked >}} shows the day the page's quotes were checked") {
		t.Errorf("-publish with the checked line's day unset: %v", err)
	}
	edit(t, root, "content/zz/dated.md", "+++\n\n", "updated = 2026-12-01\n+++\n\n")
	s, err = Build(Options{FS: os.DirFS(root), Getenv: func(k string) string { return env[k] }, Publish: true})
	if err != nil {
		t.Fatal(err)
	}
	page = string(s.Files["zz/offers/index.html"])
	if !strings.Contains(page, "<cite>Offers, the guide</cite>") {
		t.Error("the page's guide is not the one it names")
	}
	if !strings.Contains(page, buySentence) {
		t.Errorf("a page with a buy link has no sentence about it in its notice:\n%s", page)
	}
}

// TestLinksToOtherPagesAreChecked: a link to another page, absolute or
// relative, with or without an id, must lead to a page or file the build
// makes, and to an id that page makes; else the build fails at the line.
func TestLinksToOtherPagesAreChecked(t *testing.T) {
	for _, tc := range []struct {
		link, want string // want "" builds
	}{
		{"/zz/target/", ""},
		{"/zz/target/#more", ""},
		{"../target/#more", ""},
		{"/zz/target", ""},
		{"/pay/", ""},
		{"/", ""},
		{"/no-such-page/", `content/zz/source.md:8: the link "/no-such-page/" leads to /no-such-page/, where the build makes no page`},
		{"/zz/target/#no-such-id", `content/zz/source.md:8: the link "/zz/target/#no-such-id" names #no-such-id, which /zz/target/ (content/zz/target.md) does not make`},
		{"../nowhere/", `content/zz/source.md:8: the link "../nowhere/" leads to /zz/nowhere/`},
		{"/#no-such-id", `names #no-such-id, which / (templates/home.html) does not make`},
	} {
		root := homeSite(t)
		writeFile(t, root, "content/zz/target.md", errorPage("Target", "")+"\n## More\n\nText.\n")
		writeFile(t, root, "content/zz/source.md", "+++\ntitle = \"Source\"\ndescription = \"d\"\ncounter = false\n+++\n\nIntro.\nSee [the target]("+tc.link+").\n")
		_, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.link, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.link, err, tc.want)
		}
	}
}

// TestAClickNameIsOnePages: two pages with the same copy=NAME fail the
// build, naming both files and lines.
func TestAClickNameIsOnePages(t *testing.T) {
	root := homeSite(t)
	block := "\n```python copy=copy-same\nx = 1\n```\n"
	writeFile(t, root, "content/zz/a.md", errorPage("A", "")+block)
	writeFile(t, root, "content/zz/b.md", errorPage("B", "")+"\nText.\n"+block)
	_, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	want := `content/zz/b.md:15: the click name "copy-same" is used at content/zz/a.md:13 too`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
	edit(t, root, "content/zz/b.md", "copy=copy-same", "copy=copy-other")
	if _, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv}); err != nil {
		t.Errorf("two names: %v", err)
	}
}

// TestSitemapAndBreadcrumbs: the sitemap dates each page by its updated
// (the index by its newest error page), and each error page's JSON-LD
// has its dateModified and a breadcrumb from the index.
func TestSitemapAndBreadcrumbs(t *testing.T) {
	root := homeSite(t)
	writeFile(t, root, "content/zz/sample.md", errorPage("Sample", ""))
	writeFile(t, root, "content/zz/later.md", strings.Replace(errorPage("Later", ""), "2026-12-01", "2026-12-03", 1))
	s, err := Build(Options{FS: os.DirFS(root), Getenv: func(k string) string {
		return map[string]string{"URL": "https://errors.lilulab.net"}[k]
	}})
	if err != nil {
		t.Fatal(err)
	}
	sitemap := string(s.Files["sitemap.xml"])
	for _, want := range []string{
		"<loc>https://errors.lilulab.net/zz/sample/</loc>\n    <lastmod>2026-12-01</lastmod>",
		"<loc>https://errors.lilulab.net/zz/later/</loc>\n    <lastmod>2026-12-03</lastmod>",
		"<loc>https://errors.lilulab.net/</loc>\n    <lastmod>2026-12-03</lastmod>",
	} {
		if !strings.Contains(sitemap, want) {
			t.Errorf("the sitemap lacks %q:\n%s", want, sitemap)
		}
	}
	page := string(s.Files["zz/sample/index.html"])
	for _, want := range []string{
		`"dateModified":"2026-12-01"`,
		`{"@type":"BreadcrumbList","itemListElement":[{"@type":"ListItem","item":"https://errors.lilulab.net/","name":"Error reference","position":1},{"@type":"ListItem","name":"Sample","position":2}]}`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page's JSON-LD lacks %s", want)
		}
	}
}

// TestAliasesRedirect: a page's aliases become 301s in _redirects; an
// alias that is a built page, or that two pages claim, fails the build.
func TestAliasesRedirect(t *testing.T) {
	for _, tc := range []struct {
		aliases, other, want string // want: in _redirects, or in the error
		fails                bool
	}{
		{`["/old/", "/older/name/"]`, "", "/old/ /zz/sample/ 301\n/older/name/ /zz/sample/ 301\n", false},
		{`["/pay/"]`, "", `content/zz/sample.md:5: alias "/pay/" is public/pay/index.html, which the build writes`, true},
		{`["/old/"]`, `["/old/"]`, `alias "/old/" is claimed by content/zz/other.md:5 too`, true},
		{`["old"]`, "", `content/zz/sample.md:5: alias "old" must be a path`, true},
		// A writer's own _redirects is never replaced without a word.
		{`["/old/"]`, "static", `static/_redirects: the build writes _redirects itself, from the pages' aliases (content/zz/sample.md:5)`, true},
	} {
		root := homeSite(t)
		writeFile(t, root, "content/zz/sample.md", errorPage("Sample", "aliases = "+tc.aliases+"\n"))
		if tc.other == "static" {
			writeFile(t, root, "static/_redirects", "/from /to 302\n")
		} else if tc.other != "" {
			writeFile(t, root, "content/zz/other.md", errorPage("Other", "aliases = "+tc.other+"\n"))
		}
		s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
		switch {
		case tc.fails && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.aliases, err, tc.want)
		case !tc.fails && err != nil:
			t.Errorf("%s: %v", tc.aliases, err)
		case !tc.fails && !strings.HasSuffix(string(s.Files["_redirects"]), tc.want):
			t.Errorf("%s: _redirects is %q, want it to end %q", tc.aliases, s.Files["_redirects"], tc.want)
		}
	}
}

// TestACounterPageLoadsNoFilter: the index may load /filter.js; a page
// with the counter that does fails the build, the counter being its only
// script, as its notice says.
func TestACounterPageLoadsNoFilter(t *testing.T) {
	root := homeSite(t)
	writeFile(t, root, "measure/filter.js", "(function(){})();\n")
	writeFile(t, root, "content/zz/sample.md", errorPage("Sample", ""))
	edit(t, root, "templates/base.html", "</head>", "{{if .Home}}<script src=\"/filter.js\" defer></script>{{end}}</head>")
	s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(s.Files["index.html"]), "<script src=/filter.js defer>") || s.Files["filter.js"] == nil {
		t.Error("the index does not load /filter.js, or the build does not make it")
	}
	edit(t, root, "templates/base.html", "{{if .Home}}<script", "{{if true}}<script")
	_, err = Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err == nil || !strings.Contains(err.Error(), "loads /filter.js, which a page with the counter may not") {
		t.Errorf("an error page loading the filter: %v", err)
	}
}

// TestAMessageRefusalNamesThePartNoQuoteHolds: a Python traceback's last
// line names the class with its module ("quiver.PoolClosed: pool is
// closed"); the page quotes the line that raises it. The refusal said the
// whole run "quiver.PoolClosed: pool is closed" is not made of the quotes
// and advised quoting the line that prints it, which the page does: it
// must name what no quote holds, "quiver.", so the writer knows to drop it
// (the box finds the line without it) or mark it.
func TestAMessageRefusalNamesThePartNoQuoteHolds(t *testing.T) {
	root := homeSite(t)
	page := errorPage("X", "messages = [\"quiver.PoolClosed: pool is closed\"]\n") +
		"\n```python cite=acme/quiver@v2.3.0:src/quiver/pool.py#121\nraise PoolClosed(\"pool is closed\")\n```\n"
	writeFile(t, root, "content/zz/x.md", page)
	_, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err == nil {
		t.Fatal("the message was accepted")
	}
	if !strings.Contains(err.Error(), `"quiver."`) {
		t.Errorf("error %q does not name \"quiver.\", the only part no quote holds", err)
	}
}
