package site

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"errref/internal/benchsite"
)

// fixtureEnv sets every setting a published site needs, as Netlify would.
var fixtureEnv = map[string]string{
	"URL":                  "https://fixture.example.org",
	"SITE_STOREFRONT_URL":  "https://store.example.org/l/guide",
	"SITE_WALLET_ADDRESS":  "0x1111111111111111111111111111111111111111",
	"SITE_PAYMENT_CONTACT": "orders@fixture.example.org",
}

// buildFixture builds testdata/fixture as published, with fixtureEnv.
func buildFixture(t testing.TB) *Site {
	t.Helper()
	s, err := Build(Options{FS: os.DirFS(filepath.Join("testdata", "fixture")), Getenv: func(k string) string { return fixtureEnv[k] }})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// manyPages writes a site of n distinct pages made from the fixture's home
// page, p0001.md and on beside index.md, each with its own title.
func manyPages(t testing.TB, n int) string {
	t.Helper()
	root := t.TempDir()
	if err := benchsite.Make(root, filepath.Join("testdata", "fixture"), n); err != nil {
		t.Fatal(err)
	}
	return root
}

func noEnv(string) string { return "" }

func edit(t *testing.T, root, name, old, new string) {
	t.Helper()
	p := filepath.Join(root, name)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if old != "" && !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s does not hold %q", name, old)
	}
	out := strings.Replace(string(data), old, new, 1)
	if old == "" {
		out = new
	}
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestUnknownFenceLanguageWarns: a fence in a language no lexer knows is
// written as plain text, with a warning at its line.
func TestUnknownFenceLanguageWarns(t *testing.T) {
	root := fixtureSite(t)
	edit(t, root, "content/404.md", "Nothing lives", "```klingon\nqapla'\n```\n\nNothing lives")
	s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range s.Warnings {
		found = found || strings.Contains(w, `content/404.md:8: unknown code language "klingon": rendered as plain text`)
	}
	if !found {
		t.Errorf("warnings = %q", s.Warnings)
	}
	if !bytes.Contains(s.Files["404.html"], []byte("qapla")) {
		t.Error("the code was not rendered as plain text")
	}
}

// TestDeterministic: two builds of one site, its pages rendered in
// parallel, give the same bytes.
func TestDeterministic(t *testing.T) {
	root := manyPages(t, 20)
	build := func() *Site {
		s, err := Build(Options{FS: os.DirFS(root), Getenv: func(k string) string { return fixtureEnv[k] }})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := build(), build()
	if len(a.Files) != len(b.Files) {
		t.Fatalf("%d files, then %d", len(a.Files), len(b.Files))
	}
	for name, data := range a.Files {
		if !bytes.Equal(data, b.Files[name]) {
			t.Errorf("%s differs between two builds", name)
		}
	}
}

// benchSite writes a site of n distinct pages made from the real home
// page: the benchmarks time the page this repository publishes, whose
// figures the README gives. Tests use manyPages.
func benchSite(t testing.TB, n int) string {
	root := t.TempDir()
	if err := benchsite.Make(root, filepath.Join("..", ".."), n); err != nil {
		t.Fatal(err)
	}
	return root
}

// BenchmarkBuild is the build in process, without writing; the command as
// a user runs it is timed by cmd/build's BenchmarkCommand.
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{1, 100, 1000} {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			root := benchSite(b, n)
			for b.Loop() {
				if _, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRebuild is the preview's rebuild in process at 1,000 pages,
// from the build before: one error page's body edited, or its title
// (which its neighbours and the index show).
func BenchmarkRebuild(b *testing.B) {
	for _, edit := range []string{"body", "title"} {
		b.Run("pages=1000/edit="+edit, func(b *testing.B) {
			root := benchSite(b, 1000)
			prev, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Timeout: time.Minute})
			if err != nil {
				b.Fatal(err)
			}
			pages, _ := filepath.Glob(filepath.Join(root, "content", "s*", "*.md"))
			md := pages[len(pages)/2]
			orig, err := os.ReadFile(md)
			if err != nil {
				b.Fatal(err)
			}
			rel, _ := filepath.Rel(root, md)
			changed := map[string]bool{filepath.ToSlash(rel): true}
			i := 0
			for b.Loop() {
				i++
				page := string(orig) + fmt.Sprintf("\nEdit %d.\n", i)
				if edit == "title" { // at the title's end, which keeps the page's place
					page = strings.Replace(string(orig), "\"\n", fmt.Sprintf(" %d\"\n", i), 1)
				}
				if err := os.WriteFile(md, []byte(page), 0o644); err != nil {
					b.Fatal(err)
				}
				if prev, err = Build(Options{FS: os.DirFS(root), Getenv: noEnv, Prev: prev, Changed: changed}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSizes is the build's size summary, which must cost little
// beside the build itself (without a base URL, it renders its page again),
// and -publish's check of every page.
func BenchmarkSizes(b *testing.B) {
	for _, n := range []int{1, 1000} {
		s, err := Build(Options{FS: os.DirFS(benchSite(b, n)), Getenv: noEnv})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("pages=%d/summary", n), func(b *testing.B) {
			for b.Loop() {
				s.Sizes()
			}
		})
		b.Run(fmt.Sprintf("pages=%d/every-page", n), func(b *testing.B) {
			for b.Loop() {
				s.CheckBudget()
			}
		})
	}
}

// TestSizesMatchTheCommands: the summary's figures are those of gzip -9 -n.
// The command must be installed (Debian's gzip package): a figure no
// command checked could be anything.
func TestSizesMatchTheCommands(t *testing.T) {
	if _, err := exec.LookPath("gzip"); err != nil {
		t.Fatal("this test compares the summary with the gzip command, which is not installed: apt-get install -y gzip")
	}
	s := buildFixture(t)
	for _, name := range []string{"index.html", "measure.js", "404.html", "robots.txt"} {
		f := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(f, s.Files[name], 0o644); err != nil {
			t.Fatal(err)
		}
		z := measureAll([][]byte{s.Files[name]})[0]
		out, err := exec.Command("gzip", "-9", "-n", "-c", f).Output()
		if err != nil {
			t.Fatalf("gzip -9 -n -c %s: %v", f, err)
		}
		// gzip's header and trailer are the same size from both
		// encoders; the deflate stream may differ by a few bytes.
		if d, tolerance := z.Gzip-len(out), 8+len(s.Files[name])/100; d < -tolerance || d > tolerance {
			t.Errorf("%s: gzip gives %d B, the summary %d B", name, len(out), z.Gzip)
		}
	}
}

// TestOneWriterMeasuresEachFileAlone: the files of the summary, measured
// one after another with one reused gzip writer, have the figures a new
// writer gives each file alone, in either order and on a second call.
func TestOneWriterMeasuresEachFileAlone(t *testing.T) {
	s := buildFixture(t)
	names := []string{"index.html", "measure.js", "404.html", "robots.txt"}
	var files [][]byte
	want := map[string]int{}
	for _, name := range names {
		files = append(files, s.Files[name])
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(s.Files[name])
		zw.Close()
		want[name] = b.Len()
	}
	check := func(names []string, files [][]byte) {
		t.Helper()
		for i, got := range measureAll(files) {
			if got.Raw != len(files[i]) || got.Gzip != want[names[i]] {
				t.Errorf("%s: %d B raw, %d B gzip after the others; alone %d B, %d B", names[i], got.Raw, got.Gzip, len(files[i]), want[names[i]])
			}
		}
	}
	// Backwards, the small files come after the large ones.
	rnames, rfiles := slices.Clone(names), slices.Clone(files)
	slices.Reverse(rnames)
	slices.Reverse(rfiles)
	check(names, files)
	check(rnames, rfiles)
}

// TestARunawayTemplateStops: after the time out, a template loop that
// writes ends at its next write; it does not run on in the background.
// The home page is rendered once alone, to measure the index: it too.
func TestARunawayTemplateStops(t *testing.T) {
	for _, tc := range []struct{ site, file, old string }{
		{"fixture", "templates/page.html", "{{.Page.Body}}"},
		{"bench", "templates/home.html", "{{.Page.Meta.Title}}"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			root := fixtureSite(t)
			if tc.site == "bench" {
				root = benchSite(t, 3)
			}
			edit(t, root, tc.file, tc.old, tc.old+"\n{{range 100000000000}}.{{end}}")
			before := runtime.NumGoroutine()
			_, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Timeout: 300 * time.Millisecond})
			if err == nil || !strings.Contains(err.Error(), "took longer than 300ms") {
				t.Fatalf("err = %v, want the time out", err)
			}
			for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before; {
				if time.Now().After(deadline) {
					t.Fatalf("%d goroutines 5 s after the time out, %d before the build: the render runs on", runtime.NumGoroutine(), before)
				}
				time.Sleep(20 * time.Millisecond)
			}
		})
	}
}

// TestTheTimeLimitBoundsEachPage: -timeout bounds each page's render, not
// all of them: a large site on a loaded machine takes long as a whole, and
// must build all the same.
func TestTheTimeLimitBoundsEachPage(t *testing.T) {
	root := benchSite(t, 40)
	edit(t, root, "templates/page.html", "{{.Page.Body}}", "{{.Page.Body}}{{range 400000}}{{end}}")
	start := time.Now()
	if _, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Timeout: time.Minute}); err != nil {
		t.Fatal(err)
	}
	whole := time.Since(start)
	if _, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Timeout: whole / 2}); err != nil {
		t.Errorf("40 pages that took %v together, with a limit of %v: %v", whole, whole/2, err)
	}
}

