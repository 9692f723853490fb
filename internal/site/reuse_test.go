package site

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// catalogSite is the fixture with a generated index of errors, the
// repository's page.html (neighbours and related pages), a base URL (so
// that pages carry a breadcrumb), and sections aa (with its own page) and bb.
func catalogSite(t *testing.T) string {
	t.Helper()
	root := homeSite(t)
	page, err := os.ReadFile(filepath.Join("..", "..", "templates", "page.html"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "templates/page.html", string(page))
	writeFile(t, root, "content/aa/index.md", "+++\ntitle = \"Section A\"\ndescription = \"The aa errors.\"\ncounter = false\n+++\n\nAll of them.\n")
	for _, p := range []struct{ name, title, extra string }{
		{"aa/a1", "A1", ""}, {"aa/a2", "A2", ""}, {"aa/a3", "A3", "tags = [\"net\"]\n"}, {"aa/a4", "A4", ""},
		{"bb/b1", "B1", "tags = [\"net\"]\n"}, {"bb/b2", "B2", "tags = [\"net\"]\n"},
	} {
		writeFile(t, root, "content/"+p.name+".md", errorPage(p.title, p.extra))
	}
	return root
}

func withURL(k string) string { return map[string]string{"URL": "https://fixture.example.org"}[k] }

// rebuild builds root again from prev, checks that every file is the
// file a cold build writes, and returns the build and the URLs of the
// pages it rendered, sorted.
func rebuild(t *testing.T, root string, prev *Site) (*Site, []string) {
	t.Helper()
	next, err := Build(Options{FS: os.DirFS(root), Getenv: withURL, Prev: prev})
	if err != nil {
		t.Fatal(err)
	}
	cold, err := Build(Options{FS: os.DirFS(root), Getenv: withURL})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := slices.Sorted(maps.Keys(next.Files)), slices.Sorted(maps.Keys(cold.Files)); !slices.Equal(got, want) {
		t.Fatalf("files %q, a cold build's %q", got, want)
	}
	for name, data := range cold.Files {
		if !bytes.Equal(next.Files[name], data) {
			t.Errorf("%s differs from a cold build's:\n%s\ncold:\n%s", name, next.Files[name], data)
		}
	}
	last := map[string]*Page{}
	for _, p := range prev.Pages {
		last[p.File] = p
	}
	var urls []string
	for _, p := range next.Pages {
		if l := last[p.File]; l == nil || &l.out.HTML[0] != &p.out.HTML[0] {
			urls = append(urls, p.URL)
		}
	}
	if len(urls) != next.Rendered {
		t.Errorf("Rendered says %d, but %d pages have new output", next.Rendered, len(urls))
	}
	slices.Sort(urls)
	return next, urls
}

// TestARebuildRendersWhatShowsAChange: a rebuild renders a page again only
// when something it shows changed: its file, a template, a setting, or a
// page it shows (its neighbours, related pages, breadcrumb, or the
// catalog, which the index lists). Each step starts from the one before,
// and leaves every file as a cold build writes it.
func TestARebuildRendersWhatShowsAChange(t *testing.T) {
	root := catalogSite(t)
	prev, err := Build(Options{FS: os.DirFS(root), Getenv: withURL})
	if err != nil {
		t.Fatal(err)
	}
	all := func() string {
		var urls []string
		for _, p := range prev.Pages {
			urls = append(urls, p.URL)
		}
		slices.Sort(urls)
		return strings.Join(urls, " ")
	}
	for _, tc := range []struct {
		name   string
		change func()
		want   string // "all": every page
	}{
		{"nothing", func() {}, ""},
		{"a body", func() { edit(t, root, "content/aa/a2.md", "More.", "More, edited.") }, "/aa/a2/"},
		{"a title, in place", func() { edit(t, root, "content/aa/a2.md", `"A2"`, `"A2 renamed"`) }, "/ /aa/a1/ /aa/a2/ /aa/a3/"},
		// A2 renamed, A3, A4, A9: a1's old neighbour and its new one.
		{"a title that moves", func() { edit(t, root, "content/aa/a1.md", `"A1"`, `"A9"`) }, "/ /aa/a1/ /aa/a2/ /aa/a4/"},
		// a2 is now related to the pages tagged net, and they to it.
		{"a tag", func() { edit(t, root, "content/aa/a2.md", "+++\n\n", "tags = [\"net\"]\n+++\n\n") }, "/ /aa/a2/ /aa/a3/ /bb/b1/ /bb/b2/"},
		{"a page added", func() { writeFile(t, root, "content/aa/a5.md", errorPage("A5", "")) }, "/ /aa/a1/ /aa/a4/ /aa/a5/"},
		{"a page renamed", func() {
			os.Rename(filepath.Join(root, "content/aa/a5.md"), filepath.Join(root, "content/aa/a6.md"))
		}, "/ /aa/a1/ /aa/a4/ /aa/a6/"},
		{"a page deleted", func() { os.Remove(filepath.Join(root, "content/aa/a3.md")) }, "/ /aa/a2/ /aa/a4/ /bb/b1/ /bb/b2/"},
		// The section's page is in every breadcrumb of the section.
		{"a section's title", func() { edit(t, root, "content/aa/index.md", "Section A", "Section Aa") }, "/ /aa/ /aa/a1/ /aa/a2/ /aa/a4/ /aa/a6/"},
		{"a description", func() { edit(t, root, "content/bb/b1.md", "About B1.", "All about B1.") }, "/ /aa/a2/ /bb/b1/ /bb/b2/"},
		// The index's date is the newest page's.
		{"a date", func() { edit(t, root, "content/bb/b2.md", "2026-12-01", "2027-01-02") }, "/ /aa/a2/ /bb/b1/ /bb/b2/"},
		{"a page outside the catalog", func() { edit(t, root, "content/pay.md", "+++\n\n", "+++\n\nPaid.\n\n") }, "/pay/"},
		{"a page outside the catalog added", func() { writeFile(t, root, "content/new.md", errorPage("New", "")) }, "/new/"},
		{"a page outside the catalog deleted", func() { os.Remove(filepath.Join(root, "content/new.md")) }, ""},
		{"a template", func() { edit(t, root, "templates/page.html", "<article>", "<article class=\"x\">") }, "all"},
		{"a setting", func() { edit(t, root, "site.toml", `publisher = "Fixture"`, `publisher = "Fixture X"`) }, "all"},
		{"a stylesheet", func() { edit(t, root, "static/style.css", "body{", "h2{letter-spacing:0}body{") }, "all"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.change()
			next, got := rebuild(t, root, prev)
			prev = next
			if tc.want == "all" {
				tc.want = all()
			}
			if strings.Join(got, " ") != tc.want {
				t.Errorf("rendered %q, want %q", got, tc.want)
			}
		})
	}
}

