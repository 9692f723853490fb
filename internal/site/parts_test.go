package site

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// words are k words of 3 to 10 letters drawn from r: text that compresses
// as a writer's prose does, not as one line repeated.
func words(r *rand.Rand, k int) []string {
	w := make([]string, k)
	for i := range w {
		b := make([]byte, 3+r.IntN(8))
		for j := range b {
			b[j] = byte('a' + r.IntN(26))
		}
		w[i] = string(b)
	}
	return w
}

// bigCatalog adds n error pages to homeSite's fixture, in three sections,
// with titles and descriptions of words drawn at random (seeded).
func bigCatalog(t *testing.T, n int) string {
	t.Helper()
	root := homeSite(t)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		title, desc := strings.Join(words(r, 5), " "), strings.Join(words(r, 24), " ")+"."
		page := fmt.Sprintf("+++\ntitle = %q\ndescription = %q\nupdated = 2026-12-01\ncounter = false\n+++\n\nWhy.\n", title, desc)
		writeFile(t, root, fmt.Sprintf("content/s%d/p%03d.md", i%3, i), page)
	}
	return root
}

// parts are the pages of the index in order, and the error pages they list.
func parts(s *Site) (urls []string, listed []*Page) {
	home := s.Pages[slices.IndexFunc(s.Pages, func(p *Page) bool { return p.URL == "/" })]
	for p := home; p != nil; {
		urls = append(urls, p.URL)
		for _, sec := range p.part.Sections {
			listed = append(listed, sec.Pages...)
		}
		next := p.part.Next
		p = nil
		for _, q := range s.Pages {
			if next != "" && q.URL == next {
				p = q
			}
		}
	}
	return urls, listed
}

// TestTheIndexGoesOnOverPagesThatFit: a catalog too large for one page of
// the index goes on over /page/2/ and after, each page fitting one round
// trip with its CSS and script, every error page listed once, in the
// catalog's order; a small one stays whole on /.
func TestTheIndexGoesOnOverPagesThatFit(t *testing.T) {
	for _, n := range []int{12, 400} {
		s, err := Build(Options{FS: os.DirFS(bigCatalog(t, n)), Getenv: withURL})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.CheckBudget(); err != nil {
			t.Errorf("%d pages: %v", n, err)
		}
		urls, listed := parts(s)
		t.Logf("%d error pages: %d pages of the index, %d B each for entries", n, len(urls), s.room)
		if !slices.Equal(listed, s.catalog.pages) {
			t.Errorf("%d pages: the index lists %d pages, want the catalog's %d in its order", n, len(listed), len(s.catalog.pages))
		}
		switch {
		case n == 12 && len(urls) != 1:
			t.Errorf("12 pages make an index of %d pages (%v), want 1", len(urls), urls)
		case n == 400 && (len(urls) < 3 || urls[1] != "/page/2/"):
			t.Errorf("400 pages make an index of %v, want /, /page/2/ and more", urls)
		}
		last := s.Files[strings.TrimPrefix(urls[len(urls)-1], "/")+"index.html"]
		if want := fmt.Sprintf(`data-parts=%d data-part=%d`, len(urls), len(urls)); !strings.Contains(string(last), want) {
			t.Errorf("%d pages: the index's last page does not say %s to the box", n, want)
		}
	}
}

// TestAnEntryTooLargeForAPageOfTheIndexIsRefused: an entry that could not
// fit even alone is the page's to shorten, and the error names it.
func TestAnEntryTooLargeForAPageOfTheIndexIsRefused(t *testing.T) {
	root := bigCatalog(t, 3)
	var long strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&long, "w%x ", i*7919)
	}
	writeFile(t, root, "content/s1/huge.md", fmt.Sprintf("+++\ntitle = \"Huge\"\ndescription = %q\ncounter = false\n+++\n\nWhy.\n", long.String()))
	_, err := Build(Options{FS: os.DirFS(root), Getenv: withURL})
	if err == nil || !strings.Contains(err.Error(), "content/s1/huge.md:1: its entry on the index of errors is") {
		t.Fatalf("error %v, want content/s1/huge.md:1 named", err)
	}
}

// TestARebuildRepaginatesAsACold: edits that move pages between the
// index's pages, add a page of it or take one away, rebuilt from the last
// build, give a cold build's files.
func TestARebuildRepaginatesAsACold(t *testing.T) {
	root := bigCatalog(t, 400)
	prev, err := Build(Options{FS: os.DirFS(root), Getenv: withURL})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("A much longer title than any other ", 6)
	edit(t, root, "content/s0/p000.md", "title = \"", "title = \""+long)
	prev, _ = rebuild(t, root, prev)
	for i := 0; i < 400; i += 2 {
		os.Remove(fmt.Sprintf("%s/content/s%d/p%03d.md", root, i%3, i))
	}
	next, _ := rebuild(t, root, prev)
	if a, b := len(must(parts(prev))), len(must(parts(next))); a <= b {
		t.Errorf("deleting half the pages left the index on %d pages, from %d", b, a)
	}
}

func must(urls []string, _ []*Page) []string { return urls }