// TestWhatTheAuthorDidNotWriteIsIgnored: a byte order mark is accepted
// and left out, in a page, a template and a stylesheet;
// hidden files and editors' lock and backup files in content/ and static/
// are neither built nor published.
func TestWhatTheAuthorDidNotWriteIsIgnored(t *testing.T) {
	root := fixtureSite(t)
	page, _ := os.ReadFile(filepath.Join(root, "content", "404.md"))
	os.WriteFile(filepath.Join(root, "content", "404.md"), append([]byte("\uFEFF"), page...), 0o644)
	footer := filepath.Join(root, "templates", "partials", "footer.html")
	src, _ := os.ReadFile(footer)
	os.WriteFile(footer, append([]byte("\uFEFF"), src...), 0o644)
	css := filepath.Join(root, "static", "style.css")
	src, _ = os.ReadFile(css)
	os.WriteFile(css, append([]byte("\uFEFF"), src...), 0o644)
	os.WriteFile(filepath.Join(root, "content", ".hidden.md"), []byte("not even front matter"), 0o644)
	os.Symlink("user@host.1234:1700000000", filepath.Join(root, "content", ".#index.md")) // an Emacs lock
	os.WriteFile(filepath.Join(root, "content", "pay.md~"), []byte("a backup"), 0o644)
	os.WriteFile(filepath.Join(root, "static", ".DS_Store"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "static", ".style.css.swp"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "static", "Thumbs.db"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "static", "desktop.ini"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(root, "static", "img"), 0o755)
	os.WriteFile(filepath.Join(root, "static", "img", "thumbs.db"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "static", "img", "Desktop.ini"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "static", "img", ".DS_Store"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "content", "desktop.ini"), []byte("x"), 0o644)
	s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range s.Files {
		if bytes.Contains(data, []byte("\uFEFF")) {
			t.Errorf("%s holds a byte order mark", name)
		}
		lower := strings.ToLower(name)
		if strings.Contains(name, ".hidden") || strings.Contains(name, "DS_Store") || strings.Contains(name, ".swp") ||
			strings.Contains(lower, "thumbs.db") || strings.Contains(lower, "desktop.ini") {
			t.Errorf("published %s", name)
		}
	}
	if len(s.Pages) != 3 {
		t.Errorf("%d pages, want 3", len(s.Pages))
	}
	if !bytes.Contains(s.Files["404.html"], []byte("<title>Page not found</title>")) {
		t.Error("the page with a byte order mark lost its title")
	}
}

// TestSitemapEscapes: the sitemap is XML-escaped whatever a URL holds.
func TestSitemapEscapes(t *testing.T) {
	s := &Site{Files: map[string][]byte{}}
	s.Settings.BaseURL = "https://errors.example.org"
	s.Pages = []*Page{{URL: "/q&a/"}, {URL: "/</loc><script>/"}}
	s.writeSitemap()
	got := string(s.Files["sitemap.xml"])
	if strings.Contains(got, "<script>") || !strings.Contains(got, "/q&amp;a/") {
		t.Errorf("sitemap.xml:\n%s", got)
	}
}

var update = flag.Bool("update", false, "rewrite testdata/golden/ from the fixture's build")

// TestGolden holds the fixture's build, every file, to testdata/golden/:
// what the generator makes of a page (the layout, the minified HTML and
// CSS, the structured data, the sitemap) changes only on purpose. go test
// -update rewrites them; read the diff.
func TestGolden(t *testing.T) {
	s := buildFixture(t)
	dir := filepath.Join("testdata", "golden")
	if *update {
		os.RemoveAll(dir)
	}
	for name, data := range s.Files {
		golden := filepath.Join(dir, filepath.FromSlash(name))
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			if err := os.WriteFile(golden, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%v (run go test ./internal/site -update)", err)
			continue
		}
		if !bytes.Equal(data, want) {
			t.Errorf("%s differs from %s: run go test ./internal/site -update and read the diff", name, golden)
		}
	}
	n := 0
	filepath.WalkDir(dir, func(_ string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			n++
		}
		return nil
	})
	if n != len(s.Files) {
		t.Errorf("the build made %d files, %s holds %d", len(s.Files), dir, n)
	}
}

