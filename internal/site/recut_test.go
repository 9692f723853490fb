package site

import (
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"
)

// recutSite is homeSite with n error pages whose descriptions are a
// phrase said twenty times (so that each entry compresses alone about as
// it does on its page), and a home.html that shows the same block of k
// words at the top of the page and again at its foot, as a site map
// above and below the list would. On the page with no entry the second
// block costs little; on a page of the index whose list is longer than
// gzip's 32 KB window it costs as much as the first, so that the pages
// cut by the entries' weights come out over the budget and fit must cut
// the catalog again.
func recutSite(t *testing.T, n, k int) string {
	t.Helper()
	root := homeSite(t)
	r := rand.New(rand.NewPCG(3, 4))
	block := "<p>" + strings.Join(words(r, k), " ") + "</p>\n"
	writeFile(t, root, "templates/home.html", "<h1>{{.Page.Meta.Title}}</h1>\n"+block+"{{template \"errors\" .}}\n"+block)
	for i := range n {
		title := strings.Join(words(r, 4), " ")
		desc := strings.Repeat(strings.Join(words(r, 3), " ")+" ", 20)
		page := fmt.Sprintf("+++\ntitle = %q\ndescription = %q\nupdated = 2026-12-01\ncounter = false\n+++\n\nWhy.\n", title, desc)
		writeFile(t, root, fmt.Sprintf("content/s%d/p%04d.md", i%3, i), page)
	}
	return root
}

// recut builds root cold and checks that its index had to be cut again.
func recut(t *testing.T, root string) *Site {
	t.Helper()
	s, err := Build(Options{FS: os.DirFS(root), Getenv: withURL})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.breaks) == 0 {
		t.Fatalf("the fixture's index was not cut again (room %d B): it tests nothing", s.room)
	}
	return s
}

// TestARebuildAfterTheIndexWasCutAgainIsACold: when fit had to cut the
// catalog again, a rebuild from that build (the preview's, after an edit
// that changes no entry) must still give a cold build's files. paginate
// cuts with the first room and reuse then takes the last build's pages of
// the index, which were cut with less: they list other entries, link to
// pages of the index this build does not make, and fit, finding them
// within the budget, keeps them.
func TestARebuildAfterTheIndexWasCutAgainIsACold(t *testing.T) {
	root := recutSite(t, 400, 1200)
	prev := recut(t, root)
	for _, step := range []struct {
		name   string
		change func()
	}{
		{"nothing", func() {}},
		{"a body", func() { edit(t, root, "content/s0/p0000.md", "Why.", "Why, edited.") }},
	} {
		t.Run(step.name, func(t *testing.T) {
			step.change()
			prev, _ = rebuild(t, root, prev)
		})
	}
}

// TestTheNotFoundPageSearchesEveryPageOfAnIndexCutAgain: the not-found
// page's box reads data-parts pages of the index. When fit cuts the
// catalog again into more pages, the not-found page, rendered with the
// first cut's count, must say the final count, or its box never reads the
// last pages and says of their lines that no page explains them.
func TestTheNotFoundPageSearchesEveryPageOfAnIndexCutAgain(t *testing.T) {
	root := recutSite(t, 400, 1200)
	writeFile(t, root, "content/404.md", "+++\ntitle = \"Not found\"\ndescription = \"No page here.\"\ncounter = false\nnoindex = true\n+++\n\nPaste it below.\n\n{{< errors >}}\n")
	s := recut(t, root)
	if missing := missed(t, s, "404.html"); len(missing) > 0 {
		said := regexp.MustCompile(`data-parts="?\d+"?`).Find(s.Files["404.html"])
		t.Errorf("the not-found page's box searches %d of the %d error pages (it says %s; the index has %d pages); missing %v",
			len(s.catalog.pages)-len(missing), len(s.catalog.pages), said, len(must(parts(s))), missing)
	}
}

