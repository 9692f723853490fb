package cite

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	v1, _ := ParseCopy("acme/lib@v1=testdata/upstream/v1")
	v2, _ := ParseCopy("acme/lib@v2=testdata/upstream/v2")
	for _, tc := range []struct {
		name  string
		src   Copy
		spec  string
		quote string
		want  string
	}{
		{"exact", v1, "acme/lib@v1:src/mod.py#6-8", "raise Boom(\n  \"x\"\n)", "ok x.md:3: src/mod.py#6-8"},
		{"substring of a line", v1, "acme/lib@v1:src/mod.py#5", "def raise_it", "ok "},
		{"elided", v1, "acme/lib@v1:src/mod.py#5-8", "def raise_it(): ... \"x\"", "ok "},
		{"elided with …", v1, "acme/lib@v1:src/mod.py#5-8", "def raise_it(): … )", "ok "},
		{"moved", v2, "acme/lib@v2:src/mod.py#6-8", "raise Boom(\n\"x\"\n)", `MISMATCH x.md:3: src/mod.py#6-8 does not hold "raise Boom( \"x\" )"; found at 9-11`},
		{"moved, one line", v2, "acme/lib@v2:src/mod.py#5", "def raise_it():", "found at 8"},
		{"gone", v1, "acme/lib@v1:src/mod.py#5", "def vanished():", "not found anywhere in the file"},
		{"no such file", v1, "acme/lib@v1:src/nope.py#1", "x", "no such file"},
		{"past the end", v1, "acme/lib@v1:src/mod.py#40", "x", "past the end"},
		{"version mismatch", v1, "acme/lib@v2:src/mod.py#6", "raise Boom(", "VERSION MISMATCH x.md:3: src/mod.py#6 cites v2, but testdata/upstream/v1 holds v1: not checked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			c.Quote, c.At = tc.quote, "x.md:3"
			if got := tc.src.Check(c).Message; !strings.Contains(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseAndURL(t *testing.T) {
	for _, tc := range []struct{ spec, url, label string }{
		{"modelcontextprotocol/python-sdk@v1.29.0:src/mcp/shared/session.py#305-306",
			"https://github.com/modelcontextprotocol/python-sdk/blob/v1.29.0/src/mcp/shared/session.py#L305-L306",
			"src/mcp/shared/session.py, lines 305-306"},
		{"encode/httpx@0.28.1:httpx/_status_codes.py#124",
			"https://github.com/encode/httpx/blob/0.28.1/httpx/_status_codes.py#L124",
			"httpx/_status_codes.py, line 124"},
	} {
		c, err := Parse(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if c.URL() != tc.url || c.Label() != tc.label || c.Spec() != tc.spec {
			t.Errorf("%s: %s %q %s", tc.spec, c.URL(), c.Label(), c.Spec())
		}
	}
	for _, bad := range []string{"x", "a/b@v1:../etc/passwd#1", "a/b@v1:p#0", "a/b@v1:p#5-3", "a/b:p#1"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) passed", bad)
		}
	}
}

func TestCheckAll(t *testing.T) {
	var cites []Citation
	for _, s := range []struct{ spec, quote string }{
		{"acme/lib@v1:src/mod.py#6-8", "raise Boom(\n  \"x\"\n)"},
		{"acme/lib@v1:src/mod.py#5", "def vanished():"},
		{"zeta/z@1:a.py#1", "x"},
		{"beta/b@1:a.py#1", "x"},
		{"beta/b@1:a.py#2", "y"},
	} {
		c, err := Parse(s.spec)
		if err != nil {
			t.Fatal(err)
		}
		c.Quote, c.At = s.quote, "x.md:1"
		cites = append(cites, c)
	}
	var out strings.Builder
	ok, err := CheckAll(&out, cites, []string{"acme/lib@v1=testdata/upstream/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Error("CheckAll reported success with a quote that is gone")
	}
	// The repositories without a source come in name order, so that two
	// runs print the same summary.
	want := "1 ok, 1 mismatched, 0 at another version; 2 of beta/b not checked (no source given); 1 of zeta/z not checked (no source given)\n"
	if !strings.HasSuffix(out.String(), want) {
		t.Errorf("summary:\n%s\nwant it to end with:\n%s", out.String(), want)
	}
	if _, err := CheckAll(&out, cites, []string{"acme/lib"}); err == nil || !strings.Contains(err.Error(), "write REPO=DIR") {
		t.Errorf("a malformed -check-sources argument: err = %v", err)
	}
}

// TestCheckAllTwoVersions: one repository given at two versions; each
// citation is checked against its own, and one at a third is reported.
func TestCheckAllTwoVersions(t *testing.T) {
	var cites []Citation
	for _, s := range []struct{ spec, quote string }{
		{"acme/lib@v1:src/mod.py#6-8", "raise Boom(\n  \"x\"\n)"},
		{"acme/lib@v2:src/mod.py#9-11", "raise Boom(\n  \"x\"\n)"},
		{"acme/lib@v2:src/mod.py#1", "# moved down"},
	} {
		c, err := Parse(s.spec)
		if err != nil {
			t.Fatal(err)
		}
		c.Quote, c.At = s.quote, "x.md:1"
		cites = append(cites, c)
	}
	args := []string{"acme/lib@v1=testdata/upstream/v1", "acme/lib@v2=testdata/upstream/v2"}
	var out strings.Builder
	ok, err := CheckAll(&out, cites, args)
	if err != nil {
		t.Fatal(err)
	}
	if !ok || !strings.HasSuffix(out.String(), "3 ok, 0 mismatched, 0 at another version\n") {
		t.Errorf("ok = %v, output:\n%s", ok, out.String())
	}
	c, _ := Parse("acme/lib@v3:src/mod.py#1")
	c.Quote = "def a():"
	out.Reset()
	if ok, _ := CheckAll(&out, append(cites, c), args); ok || !strings.Contains(out.String(), "1 at another version") {
		t.Errorf("a citation of v3 with only v1 and v2 given: ok = %v, output:\n%s", ok, out.String())
	}
}

// TestParseRefusesLinesPastInt: a line number too large for an int is an
// error, not a number clamped to the largest one.
func TestParseRefusesLinesPastInt(t *testing.T) {
	for _, spec := range []string{
		"a/b@v1:x.py#99999999999999999999",
		"a/b@v1:x.py#1-99999999999999999999",
	} {
		if _, err := Parse(spec); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("Parse(%q) = %v, want out of range", spec, err)
		}
	}
}