// TestAnyFS: the build reads its sources through the fs.FS it is given
// and nothing else. The fixture held in memory builds as its folder does;
// each source changed in memory, and only there, shows in what it builds;
// and an error names the file by its path in the FS, with a slash on
// every system.
func TestAnyFS(t *testing.T) {
	fixture := func(t *testing.T) fstest.MapFS {
		t.Helper()
		mem := fstest.MapFS{}
		dir := filepath.Join("testdata", "fixture")
		err := fs.WalkDir(os.DirFS(dir), ".", func(name string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
			mem[name] = &fstest.MapFile{Data: data}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return mem
	}
	getenv := func(k string) string { return fixtureEnv[k] }
	t.Run("as its folder", func(t *testing.T) {
		s, err := Build(Options{FS: fixture(t), Getenv: getenv})
		if err != nil {
			t.Fatal(err)
		}
		if d := differing(s.Files, buildFixture(t).Files); len(d) > 0 {
			t.Errorf("built from memory, these files differ from the folder's build: %s", strings.Join(d, ", "))
		}
	})
	for _, tc := range []struct {
		file, old, new string // the source changed in memory
		out, want      string // the built file that must show it
	}{
		{"site.toml", `publisher = "Fixture"`, `publisher = "In memory"`, "index.html", "Published by In memory."},
		{"content/index.md", "The explaining part.", "Read from memory.", "index.html", "Read from memory."},
		{"templates/partials/footer.html", "Published by", "Footer from memory,", "index.html", "Footer from memory,"},
		{"static/style.css", "body{margin:0}", "body{margin:1px}", "", "margin:1px"},
		{"measure/measure.js", "window.measureEndpoint", "window.fromMemory", "measure.js", "window.fromMemory"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			mem := fixture(t)
			f := mem[tc.file]
			if !bytes.Contains(f.Data, []byte(tc.old)) {
				t.Fatalf("%s does not hold %q", tc.file, tc.old)
			}
			f.Data = bytes.Replace(f.Data, []byte(tc.old), []byte(tc.new), 1)
			s, err := Build(Options{FS: mem, Getenv: getenv})
			if err != nil {
				t.Fatal(err)
			}
			out := tc.out
			if out == "" { // the stylesheet, by its hashed name
				out = strings.TrimPrefix(s.assets["style.css"], "/")
			}
			if !bytes.Contains(s.Files[out], []byte(tc.want)) {
				t.Errorf("%s lacks %q:\n%s", out, tc.want, s.Files[out])
			}
		})
	}
	t.Run("checked out with CRLF line ends", func(t *testing.T) {
		// Git for Windows checks text out with CRLF (core.autocrlf): the
		// same sources, the same bytes. A code span across a line end
		// shows it: the line end becomes one space; and a TOML string
		// over lines, in front matter and site.toml, keeps its line end.
		lf, crlf := fixture(t), fixture(t)
		for _, mem := range []fstest.MapFS{lf, crlf} {
			f := mem["content/index.md"]
			f.Data = append(f.Data, "\nA span `across a\nline end`.\n"...)
			f.Data = bytes.Replace(f.Data, []byte(`description = "The fixture's`), []byte(`description = """The`+"\n"+`fixture's`), 1)
			f.Data = bytes.Replace(f.Data, []byte(`page."`), []byte(`page."""`), 1)
			f = mem["site.toml"]
			f.Data = bytes.Replace(f.Data, []byte(`publisher = "Fixture"`), []byte(`publisher = """The`+"\n"+`Fixture"""`), 1)
			// Copied as it is but for the line ends: a favicon.svg was.
			mem["static/icon.svg"] = &fstest.MapFile{Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>` + "\n")}
		}
		for _, f := range crlf {
			f.Data = bytes.ReplaceAll(f.Data, []byte("\n"), []byte("\r\n"))
		}
		a, err := Build(Options{FS: lf, Getenv: getenv})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Build(Options{FS: crlf, Getenv: getenv})
		if err != nil {
			t.Fatal(err)
		}
		if d := differing(a.Files, b.Files); len(d) > 0 {
			t.Errorf("built from CRLF sources, these files differ: %s", strings.Join(d, ", "))
		}
	})
	t.Run("an error's file name", func(t *testing.T) {
		mem := fixture(t)
		mem["content/404.md"] = &fstest.MapFile{Data: []byte("+++\ntitle = \"x\"\n")}
		if _, err := Build(Options{FS: mem, Getenv: noEnv}); err == nil || !strings.HasPrefix(err.Error(), "content/404.md:1: ") {
			t.Errorf("err = %v, want it to begin content/404.md:1: ", err)
		}
	})
}

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