// searched are the URLs the box on the page at name can show: the entries
// the page lists, and those of each page of the index it reads (data-parts).
// missed are the error pages the box on the page at name cannot show.
func missed(t *testing.T, s *Site, name string) []string {
	t.Helper()
	urls := searched(t, s, name)
	var missing []string
	for _, p := range s.catalog.pages {
		if !urls[p.URL] {
			missing = append(missing, p.URL)
		}
	}
	return missing
}

func searched(t *testing.T, s *Site, name string) map[string]bool {
	t.Helper()
	html := string(s.Files[name])
	m := regexp.MustCompile(`data-parts="?(\d+)"?(?: data-part="?(\d+)"?)?`).FindStringSubmatch(html)
	if m == nil {
		t.Fatalf("%s has no box", name)
	}
	pages := []string{html}
	parts, _ := strconv.Atoi(m[1])
	here, _ := strconv.Atoi(m[2])
	for n := 1; n <= parts; n++ {
		if n != here {
			pages = append(pages, string(s.Files[strings.TrimPrefix(partURL(n), "/")+"index.html"]))
		}
	}
	urls := map[string]bool{}
	for _, p := range pages {
		for _, l := range regexp.MustCompile(`<li><a href="?([^" >]+)`).FindAllStringSubmatch(p, -1) {
			urls[l[1]] = true
		}
	}
	return urls
}

// TestAHomeOfTheWritersOwnSearchesTheCatalog: with content/index.md of its
// own calling {{< errors >}}, the box on / and on the not-found page finds
// every error page, as it did before the index went on over pages; it may
// not say of every line that no page explains it.
func TestAHomeOfTheWritersOwnSearchesTheCatalog(t *testing.T) {
	root := bigCatalog(t, 12)
	writeFile(t, root, "content/index.md", "+++\ntitle = \"Our errors\"\ndescription = \"Every error we explain.\"\ncounter = false\n+++\n\nPaste your line.\n\n{{< errors >}}\n")
	writeFile(t, root, "content/404.md", "+++\ntitle = \"Not found\"\ndescription = \"No page here.\"\ncounter = false\nnoindex = true\n+++\n\nPaste it below.\n\n{{< errors >}}\n")
	s, err := Build(Options{FS: os.DirFS(root), Getenv: withURL})
	if err != nil {
		// Refusing is an answer too, if it names the page that cannot have the box.
		if !strings.Contains(err.Error(), "content/index.md") {
			t.Fatalf("refused without naming content/index.md: %v", err)
		}
		return
	}
	for _, name := range []string{"index.html", "404.html"} {
		if missing := missed(t, s, name); len(missing) > 0 {
			t.Errorf("%s: the box finds %d of the %d error pages; missing %v", name, len(s.catalog.pages)-len(missing), len(s.catalog.pages), missing)
		}
	}
}

// TestARetitledHomeOfTheWritersOwnRetitlesEveryPageOfTheIndex: the
// pages of the index after / take their title and description from
// content/index.md, so a rebuild after it changes renders them again, as
// a cold build does, without a base URL too (where no breadcrumb shows it).
func TestARetitledHomeOfTheWritersOwnRetitlesEveryPageOfTheIndex(t *testing.T) {
	root := bigCatalog(t, 400)
	writeFile(t, root, "content/index.md", "+++\ntitle = \"Our errors\"\ndescription = \"Every error we explain.\"\ncounter = false\n+++\n\nPaste your line.\n\n{{< errors >}}\n")
	prev, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	edit(t, root, "content/index.md", "Our errors", "Their errors")
	next, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Prev: prev})
	if err != nil {
		t.Fatal(err)
	}
	cold, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if cold.Files["page/2/index.html"] == nil {
		t.Fatal("400 pages leave the index on one page")
	}
	if names := differing(next.Files, cold.Files); len(names) > 0 {
		t.Errorf("after a new title in content/index.md, %v differ from a cold build's", names)
	}
}

// TestTheNotFoundPageSearchesEveryPageOfAnIndexAHomeOfOneOwnsLengthens:
// a longer content/index.md leaves less room for entries, and the index
// goes on over more pages; a rebuild gives the not-found page's box the
// new count (data-parts), as a cold build does, so it searches them all.
func TestTheNotFoundPageSearchesEveryPageOfAnIndexAHomeOfOneOwnsLengthens(t *testing.T) {
	root := bigCatalog(t, 400)
	home := "+++\ntitle = \"Our errors\"\ndescription = \"Every error we explain.\"\ncounter = false\n+++\n\n%s\n\n{{< errors >}}\n"
	writeFile(t, root, "content/index.md", fmt.Sprintf(home, "Paste your line."))
	writeFile(t, root, "content/404.md", "+++\ntitle = \"Not found\"\ndescription = \"No page here.\"\ncounter = false\nnoindex = true\n+++\n\nPaste it below.\n\n{{< errors >}}\n")
	prev, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "content/index.md", fmt.Sprintf(home, strings.Join(words(rand.New(rand.NewPCG(3, 3)), 600), " ")))
	next, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Prev: prev})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := prev.catalog.parts, next.catalog.parts; a >= b {
		t.Fatalf("600 words on content/index.md leave the index on %d pages, from %d", b, a)
	}
	if missing := missed(t, next, "404.html"); len(missing) > 0 {
		t.Errorf("404.html: the box finds %d of the %d error pages; missing %v", len(next.catalog.pages)-len(missing), len(next.catalog.pages), missing)
	}
}

