package quote

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"errref/internal/cite"
	"errref/internal/markdown"
	"errref/internal/site"
)

// built is a build that gives s.
func built(s *site.Site) func() (*site.Site, error) {
	return func() (*site.Site, error) { return s, nil }
}

// cited is a citation of spec quoting quote, written on line 3 of x.md.
func cited(t *testing.T, spec, quote string) site.Citation {
	t.Helper()
	s, err := cite.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return site.Citation{Citation: markdown.Citation{Spec: s, Quote: quote, Line: 3}, File: "x.md"}
}

func TestCheck(t *testing.T) {
	v1, _ := parseCopy("-check-sources", "acme/lib@v1=testdata/check/v1", false)
	v2, _ := parseCopy("-check-sources", "acme/lib@v2=testdata/check/v2", false)
	for _, tc := range []struct {
		name  string
		src   Copy
		spec  string
		quote string
		want  string
	}{
		{"exact", v1, "acme/lib@v1:src/mod.py#6-8", "raise Boom(\n  \"x\"\n)", "ok x.md:3: src/mod.py#6-8"},
		{"substring of a line", v1, "acme/lib@v1:src/mod.py#5", "def raise_it", "ok "},
		{"part of a word", v1, "acme/lib@v1:src/mod.py#5", "def raise", "MISMATCH x.md:3: src/mod.py#5 does not hold \"def raise\"; not found anywhere"},
		{"a word's end", v1, "acme/lib@v1:src/mod.py#6", "Boo", "MISMATCH "},
		{"elided", v1, "acme/lib@v1:src/mod.py#5-8", "def raise_it(): ... \"x\"", "ok "},
		{"elided with …", v1, "acme/lib@v1:src/mod.py#5-8", "def raise_it(): … )", "ok "},
		{"moved", v2, "acme/lib@v2:src/mod.py#6-8", "raise Boom(\n\"x\"\n)", `MISMATCH x.md:3: src/mod.py#6-8 does not hold "raise Boom( \"x\" )"; found at 9-11`},
		{"moved, one line", v2, "acme/lib@v2:src/mod.py#5", "def raise_it():", "found at 8"},
		{"gone", v1, "acme/lib@v1:src/mod.py#5", "def vanished():", "not found anywhere in the file"},
		{"no such file", v1, "acme/lib@v1:src/nope.py#1", "x", "no such file"},
		// A Mac or Windows opens src/mod.py for these, and the page's link to GitHub finds nothing.
		{"a file in another case", v1, "acme/lib@v1:src/Mod.py#6", "raise Boom(", "MISMATCH x.md:3: src/Mod.py#6: no such file"},
		{"a folder in another case", v1, "acme/lib@v1:SRC/mod.py#6", "raise Boom(", "MISMATCH x.md:3: SRC/mod.py#6: no such file"},
		{"past the end", v1, "acme/lib@v1:src/mod.py#40", "x", "past the end"},
		{"version mismatch", v1, "acme/lib@v2:src/mod.py#6", "raise Boom(", "VERSION MISMATCH x.md:3: src/mod.py#6 cites v2, but testdata/check/v1 holds v1: not checked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			check([]Copy{tc.src}, cited(t, tc.spec, tc.quote)).Report(&b)
			if got := b.String(); !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCheckAll(t *testing.T) {
	var cites []site.Citation
	for _, s := range []struct{ spec, quote string }{
		{"acme/lib@v1:src/mod.py#6-8", "raise Boom(\n  \"x\"\n)"},
		{"acme/lib@v1:src/mod.py#5", "def vanished():"},
		{"zeta/z@1:a.py#1", "x"},
		{"beta/b@1:a.py#1", "x"},
		{"beta/b@1:a.py#2", "y"},
	} {
		cites = append(cites, cited(t, s.spec, s.quote))
	}
	var out strings.Builder
	ok, err := Check(&out, []string{"acme/lib@v1=testdata/check/v1"}, built(&site.Site{Citations: cites}))
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Error("Check reported success with a quote that is gone")
	}
	// The repositories without a source come in name order, so that two
	// runs print the same summary.
	want := "1 ok, 1 mismatched, 0 at another version; 2 of beta/b not checked (no source given); 1 of zeta/z not checked (no source given)\n"
	if !strings.HasSuffix(out.String(), want) {
		t.Errorf("summary:\n%s\nwant it to end with:\n%s", out.String(), want)
	}
	// A malformed argument is refused before the site is built; so is a
	// folder that is no checkout given without the version of its files,
	// which would hold every citation, of any version.
	for _, tc := range []struct{ arg, want string }{
		{"acme/lib", "-check-sources \"acme/lib\": write REPO=DIR"},
		{"acme/lib=testdata/nowhere", "-check-sources acme/lib: testdata/nowhere is not a folder"},
		{"acme/lib=testdata/check/v1", "-check-sources acme/lib: testdata/check/v1 is not a git checkout: write acme/lib@VERSION=testdata/check/v1"},
	} {
		_, err := Check(&out, []string{tc.arg}, func() (*site.Site, error) { t.Errorf("%s: built the site", tc.arg); return nil, nil })
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("-check-sources %s: err = %v, want %s...", tc.arg, err, tc.want)
		}
	}
	// A repository no page cites (a typo) checks nothing: an error, not "0 ok".
	_, err = Check(&out, []string{"acme/lib@v1=testdata/check/v1", "acme/lbi@v1=testdata/check/v1"}, built(&site.Site{Citations: cites}))
	if want := "-check-sources acme/lbi: no page in content/ cites acme/lbi"; err == nil || err.Error() != want {
		t.Errorf("an uncited repository: err = %v, want %s", err, want)
	}
}

// TestCheckAllTwoVersions: one repository given at two versions; each
// citation is checked against its own, and one at a third is reported.
func TestCheckAllTwoVersions(t *testing.T) {
	var cites []site.Citation
	for _, s := range []struct{ spec, quote string }{
		{"acme/lib@v1:src/mod.py#6-8", "raise Boom(\n  \"x\"\n)"},
		{"acme/lib@v2:src/mod.py#9-11", "raise Boom(\n  \"x\"\n)"},
		{"acme/lib@v2:src/mod.py#1", "# moved down"},
	} {
		cites = append(cites, cited(t, s.spec, s.quote))
	}
	args := []string{"acme/lib@v1=testdata/check/v1", "acme/lib@v2=testdata/check/v2"}
	var out strings.Builder
	ok, err := Check(&out, args, built(&site.Site{Citations: cites}))
	if err != nil {
		t.Fatal(err)
	}
	if !ok || !strings.HasSuffix(out.String(), "3 ok, 0 mismatched, 0 at another version\n") {
		t.Errorf("ok = %v, output:\n%s", ok, out.String())
	}
	c := cited(t, "acme/lib@v3:src/mod.py#1", "def a():")
	out.Reset()
	if ok, _ := Check(&out, args, built(&site.Site{Citations: append(cites, c)})); ok || !strings.Contains(out.String(), "1 at another version") {
		t.Errorf("a citation of v3 with only v1 and v2 given: ok = %v, output:\n%s", ok, out.String())
	}
}

// TestShort: a quote in a report is folded to one line and cut to 60
// characters, never inside one.
func TestShort(t *testing.T) {
	for _, tc := range []struct{ quote, want string }{
		{"raise  McpError(\n    error)", "raise McpError( error)"},
		{strings.Repeat("x", 60), strings.Repeat("x", 60)},
		{strings.Repeat("x", 61), strings.Repeat("x", 57) + "..."},
		{strings.Repeat("é", 61), strings.Repeat("é", 57) + "..."},
		{strings.Repeat("x", 56) + "€€€€€", strings.Repeat("x", 56) + "€..."},
	} {
		if got := short(tc.quote); got != tc.want {
			t.Errorf("short(%q) = %q, want %q", tc.quote, got, tc.want)
		}
	}
}

// TestCheckReadsTheCommit: a checkout given as REPO=DIR is checked as the
// commit it is at, as GitHub shows it: not an edit to its work tree, nor a
// file git does not hold (a build's output, a generated _version.py).
func TestCheckReadsTheCommit(t *testing.T) {
	lib := library(t)
	git(t, lib, "checkout", "-q", "v1.0.0")
	if err := os.WriteFile(filepath.Join(lib, "src", "app.py"), []byte("def connect():\n    return \"edited\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(lib, "src", "_version.py"), []byte("version = \"1.0.0\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	co, err := parseCopy("-check-sources", "acme/lib="+lib, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ spec, quote, want string }{
		{"acme/lib@v1.0.0:src/app.py#2", `return "stable"`, "ok "},
		{"acme/lib@v1.0.0:src/app.py#2", `return "edited"`, "MISMATCH "},
		{"acme/lib@v1.0.0:src/_version.py#1", `version = "1.0.0"`, "MISMATCH x.md:3: src/_version.py#1: no such file"},
	} {
		var b strings.Builder
		check([]Copy{co}, cited(t, tc.spec, tc.quote)).Report(&b)
		if got := b.String(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s quoting %s: got %q, want %q...", tc.spec, tc.quote, got, tc.want)
		}
	}
}
