package site

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// bigCatalog adds n error pages to homeSite's fixture, in three sections,
// with titles and descriptions of words drawn at random (seeded): text
// that compresses as a real catalog's does, not as one line repeated.
func bigCatalog(t *testing.T, n int) string {
	t.Helper()
	root := homeSite(t)
	r := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		b := make([]byte, 3+r.IntN(8))
		for i := range b {
			b[i] = byte('a' + r.IntN(26))
		}
		return string(b)
	}
	words := func(k int) string {
		w := make([]string, k)
		for i := range w {
			w[i] = word()
		}
		return strings.Join(w, " ")
	}
	for i := range n {
		page := fmt.Sprintf("+++\ntitle = %q\ndescription = %q\nupdated = 2026-12-01\ncounter = false\n+++\n\nWhy.\n", words(5), words(24)+".")
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