// TestARebuildChangesNothingOfTheLast: a build that reuses the last one's
// pages leaves that build as it was: its pages' links, dates and output.
// Were a reused page the last build's own, linked again, it would list each
// related page twice, here and in the last build.
func TestARebuildChangesNothingOfTheLast(t *testing.T) {
	root := catalogSite(t)
	first, err := Build(Options{FS: os.DirFS(root), Getenv: withURL})
	if err != nil {
		t.Fatal(err)
	}
	// state is a line per page: its URL, date, body, links and output.
	state := func(s *Site) []string {
		var lines []string
		for _, p := range s.Pages {
			line := fmt.Sprintf("%s %v body %x output %x:", p.URL, p.Meta.Updated, sha256.Sum256([]byte(p.Body)), sha256.Sum256(p.out.HTML))
			for _, l := range append([]*Link{p.Prev, p.Next}, p.Related...) {
				if l != nil {
					line += fmt.Sprintf(" %s %q", l.URL, l.Meta.Title)
				}
			}
			lines = append(lines, line)
		}
		return lines
	}
	same := func(when string, got, want []string) {
		t.Helper()
		for i := range max(len(got), len(want)) {
			if i >= len(got) || i >= len(want) || got[i] != want[i] {
				t.Errorf("%s, the pages differ from the first build's:\n%q\nwas\n%q", when, got[min(i, len(got)-1)], want[min(i, len(want)-1)])
			}
		}
	}
	before := state(first)
	// b1's next page, then its related pages.
	if !slices.ContainsFunc(before, func(l string) bool {
		return strings.HasPrefix(l, "/bb/b1/ ") && strings.HasSuffix(l, `: /bb/b2/ "B2" /aa/a3/ "A3" /bb/b2/ "B2"`)
	}) {
		t.Fatalf("b1 does not list its related pages:\n%s", strings.Join(before, "\n"))
	}
	second, _ := rebuild(t, root, first)
	same("rebuilt from the same files", state(second), before)
	edit(t, root, "content/bb/b2.md", "2026-12-01", "2027-01-02") // a new date for the index
	rebuild(t, root, second)
	same("after two rebuilds", state(first), before)
}

