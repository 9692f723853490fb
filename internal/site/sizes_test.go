package site

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestSizesMeasureThePageAsPublished: a build without a base URL measures
// its heaviest page rendered again with StandinBaseURL, which is what a
// build with that base URL publishes: the canonical link and the
// structured data's URL count. The build's own page stays as built, and
// the critical path is the page with its stylesheet and counter.
func TestSizesMeasureThePageAsPublished(t *testing.T) {
	root := fixtureSite(t)
	build := func(env map[string]string) (*Site, Sizes) {
		t.Helper()
		s, err := Build(Options{FS: os.DirFS(root), Getenv: func(k string) string { return env[k] }})
		if err != nil {
			t.Fatal(err)
		}
		before := string(s.Files["index.html"])
		r, err := s.Sizes()
		if err != nil {
			t.Fatal(err)
		}
		if string(s.Files["index.html"]) != before || strings.Contains(string(s.Pages[0].Body), StandinBaseURL) {
			t.Error("measuring changed the build's page")
		}
		return s, r
	}
	local, without := build(nil)
	published, with := build(map[string]string{"URL": StandinBaseURL})
	if !without.Standin || with.Standin {
		t.Errorf("Standin: %v without a base URL, %v with one", without.Standin, with.Standin)
	}
	if without.Critical != with.Critical {
		t.Errorf("without a base URL the summary measures %+v; the page published with %s is %+v", without.Critical, StandinBaseURL, with.Critical)
	}
	page := published.Files["index.html"]
	if !strings.Contains(string(page), `<link rel=canonical href=`+StandinBaseURL) || strings.Contains(string(local.Files["index.html"]), "canonical") {
		t.Fatalf("the fixture's index shows no canonical link with a base URL, or one without: the test holds nothing")
	}
	// The fixture's index loads its stylesheet and the counter.
	var css []byte
	for name, data := range published.Files {
		if strings.HasPrefix(name, "style.") {
			css = data
		}
	}
	if want := len(page) + len(css) + len(published.Files["measure.js"]); with.Critical.URL != "/" || with.Critical.Raw != want {
		t.Errorf("critical path of %s: %d B raw, want / at %d B (HTML, style.css, measure.js)", with.Critical.URL, with.Critical.Raw, want)
	}
}

// TestCheckBudget: the fixture's pages fit; a page of words that do not
// compress does not, and the refusal names its file and URL, its size
// and the budget, and no page that fits.
func TestCheckBudget(t *testing.T) {
	root := fixtureSite(t)
	build := func() *Site {
		s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if err := build().CheckBudget(); err != nil {
		t.Fatalf("the fixture: %v", err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	var words []string
	for range 6000 {
		words = append(words, fmt.Sprintf("%x", rnd.Uint32()))
	}
	writeFile(t, root, "content/heavy.md", errorPage("Heavy", "")+strings.Join(words, " ")+"\n")
	err := build().CheckBudget()
	if err == nil {
		t.Fatal("a page of 54 KB of random hex fits the budget")
	}
	msg := err.Error()
	var gz, over int
	if _, scanErr := fmt.Sscanf(msg[strings.Index(msg, "content/heavy.md"):], "content/heavy.md: /heavy/ is %d B gzip with its CSS and scripts, %d B over the budget of one round trip, 14600 B", &gz, &over); scanErr != nil || gz-over != CriticalBudget || gz < 20000 {
		t.Errorf("the refusal reads %q (%v): want the page's file and URL, its size and by how much it is over the budget", msg, scanErr)
	}
	if strings.Count(msg, "content/") != 1 {
		t.Errorf("the refusal names pages that fit:\n%s", msg)
	}
}

// TestSizesNameTheHeaviestPage: the summary names the page heaviest gzip,
// not the one with the most HTML. A long table of one row repeated is the
// largest page and compresses to little; a shorter page of words that do
// not compress is over the budget, and the build must say so before
// -publish refuses it.
func TestSizesNameTheHeaviestPage(t *testing.T) {
	root := fixtureSite(t)
	rnd := rand.New(rand.NewPCG(3, 4))
	var words []string
	for range 4000 {
		words = append(words, fmt.Sprintf("%x", rnd.Uint32()))
	}
	writeFile(t, root, "content/dense.md", errorPage("Dense", "")+strings.Join(words, " ")+"\n")
	writeFile(t, root, "content/table.md", errorPage("Table", "")+"| a | b |\n|---|---|\n"+strings.Repeat("| the same cell | the same row |\n", 4000))
	s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Files["table/index.html"]) <= len(s.Files["dense/index.html"]) {
		t.Fatal("the table's page is not the largest: the test holds nothing")
	}
	r, err := s.Sizes()
	if err != nil {
		t.Fatal(err)
	}
	if r.Critical.URL != "/dense/" || r.Critical.Fits() {
		t.Errorf("the summary names %s at %d B gzip; want /dense/, over the budget of %d B", r.Critical.URL, r.Critical.Gzip, CriticalBudget)
	}
}

// TestBuildWarnsOfEveryPageOverTheBudget: the build's warnings, which the
// preview prints, name each page over the budget, not only the heaviest,
// so that a writer sees the overrun while writing; a page that fits is not named.
func TestBuildWarnsOfEveryPageOverTheBudget(t *testing.T) {
	root := fixtureSite(t)
	rnd := rand.New(rand.NewPCG(5, 6))
	for _, name := range []string{"dense", "denser"} {
		var words []string
		for range 4000 + len(name)*100 {
			words = append(words, fmt.Sprintf("%x", rnd.Uint32()))
		}
		writeFile(t, root, "content/"+name+".md", errorPage(name, "")+strings.Join(words, " ")+"\n")
	}
	s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(s.Warnings, "\n")
	for _, want := range []string{"content/dense.md: /dense/ is ", "content/denser.md: /denser/ is "} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning names %s over the budget; the warnings:\n%s", want, all)
		}
	}
	if n := strings.Count(all, "over the budget"); n != 2 {
		t.Errorf("%d warnings of a page over the budget, want 2:\n%s", n, all)
	}
}