// TestRenderedCountsEachPageOnce: Rendered is what the preview logs as
// "(N rendered)" beside the pages built; the rounds of fit render the
// pages of the index again and must not count them as more pages.
func TestRenderedCountsEachPageOnce(t *testing.T) {
	s := recut(t, recutSite(t, 400, 1200))
	if s.Rendered > len(s.Pages) {
		t.Errorf("a cold build of %d pages says it rendered %d", len(s.Pages), s.Rendered)
	}
}

// TestOnePageOfTheIndexOverTheBudgetLeavesTheOthersFull: fit answers a
// page of the index that is over the budget by cutting every page with
// less room. When what puts that page over is one entry's own (here a
// description of 40 KB that compresses to little alone but pushes the
// template's foot out of gzip's window), the whole index shrinks round
// after round, to many times its pages, or the room goes below an
// ordinary entry's weight, even below zero, and the build refuses that
// entry's page, which has nothing to shorten. Either the index grows by
// about that page, or the build refuses the page that cannot fit, naming it.
// Each k puts the foot elsewhere in gzip's window: at 1240 and 1280 a page
// still over after its cut was cut again, leaving the few entries between
// the two cuts a page of their own.
func TestOnePageOfTheIndexOverTheBudgetLeavesTheOthersFull(t *testing.T) {
	for _, k := range []int{1240, 1280, 1300, 1460} {
		t.Run(fmt.Sprint(k), func(t *testing.T) {
			root := tailSite(t, 400, k)
			s, err := Build(Options{FS: os.DirFS(root), Getenv: withURL})
			if err != nil {
				t.Fatal(err)
			}
			before := len(must(parts(s)))
			writeFile(t, root, "content/s1/huge.md", fmt.Sprintf("+++\ntitle = \"Huge\"\ndescription = %q\ncounter = false\n+++\n\nWhy.\n", strings.Repeat("timeout ", 5000)))
			s, err = Build(Options{FS: os.DirFS(root), Getenv: withURL})
			if err != nil {
				if !strings.HasPrefix(err.Error(), "content/s1/huge.md:") || regexp.MustCompile(`-\d+ B`).MatchString(err.Error()) {
					t.Errorf("one page added to an index of %d pages, the build refuses: %v", before, err)
				}
				return
			}
			if after := len(must(parts(s))); after > before+2 {
				t.Errorf("one page added takes the index from %d pages to %d (room %d B for entries, %d breaks)", before, after, s.room, len(s.breaks))
			}
		})
	}
}

// tailSite is recutSite with descriptions of three words: entries whose
// weights, as most writers' are, are more than they add to a page, so
// that the catalog alone needs no second cut.
func tailSite(t *testing.T, n, k int) string {
	t.Helper()
	root := recutSite(t, 0, k)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range n {
		title, desc := strings.Join(words(r, 4), " "), strings.Join(words(r, 3), " ")
		page := fmt.Sprintf("+++\ntitle = %q\ndescription = %q\nupdated = 2026-12-01\ncounter = false\n+++\n\nWhy.\n", title, desc)
		writeFile(t, root, fmt.Sprintf("content/s%d/p%04d.md", i%3, i), page)
	}
	return root
}

// TestAShorterHomeOfOnesOwnCutsTheIndexAsACold: fit cut the catalog again
// under a long content/index.md; once it is short, a rebuild cuts the
// index as a cold build does, not at the last build's break, which the
// room it leaves no longer needs.
func TestAShorterHomeOfOnesOwnCutsTheIndexAsACold(t *testing.T) {
	root := recutSite(t, 400, 1200)
	writeFile(t, root, "templates/home.html", "<h1>{{.Page.Meta.Title}}</h1>\n{{template \"errors\" .}}\n")
	block := strings.Join(words(rand.New(rand.NewPCG(3, 4)), 1200), " ")
	home := "+++\ntitle = \"Our errors\"\ndescription = \"Every error we explain.\"\ncounter = false\n+++\n\n%s\n\n{{< errors >}}\n\n%[1]s\n"
	writeFile(t, root, "content/index.md", fmt.Sprintf(home, block))
	prev := recut(t, root)
	writeFile(t, root, "content/index.md", fmt.Sprintf(home, "Paste your line."))
	rebuild(t, root, prev)
}