// TestRandomEditsMatchColdBuilds: a sequence of random edits of titles,
// bodies, tags, dates, descriptions, added and deleted pages, each built
// from the build before, leaves every file as a cold build writes it. The
// pages with three tags list the whole catalog, so that edits move pages
// in and out of showing it. A body edit renders its page alone.
func TestRandomEditsMatchColdBuilds(t *testing.T) {
	root := catalogSite(t)
	edit(t, root, "templates/page.html", "</article>", "</article>\n{{if eq (len .Page.Meta.Tags) 3}}<ul>{{range .Site.Pages}}<li>{{.Meta.Title}}</li>{{end}}</ul>{{end}}")
	r := rand.New(rand.NewPCG(46, 48))
	words := []string{"Closed", "Timeout", "Refused", "Reset", "Broken", "Invalid"}
	tags := []string{"net", "io", "auth"}
	pages := func() []string {
		pages, _ := filepath.Glob(filepath.Join(root, "content", "*", "[a-z]*[0-9].md"))
		return pages
	}
	replace := func(file, key, value string) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, key+" = ") })
		if i < 0 {
			i = 1
			lines = slices.Insert(lines, 1, "")
		}
		lines[i] = key + " = " + value
		os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644)
	}
	prev, err := Build(Options{FS: os.DirFS(root), Getenv: withURL})
	if err != nil {
		t.Fatal(err)
	}
	added := 0
	for step := range 60 {
		var what string
		var body string // the page of a body edit, which renders alone
		edit, files := r.IntN(7), pages()
		if len(files) < 3 {
			edit = 5 // a page added
		}
		switch file := files[r.IntN(len(files))]; edit {
		case 0:
			what = "title of " + file
			replace(file, "title", fmt.Sprintf("%q", words[r.IntN(len(words))]+fmt.Sprint(r.IntN(5))))
		case 1:
			what, body = "body of "+file, file
			data, _ := os.ReadFile(file)
			os.WriteFile(file, append(data, fmt.Sprintf("\nLine %d.\n", step)...), 0o644)
		case 2:
			var ts []string
			for _, tag := range tags {
				if r.IntN(2) == 0 {
					ts = append(ts, fmt.Sprintf("%q", tag))
				}
			}
			what = "tags of " + file
			replace(file, "tags", "["+strings.Join(ts, ", ")+"]")
		case 3:
			what = "date of " + file
			replace(file, "updated", fmt.Sprintf("2026-%02d-%02d", 1+r.IntN(12), 1+r.IntN(28)))
		case 4:
			what = "description of " + file
			replace(file, "description", fmt.Sprintf("%q", "Now "+words[r.IntN(len(words))]+"."))
		case 5:
			added++
			what = fmt.Sprintf("page n%d added", added)
			writeFile(t, root, fmt.Sprintf("content/%s/n%d.md", []string{"aa", "bb", "cc"}[r.IntN(3)], added), errorPage(words[r.IntN(len(words))], ""))
		case 6:
			what = "deleted " + file
			os.Remove(file)
		}
		t.Logf("step %d: %s", step, what)
		next, rendered := rebuild(t, root, prev)
		if t.Failed() {
			t.FailNow()
		}
		if body != "" {
			rel, _ := filepath.Rel(filepath.Join(root, "content"), body)
			if want := "/" + strings.TrimSuffix(filepath.ToSlash(rel), ".md") + "/"; !slices.Equal(rendered, []string{want}) {
				t.Errorf("a body edit rendered %q, want %s alone", rendered, want)
			}
		}
		prev = next
	}
}
