package site

import (
	"fmt"
	"os"
	"slices"
	"testing"
)

// TestACatalogThatFitsOnePageOfTheIndexIsListedOnOne: docs/build.md says
// / "lists as many error pages as fit one round trip". The entries'
// weights are each compressed alone, so entries alike (a title and a
// description that differ by a number, as bench/sites.sh makes them) weigh
// many times what they add to a page: bench/sites.sh's 1,000 pages, which
// would all fit on one page of the index (their sections are 5,974 B at
// gzip -9), go on over 16. Here 300 such pages, shown to fit on one page
// with every entry, must not make more.
func TestACatalogThatFitsOnePageOfTheIndexIsListedOnOne(t *testing.T) {
	root := homeSite(t)
	for i := range 300 {
		page := fmt.Sprintf("+++\ntitle = \"Retrying a flaky network call without making things worse %04d\"\n"+
			"description = \"A worked note on timeouts, backoff and idempotency, with three short Python sketches.\"\n"+
			"updated = 2026-12-01\ncounter = false\n+++\n\nWhy.\n", i)
		writeFile(t, root, fmt.Sprintf("content/s%d/p%04d.md", i%20, i), page)
	}
	s, err := Build(Options{FS: os.DirFS(root), Getenv: withURL})
	if err != nil {
		t.Fatal(err)
	}
	home := *s.Pages[slices.IndexFunc(s.Pages, func(p *Page) bool { return p.URL == "/" })]
	home.part = &Part{N: 1, Of: 1, Sections: s.catalog.sections}
	s.catalog.parts = 1
	whole, err := s.renderPage(&home)
	if err != nil {
		t.Fatal(err)
	}
	if whole.Critical.Gzip > CriticalBudget {
		t.Fatalf("the fixture's whole index is %d B gzip, over the budget: it tests nothing", whole.Critical.Gzip)
	}
	if urls := must(parts(s)); len(urls) > 1 {
		t.Errorf("300 entries alike, %d B gzip on one page with its CSS and script (budget %d B), go on over %d pages of the index",
			whole.Critical.Gzip, CriticalBudget, len(urls))
	}
}
