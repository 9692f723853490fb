package quote

import (
	"bytes"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"errref/internal/site"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// The made-up library, at the version cited now and the one to move to.
const (
	from = "acme/lib@v1.0.0=testdata/repin/upstream/v1"
	to   = "acme/lib@v2.0.0=testdata/repin/upstream/v2"
)

// fixture makes a site in a temporary folder: the real templates, static
// files and counter, and content/ from testdata/content, or the pages
// given instead.
func fixture(t *testing.T, pages map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for _, dir := range []string{site.TemplateDir, site.StaticDir, site.MeasureDir} {
		if err := os.CopyFS(filepath.Join(root, dir), os.DirFS(filepath.Join("..", "..", dir))); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "site.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "site.toml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	content := filepath.Join(root, site.ContentDir)
	if pages == nil {
		if err := os.CopyFS(content, os.DirFS(filepath.Join("testdata", "repin", "content"))); err != nil {
			t.Fatal(err)
		}
		return root
	}
	if err := os.Mkdir(content, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range pages {
		if err := os.WriteFile(filepath.Join(content, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// options builds the site at root, as the command does, and returns what
// Run needs to move its citations of acme/lib from v1.0.0 to v2.0.0.
func repinOptions(t *testing.T, root string, write bool, out *bytes.Buffer) RepinOptions {
	t.Helper()
	s, err := site.Build(site.Options{FS: os.DirFS(root), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return RepinOptions{Build: built(s), Root: root, To: to, From: []string{from}, Write: write, Out: out}
}

// pagesOf are the page files as o's build read them.
func pagesOf(t *testing.T, o RepinOptions) map[string][]byte {
	t.Helper()
	s, err := o.Build()
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]byte{}
	for _, p := range s.Pages {
		m[p.File] = p.Raw()
	}
	return m
}

// contentOf reads every file in root's content/, by name.
func contentOf(t *testing.T, root string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(root, site.ContentDir))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(root, site.ContentDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(data)
	}
	return m
}

var reportRE = regexp.MustCompile(`(?m)^content/(?:index|about)\.md:(\d+): (moved|unchanged|changed|ambiguous|gone|not ok at \S+|\S+, but not rewritten): (.*)$`)

// TestOutcomes moves every citation of the fixture page and holds the
// report to what each citation's quote did between the two versions of
// testdata/repin/upstream/v1/src/app.py.
func TestRepinOutcomes(t *testing.T) {
	root := fixture(t, nil)
	var out bytes.Buffer
	ok, err := Repin(repinOptions(t, root, false, &out))
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Error("Run reported success with a changed, an ambiguous and a gone quote")
	}
	got := map[string][]string{}
	for _, m := range reportRE.FindAllStringSubmatch(out.String(), -1) {
		got[m[1]] = append(got[m[1]], m[2]+": "+m[3])
	}
	for _, tc := range []struct {
		line string
		want []string // the start of each report on that line
	}{
		{"9", []string{"unchanged: src/app.py#5 at v2.0.0"}},
		{"10", []string{"moved: src/app.py#9 is line 11 at v2.0.0"}},
		{"11", []string{`changed: src/app.py#13: "return \"before\"" is not in the file at v2.0.0; the nearest is line 15 (`}},
		{"12", []string{`ambiguous: src/app.py#17: "emit(\"twin\")" is at lines 19, 23 of the file at v2.0.0`}},
		{"13", []string{"gone: src/removed.py is not in acme/lib at v2.0.0"}},
		{"14", []string{"moved: src/app.py#22 is line 34 at v2.0.0 (the quote is in 2 places; told apart by 1 line on each side)"}},
		{"15", []string{"moved: src/app.py#27-28 is lines 39-40 at v2.0.0", "moved: src/app.py#29 is line 41 at v2.0.0"}},
		{"16", []string{"moved: src/app.py#33 is line 45 at v2.0.0; the quote holds, but the cited lines changed around it"}},
		{"18", []string{"moved: src/app.py#26-29 is lines 38-41 at v2.0.0"}},
		{"7", []string{"moved: src/app.py#9 is line 11 at v2.0.0"}}, // about.md
	} {
		if len(got[tc.line]) != len(tc.want) {
			t.Errorf("line %s: got %q, want %q", tc.line, got[tc.line], tc.want)
			continue
		}
		for i, w := range tc.want {
			if !strings.HasPrefix(got[tc.line][i], w) {
				t.Errorf("line %s:\n got %s\nwant %s...", tc.line, got[tc.line][i], w)
			}
		}
		delete(got, tc.line)
	}
	if len(got) > 0 {
		t.Errorf("reports for lines not moved: %q", got)
	}
	for _, want := range []string{
		// what to do, for each left as it is
		"quote the code as it is now and cite its lines by hand, or leave it at v1.0.0\n" +
			"    -    return \"before\"\n" +
			"    +    return \"after\"\n",
		"cite the right lines by hand, or leave it at v1.0.0\n",
		"find where the code went and cite it by hand, or leave it at v1.0.0\n",
		// the diff of a line whose quote holds but changed around it
		"    -    note = \"kept\"  # a comment the next version drops\n    +    note = \"kept\"\n",
		// every line that names v1.0.0 outside a citation, and no other
		"lines naming v1.0.0, yours to read (not changed):\n" +
			"content/about.md:7: Checked against v1.0.0: [`return \"two lines lower\"`](cite:acme/lib@v1.0.0:src/app.py#9).\n" +
			"content/index.md:3: description = \"Quotes of a made-up library at v1.0.0, for the re-pin tests.\"\n" +
			"content/index.md:7: What acme/lib does, as of its version 1.0.0.\n" +
			"content/index.md:26: Shown as code, not quoted: `cite:acme/lib@v1.0.0:src/app.py#5`.\n" +
			"acme/lib to v2.0.0: 7 moved, 1 unchanged, 1 changed, 1 ambiguous, 1 gone; 1 already at v2.0.0\n" +
			"dry run: nothing written; -write writes the diff above\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report does not hold\n%s\nit is:\n%s", want, out.String())
		}
	}
	golden(t, "dryrun.txt", out.Bytes())
}

// golden compares data with testdata/NAME; go test -update rewrites it.
func golden(t *testing.T, name string, data []byte) {
	t.Helper()
	path := filepath.Join("testdata", "repin", name)
	if *update {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, want) {
		t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", name, path, data)
	}
}

// TestDryRunWritesNothing: without Write, every file in content/ keeps its
// bytes and its time, and no file is added.
func TestDryRunWritesNothing(t *testing.T) {
	root := fixture(t, nil)
	before := contentOf(t, root)
	info, err := os.Stat(filepath.Join(root, "content", "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := Repin(repinOptions(t, root, false, &out)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "+++ content/index.md\n@@ -9,2 +9,2 @@\n") {
		t.Errorf("the dry run printed no diff:\n%s", out.String())
	}
	if after := contentOf(t, root); !maps.Equal(after, before) {
		t.Errorf("content/ changed in a dry run: %q, was %q", slices.Sorted(maps.Keys(after)), slices.Sorted(maps.Keys(before)))
	}
	if now, err := os.Stat(filepath.Join(root, "content", "index.md")); err != nil || !now.ModTime().Equal(info.ModTime()) {
		t.Errorf("index.md was touched in a dry run: %v", err)
	}
}

// TestWriteTouchesNoOtherByte: with Write, the pages are the golden ones,
// where only the specs of the moved and unchanged citations differ from
// testdata/content/, nothing else is left in content/, and -check-sources
// at both versions passes afterwards.
func TestWriteTouchesNoOtherByte(t *testing.T) {
	root := fixture(t, nil)
	before := contentOf(t, root)
	// The mode as this OS reports the fixture's 0644 (Windows: 0666).
	was, err := os.Stat(filepath.Join(root, "content", "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ok, err := Repin(repinOptions(t, root, true, &out))
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Error("Run reported success with a changed, an ambiguous and a gone quote")
	}
	after := contentOf(t, root)
	golden(t, "index.written.md", []byte(after["index.md"]))
	golden(t, "about.written.md", []byte(after["about.md"]))
	if len(after) != len(before) {
		t.Errorf("files in content/ after -write: %q", slices.Sorted(maps.Keys(after)))
	}
	if !strings.HasSuffix(out.String(), "wrote content/about.md\nwrote content/index.md\n") {
		t.Errorf("output does not end saying what was written:\n%s", out.String())
	}
	info, err := os.Stat(filepath.Join(root, "content", "index.md"))
	if err != nil || info.Mode().Perm() != was.Mode().Perm() {
		t.Errorf("index.md's mode after -write: %v, %v; want %v, as before", info.Mode(), err, was.Mode().Perm())
	}

	// The moved ones hold at v2.0.0, the rest still at v1.0.0.
	s, err := site.Build(site.Options{FS: os.DirFS(root), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	var check strings.Builder
	ok, err = Check(&check, []string{from, to}, built(s))
	if err != nil {
		t.Fatal(err)
	}
	if !ok || !strings.Contains(check.String(), "12 ok, 0 mismatched, 0 at another version; 1 of other/lib not checked") {
		t.Errorf("-check-sources after -write:\n%s", check.String())
	}
}

// TestRefusesAFileChangedUnderIt: a page that is not on disk as the build
// read it is not written, whether it changed before the command began to
// write or just before its rename; the author's bytes stay, and no
// temporary file is left. Both pages of the fixture have citations to
// rewrite, about.md first: a change found before writing keeps both as
// they were; one found at index.md's rename comes after about.md's, which
// is whole and said to be written.
func TestRefusesAFileChangedUnderIt(t *testing.T) {
	const edit = "\nA line the author added meanwhile.\n"
	for _, tc := range []struct {
		when  string
		about string // what about.md is afterwards: "read" or "golden"
		err   string
	}{
		{"before writing", "read", "content/index.md changed since the build read it: run the command again on the file as it is now: nothing written"},
		{"before the rename", "golden", "content/index.md changed since the build read it: run the command again on the file as it is now: content/index.md not written; already written: content/about.md"},
	} {
		t.Run(tc.when, func(t *testing.T) {
			root := fixture(t, nil)
			page := filepath.Join(root, "content", "index.md")
			var out bytes.Buffer
			o := repinOptions(t, root, true, &out)
			change := func() {
				f, err := os.OpenFile(page, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				if _, err := f.WriteString(edit); err != nil {
					t.Fatal(err)
				}
			}
			if tc.when == "before writing" {
				change()
			} else {
				beforeRename = func(path string) {
					if path == page {
						change()
					}
				}
				defer func() { beforeRename = func(string) {} }()
			}
			_, err := Repin(o)
			if err == nil || err.Error() != tc.err {
				t.Fatalf("err = %v\nwant %s", err, tc.err)
			}
			after := contentOf(t, root)
			if want := string(pagesOf(t, o)["content/index.md"]) + edit; after["index.md"] != want {
				t.Errorf("index.md is not the author's:\n%s", after["index.md"])
			}
			about := string(pagesOf(t, o)["content/about.md"])
			if tc.about == "golden" {
				data, _ := os.ReadFile(filepath.Join("testdata", "repin", "about.written.md"))
				about = string(data)
			}
			if after["about.md"] != about {
				t.Errorf("about.md is\n%s\nwant it %s", after["about.md"], tc.about)
			}
			if len(after) != 2 {
				t.Errorf("content/ holds %q, want about.md and index.md only (a temporary file left?)", slices.Sorted(maps.Keys(after)))
			}
		})
	}
}

// TestAllMovedIsOK: a page whose quotes all moved or stayed succeeds and
// is rewritten, two citations of the same lines on one line each in its
// place, and a spec written with L (#L9) too; a quote that does not hold
// where it is cited now, or a spec written apart from its link (a
// reference link), is not rewritten and fails the run.
func TestAllMovedIsOK(t *testing.T) {
	const head = "+++\ntitle = \"t\"\ndescription = \"d\"\ncounter = false\n+++\n\n"
	for _, tc := range []struct {
		name, body string
		ok         bool
		report     string
		written    string // the body afterwards, when it changes
	}{
		{"all moved", "[`return \"two lines lower\"`](cite:acme/lib@v1.0.0:src/app.py#9)\n" +
			"[`return \"in place\"`](cite:acme/lib@v1.0.0:src/app.py#5)\n",
			true, "1 moved, 1 unchanged, 0 changed, 0 ambiguous, 0 gone\n",
			"[`return \"two lines lower\"`](cite:acme/lib@v2.0.0:src/app.py#11)\n" +
				"[`return \"in place\"`](cite:acme/lib@v2.0.0:src/app.py#5)\n"},
		{"the same lines twice on a line", "[`return`](cite:acme/lib@v1.0.0:src/app.py#9), [`lower`](cite:acme/lib@v1.0.0:src/app.py#9)\n",
			true, "2 moved, 0 unchanged",
			"[`return`](cite:acme/lib@v2.0.0:src/app.py#11), [`lower`](cite:acme/lib@v2.0.0:src/app.py#11)\n"},
		{"not ok where it is", "[`return \"nowhere\"`](cite:acme/lib@v1.0.0:src/app.py#5)\n",
			false, "content/index.md:7: not ok at v1.0.0, so not moved: MISMATCH content/index.md:7: src/app.py#5 does not hold", ""},
		{"spec written with L", "[`return \"two lines lower\"`](cite:acme/lib@v1.0.0:src/app.py#L9)\n",
			true, "1 moved", "[`return \"two lines lower\"`](cite:acme/lib@v2.0.0:src/app.py#11)\n"},
		{"a reference link", "[`return \"two lines lower\"`][r]\n\n[r]: cite:acme/lib@v1.0.0:src/app.py#9\n",
			false, "content/index.md:7: moved, but not rewritten: its spec is not written in the link or fence", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := fixture(t, map[string]string{"index.md": head + tc.body})
			var out bytes.Buffer
			ok, err := Repin(repinOptions(t, root, true, &out))
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.ok || !strings.Contains(out.String(), tc.report) {
				t.Errorf("ok = %v, want %v; output:\n%s\nwant it to hold %q", ok, tc.ok, out.String(), tc.report)
			}
			want := head + tc.body
			if tc.written != "" {
				want = head + tc.written
			}
			if got := contentOf(t, root)["index.md"]; got != want {
				t.Errorf("index.md afterwards:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestNothingToMoveIsAnError: a repository no page cites, or citations
// none of whose versions -check-sources names, is an error, not a run
// that moves nothing and succeeds.
func TestNothingToMoveIsAnError(t *testing.T) {
	root := fixture(t, nil)
	var out bytes.Buffer
	o := repinOptions(t, root, false, &out)
	o.To = "acme/other@v2.0.0=testdata/repin/upstream/v2"
	if _, err := Repin(o); err == nil || !strings.Contains(err.Error(), "no page in content/ cites acme/other") {
		t.Errorf("an uncited repository: err = %v", err)
	}
	o = repinOptions(t, root, false, &out)
	o.From = nil
	if _, err := Repin(o); err == nil || !strings.Contains(err.Error(), "with -check-sources acme/lib@v1.0.0=DIR") {
		t.Errorf("no -check-sources: err = %v", err)
	}
}

// TestHistoryStays: a quote of a release the page keeps as history (its
// front matter's history) is not moved, and the report says so.
func TestHistoryStays(t *testing.T) {
	page := "+++\ntitle = \"t\"\ndescription = \"d\"\ncounter = false\nhistory = [\"acme/lib@v1.0.0\"]\n+++\n\n" +
		"[`return \"two lines lower\"`](cite:acme/lib@v1.0.0:src/app.py#9)\n"
	root := fixture(t, map[string]string{"index.md": page})
	var out bytes.Buffer
	ok, err := Repin(repinOptions(t, root, true, &out))
	if err != nil {
		t.Fatal(err)
	}
	if want := "0 moved, 0 unchanged, 0 changed, 0 ambiguous, 0 gone; 1 at v1.0.0 kept there as history\n"; !ok || !strings.Contains(out.String(), want) {
		t.Errorf("ok = %v; output:\n%s\nwant ok and %q", ok, out.String(), want)
	}
	if got := contentOf(t, root)["index.md"]; got != page {
		t.Errorf("index.md afterwards:\n%s\nwant it as it was", got)
	}
}

// TestRefusesAVersionNoSpecHolds: a version a citation cannot be written
// with (a tag with a slash, an unscoped package's pkg@1.2.3) is refused
// before anything is read or written; -write would make every page it
// moved a quote of fail to build.
func TestRefusesAVersionNoSpecHolds(t *testing.T) {
	for _, version := range []string{"release/v2.0.0", "lib@2.0.0", "v2.0.0 "} {
		root := fixture(t, nil)
		before := contentOf(t, root)
		var out bytes.Buffer
		o := repinOptions(t, root, true, &out)
		o.To = "acme/lib@" + version + "=testdata/repin/upstream/v2"
		if _, err := Repin(o); err == nil || !strings.Contains(err.Error(), "cannot stand in a citation") {
			t.Errorf("-repin acme/lib@%s: err = %v", version, err)
		}
		if after := contentOf(t, root); !maps.Equal(after, before) {
			t.Errorf("-repin acme/lib@%s -write changed content/:\n%s", version, after["index.md"])
		}
	}
}