// longPage is an error page whose description is k words drawn at random
// (seeded): prose that compresses as little as a writer's own does.
func longPage(k int) string {
	desc := strings.Join(words(rand.New(rand.NewPCG(9, 9)), k), " ") + "."
	return fmt.Sprintf("+++\ntitle = \"Long\"\ndescription = %q\nupdated = 2026-12-01\ncounter = false\n+++\n\nWhy.\n", desc)
}

// TestAnEntryTheBuildAcceptsFitsItsPageOfTheIndex: the longest description
// the build takes (its entry fits the room at gzip's fastest level) makes a
// page of the index that fits the budget at gzip -9, as -publish measures
// it; else the build must refuse the page, naming it, rather than publish
// refusing /page/N/ and pointing at the templates.
func TestAnEntryTheBuildAcceptsFitsItsPageOfTheIndex(t *testing.T) {
	root := bigCatalog(t, 30)
	build := func(k int) (*Site, error) {
		writeFile(t, root, "content/s1/long.md", longPage(k))
		return Build(Options{FS: os.DirFS(root), Getenv: withURL})
	}
	lo, hi := 100, 8000 // accepted, refused
	if _, err := build(hi); err == nil {
		t.Fatalf("a description of %d words is accepted", hi)
	}
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; func() bool { _, err := build(mid); return err == nil }() {
			lo = mid
		} else {
			hi = mid
		}
	}
	for k := lo; k > lo-40; k -= 4 {
		s, err := build(k)
		if err != nil {
			continue
		}
		if err := s.CheckBudget(); err != nil {
			t.Errorf("a description of %d words, which the build accepts: %v", k, err)
		}
	}
}

// TestALongEntryLeavesTheOtherPagesOfTheIndexFull: one page with a long
// description takes room on its page of the index only; the others stay
// as full as they were, rather than every page of the index shrinking to
// its length (runs of one length), so that the box need not read
// hundreds of pages.
func TestALongEntryLeavesTheOtherPagesOfTheIndexFull(t *testing.T) {
	root := bigCatalog(t, 400)
	s, err := Build(Options{FS: os.DirFS(root), Getenv: withURL})
	if err != nil {
		t.Fatal(err)
	}
	before := len(must(parts(s)))
	writeFile(t, root, "content/s1/long.md", longPage(1500))
	if s, err = Build(Options{FS: os.DirFS(root), Getenv: withURL}); err != nil {
		t.Fatal(err)
	}
	if after := len(must(parts(s))); after > before+2 {
		t.Errorf("one page with a description of 1,500 words takes the index from %d pages to %d", before, after)
	}
}

// TestTheSummaryMeasuresTheHeaviestPageBesideAPagedIndex: the summary's
// "heaviest page" is the one whose critical path is heaviest. The pages of
// the index are the largest HTML of a big catalog but compress tenfold,
// while a page of prose is smaller and compresses threefold: picked by raw
// size, the summary shows an index page's room and hides how near the
// budget the prose is.
func TestTheSummaryMeasuresTheHeaviestPageBesideAPagedIndex(t *testing.T) {
	root := bigCatalog(t, 400)
	var prose strings.Builder
	for i, w := range words(rand.New(rand.NewPCG(5, 6)), 2900) {
		prose.WriteString(w + map[bool]string{true: ".\n", false: " "}[i%12 == 11])
	}
	writeFile(t, root, "content/s0/prose.md", errorPage("Prose", "counter = false\n")+prose.String()+"\n")
	s, err := Build(Options{FS: os.DirFS(root), Getenv: withURL})
	if err != nil {
		t.Fatal(err)
	}
	heaviest := PageSize{}
	for _, p := range s.Pages {
		files := [][]byte{s.Files[p.Out]}
		for _, l := range p.out.Loads {
			if name, ok := strings.CutPrefix(l, "/"); ok && s.Files[name] != nil {
				files = append(files, s.Files[name])
			}
		}
		z := PageSize{URL: p.URL, File: p.File}
		for _, size := range measureAll(files) {
			z.Size = z.plus(size)
		}
		if z.Gzip > heaviest.Gzip {
			heaviest = z
		}
	}
	got, err := s.Sizes()
	if err != nil {
		t.Fatal(err)
	}
	// Pages of the index alike may differ by a few bytes: 1% is not the point.
	if got.Critical.Gzip < heaviest.Gzip*99/100 {
		t.Errorf("the summary measures %s, %d B raw, %d B gzip, as the heaviest page; %s is heavier: %d B raw, %d B gzip", got.Critical.URL, got.Critical.Raw, got.Critical.Gzip, heaviest.URL, heaviest.Raw, heaviest.Gzip)
	}
}
