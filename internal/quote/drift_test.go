package quote

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"errref/internal/site"
)

const head = "+++\ntitle = \"t\"\ndescription = \"d\"\ncounter = false\n+++\n\n"

// history is the front matter of a page that quotes v1.0.0 of acme/lib
// to show what it did.
const history = "+++\ntitle = \"t\"\ndescription = \"d\"\ncounter = false\nhistory = [\"acme/lib@v1.0.0\"]\n+++\n\n"

// Pages of the fixture site. Each cites acme/lib, drifttest's library.
const (
	// current cites the newest 1.x and 2.x releases, where every quote
	// holds; its 1.x quotes are not in 2.x.
	current = head +
		"Checked at v1.2.0: [`def connect():`](cite:acme/lib@v1.2.0:src/app.py#1),\n" +
		"[`return 30`](cite:acme/lib@v1.2.0:src/app.py#7), [`return \"five\"`](cite:acme/lib@v1.2.0:src/app.py#10).\n" +
		"And 2.x: [`return 60`](cite:acme/lib@v2.0.0:src/app.py#6).\n"
	// old cites v1.0.0, whose quotes fare every way at v1.2.0.
	old = head +
		"As of v1.0.0 of acme/lib:\n\n" +
		"- [`def connect():`](cite:acme/lib@v1.0.0:src/app.py#1)\n" +
		"- [`return 30`](cite:acme/lib@v1.0.0:src/app.py#5)\n" +
		"- [`return \"three\"`](cite:acme/lib@v1.0.0:src/app.py#8)\n" +
		"- [`emit(\"y\")`](cite:acme/lib@v1.0.0:src/twins.py#2)\n" +
		"- [`def legacy():`](cite:acme/lib@v1.0.0:src/old.py#1)\n" +
		"- [`return 60`](cite:acme/lib@v2.0.0:src/app.py#6)\n\n" +
		"Not this version: v1.0.01 or 1.0.0rc1.\n"
	// moved cites v1.0.0 quotes that all hold at v1.2.0, one at other lines.
	moved = head +
		"[`def connect():`](cite:acme/lib@v1.0.0:src/app.py#1), [`return 30`](cite:acme/lib@v1.0.0:src/app.py#5)\n"
)

// options builds the site of the pages, as the command does, and returns
// what Drift needs to check it against the clones.
func driftOptions(t *testing.T, pages map[string]string, out *bytes.Buffer, clones ...string) DriftOptions {
	t.Helper()
	s, err := site.Build(site.Options{FS: os.DirFS(fixture(t, pages)), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return DriftOptions{Build: built(s), Clones: clones, Out: out}
}

// run checks a page against the clone and returns the exit code and what
// it printed.
func run(t *testing.T, page string, pre bool, clones ...string) (int, string, error) {
	t.Helper()
	var out bytes.Buffer
	o := driftOptions(t, map[string]string{"index.md": page}, &out, clones...)
	o.Pre = pre
	code, err := Drift(o)
	return code, out.String(), err
}

// TestOutcomes checks each page against the library, from a clone with a
// work tree and from a bare one: the exit code, and the report, the same
// from both.
func TestDriftOutcomes(t *testing.T) {
	lib := library(t)
	bare := bare(t, lib)
	for _, tc := range []struct {
		name string
		page string
		pre  bool
		code int
		want string // the whole report
	}{
		{"at the newest releases", current, false, Held,
			"lib v1.2.0 is the newest 1.x release and v2.0.0 is the newest 2.x release; 4 citations hold\n"},
		{"every outcome", old, false, Drifted,
			"content/index.md:9: unchanged: src/app.py#1 at v1.2.0\n" +
				"content/index.md:10: moved: src/app.py#5 is line 7 at v1.2.0\n" +
				"content/index.md:11: changed: src/app.py#8: \"return \\\"three\\\"\" is not in the file at v1.2.0; the nearest is line 10 (75% alike): quote the code as it is now and cite its lines by hand, or leave it at v1.0.0\n" +
				"    -    return \"three\"\n" +
				"    +    return \"five\"\n" +
				"content/index.md:12: ambiguous: src/twins.py#2: \"emit(\\\"y\\\")\" is at lines 2, 4 of the file at v1.2.0, and the lines around them do not tell which one is quoted: cite the right lines by hand, or leave it at v1.0.0\n" +
				"content/index.md:13: gone: src/old.py is not in acme/lib at v1.2.0: find where the code went and cite it by hand, or leave it at v1.0.0\n" +
				"lines naming v1.0.0, yours to read (not changed):\n" +
				"content/index.md:7: As of v1.0.0 of acme/lib:\n" +
				"acme/lib v1.0.0 to v1.2.0, the newest 1.x release: 1 moved, 1 unchanged, 1 changed, 1 ambiguous, 1 gone\n" +
				"lib v1.2.0 is the newest 1.x release and v2.0.0 is the newest 2.x release; 3 of 6 citations do not hold there (1 changed, 1 ambiguous, 1 gone)\n"},
		{"moved, and so still holding", moved, false, Held,
			"content/index.md:7: unchanged: src/app.py#1 at v1.2.0\n" +
				"content/index.md:7: moved: src/app.py#5 is line 7 at v1.2.0\n" +
				"acme/lib v1.0.0 to v1.2.0, the newest 1.x release: 1 moved, 1 unchanged, 0 changed, 0 ambiguous, 0 gone\n" +
				"lib v1.2.0 is the newest 1.x release; 2 citations hold, all at an older release: -repin moves them\n"},
		{"a quote not held where cited", head + "[`return \"nope\"`](cite:acme/lib@v1.2.0:src/app.py#2)\n", false, Drifted,
			"content/index.md:7: not ok at v1.2.0, so not moved: MISMATCH content/index.md:7: src/app.py#2 does not hold \"return \\\"nope\\\"\"; not found anywhere in the file: fix it there first (-check-sources shows it)\n" +
				"acme/lib v1.2.0 to v1.2.0, the newest 1.x release: 0 moved, 0 unchanged, 0 changed, 0 ambiguous, 0 gone, 1 not ok at their version\n" +
				"lib v1.2.0 is the newest 1.x release; 1 of 1 citation does not hold there (1 not ok where cited)\n"},
		// v2.1.0rc1 changes the quote; as a prerelease it is left out.
		{"a newer prerelease left out", head + "[`return 60`](cite:acme/lib@v2.0.0:src/app.py#6)\n", false, Held,
			"lib v2.0.0 is the newest 2.x release; 1 citation holds\n"},
		{"a newer prerelease counted", head + "[`return 60`](cite:acme/lib@v2.0.0:src/app.py#6)\n", true, Drifted,
			"content/index.md:7: changed: src/app.py#6: \"return 60\" is not in the file at v2.1.0rc1; the nearest is line 6 (50% alike): quote the code as it is now and cite its lines by hand, or leave it at v2.0.0\n" +
				"    -    return 60\n" +
				"    +    return 90\n" +
				"acme/lib v2.0.0 to v2.1.0rc1, the newest 2.x version, a prerelease: 0 moved, 0 unchanged, 1 changed, 0 ambiguous, 0 gone\n" +
				"lib v2.1.0rc1 is the newest 2.x version, a prerelease; 1 of 1 citation does not hold there (1 changed)\n"},
		// v1.0.0's "three" is "five" at v1.2.0: quoted as history, it is
		// checked at v1.0.0 only.
		{"kept as history", history + "[`return \"three\"`](cite:acme/lib@v1.0.0:src/app.py#8) became [`return \"five\"`](cite:acme/lib@v1.2.0:src/app.py#10).\n", false, Held,
			"lib v1.2.0 is the newest 1.x release; 1 citation holds, and 1 kept as history holds at the release it quotes\n"},
		{"kept as history, and not held there", history + "[`return \"four\"`](cite:acme/lib@v1.0.0:src/app.py#8) became [`return \"five\"`](cite:acme/lib@v1.2.0:src/app.py#10).\n", false, Drifted,
			"content/index.md:8: not ok at v1.0.0, so not moved: MISMATCH content/index.md:8: src/app.py#8 does not hold \"return \\\"four\\\"\"; not found anywhere in the file: fix it there first (-check-sources shows it)\n" +
				"acme/lib: the quotes kept as history (front matter history) must hold at the release they quote\n" +
				"lib v1.2.0 is the newest 1.x release; 1 of 2 citations does not hold there (1 kept as history not ok at the release it quotes)\n"},
		{"a prerelease cited, checked against its release", head + "[`return 60`](cite:acme/lib@v2.0.0-rc1:src/app.py#5)\n", false, Held,
			"content/index.md:7: moved: src/app.py#5 is line 6 at v2.0.0\n" +
				"acme/lib v2.0.0-rc1 to v2.0.0, the newest 2.x release: 1 moved, 0 unchanged, 0 changed, 0 ambiguous, 0 gone\n" +
				"lib v2.0.0 is the newest 2.x release; 1 citation holds, at an older release: -repin moves it\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, dir := range []string{lib, bare} {
				code, out, err := run(t, tc.page, tc.pre, "acme/lib="+dir)
				if err != nil {
					t.Fatalf("%s: %v", dir, err)
				}
				if code != tc.code || out != tc.want {
					t.Errorf("%s: exit %d, report:\n%s\nwant exit %d, report:\n%s", dir, code, out, tc.code, tc.want)
				}
			}
		})
	}
}

// TestCannotAnswer: whatever keeps the check from answering for every
// citation is an error that names the folder or the citation (exit 2),
// never a report.
func TestCannotAnswer(t *testing.T) {
	lib := library(t)
	empty := filepath.Join(t.TempDir(), "empty")
	git(t, filepath.Dir(empty), "init", "-q", empty)
	git(t, empty, "commit", "-q", "--allow-empty", "-m", "no tags")
	file := filepath.Join(t.TempDir(), "lib.tar")
	if err := os.WriteFile(file, []byte("not a clone"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The same version tagged twice, at two commits.
	twice := library(t)
	git(t, twice, "tag", "1.2.0", "v1.0.0^{commit}")
	// A clone that lacks the content of a file its tags name.
	damaged := library(t)
	blob := strings.TrimSpace(git(t, damaged, "rev-parse", "v1.2.0:src/app.py"))
	if err := os.Remove(filepath.Join(damaged, ".git", "objects", blob[:2], blob[2:])); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, page string
		clones     []string
		want       string
	}{
		{"no tags", current, []string{"acme/lib=" + empty}, empty + " has no release tags"},
		{"a file", current, []string{"acme/lib=" + file}, file + " is a file, not a git clone"},
		{"no such folder", current, []string{"acme/lib=" + file + ".d"}, file + ".d: no such folder"},
		{"a folder inside a clone", current, []string{"acme/lib=" + filepath.Join(lib, "src")}, filepath.Join(lib, "src") + " is not a git repository"},
		{"a tag the page cites is not there", head + "[`def connect():`](cite:acme/lib@v1.9.0:src/app.py#1)\n", []string{"acme/lib=" + lib},
			lib + " lacks the tag the page cites: v1.9.0 (content/index.md:7)"},
		{"a tag that is no version", head + "[`def connect():`](cite:acme/lib@latest:src/app.py#1)\n", []string{"acme/lib=" + lib},
			"the page cites latest (content/index.md:7), which does not read as a release version"},
		{"a cited repository not given", current + "[`x`](cite:other/lib@v1.0.0:x.py#1)\n", []string{"acme/lib=" + lib},
			"content/index.md:10 cites other/lib, and no -drift other/lib=GITDIR is given"},
		{"a repository no page cites", current, []string{"acme/lib=" + lib, "acme/other=" + lib}, "-drift acme/other: no page in content/ cites acme/other"},
		{"given twice", current, []string{"acme/lib=" + lib, "acme/lib=" + empty}, "-drift acme/lib: given twice"},
		{"not REPO=GITDIR", current, []string{"acme/lib@v1.2.0=" + lib}, "write OWNER/REPO=GITDIR"},
		{"one version, two commits", current, []string{"acme/lib=" + twice}, "tags v1.2.0 and 1.2.0 both name the newest 1.x version, at different commits"},
		{"a damaged clone", current, []string{"acme/lib=" + damaged}, "src/app.py at v1.2.0 is in the tag's tree, but its content is not in the clone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			o := driftOptions(t, map[string]string{"index.md": tc.page}, &out, tc.clones...)
			code, err := Drift(o)
			if code != Failed || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("exit %d, err = %v; want exit 2 and an error holding %q", code, err, tc.want)
			}
			if out.Len() > 0 {
				t.Errorf("printed a report:\n%s", out.String())
			}
		})
	}
}

// TestTwoTagsOneVersion: two tags of one version at one commit, such as
// the SDK's 1.15.0 and v1.15.0, are one release, named as the page names
// it, or else as the page names its versions.
func TestTwoTagsOneVersion(t *testing.T) {
	lib := library(t)
	git(t, lib, "tag", "1.2.0", "v1.2.0^{commit}")
	git(t, lib, "tag", "v1.2", "v1.2.0^{commit}")
	for _, tc := range []struct{ page, want string }{
		{current, "lib v1.2.0 is the newest 1.x release"},
		{head + "[`return 30`](cite:acme/lib@1.2.0:src/app.py#7)\n", "lib 1.2.0 is the newest 1.x release"},
		{moved, "lib v1.2.0 is the newest 1.x release"},
		{moved + "[`return 30`](cite:acme/lib@1.2.0:src/app.py#7)\n", "lib 1.2.0 is the newest 1.x release"},
	} {
		code, out, err := run(t, tc.page, false, "acme/lib="+lib)
		if err != nil || code != Held || !strings.Contains(out, "\n"+tc.want) && !strings.HasPrefix(out, tc.want) {
			t.Errorf("exit %d, err = %v, report:\n%s\nwant it to say %q", code, err, out, tc.want)
		}
	}
}

// TestWorkspaceTags: a repository that tags each package's release, as
// typescript-sdk tags 2.0.0 (@modelcontextprotocol/core@2.0.0 and its
// other packages' tags, all at one commit), has those as its releases.
func TestWorkspaceTags(t *testing.T) {
	lib := library(t)
	git(t, lib, "tag", "@acme/core@2.0.1", "v2.0.0^{commit}")
	git(t, lib, "tag", "@acme/server@2.0.1", "v2.0.0^{commit}")
	page := head + "[`return 60`](cite:acme/lib@v2.0.0:src/app.py#6)\n"
	want := "acme/lib v2.0.0 to @acme/core@2.0.1, the newest 2.x release: 0 moved, 1 unchanged, 0 changed, 0 ambiguous, 0 gone\n"
	code, out, err := run(t, page, false, "acme/lib="+lib)
	if err != nil || code != Held || !strings.Contains(out, want) {
		t.Errorf("exit %d, err = %v, report:\n%s\nwant it to say %q", code, err, out, want)
	}
}

// TestWorkspaceTagsOfAnotherPackage: a quote of one package's release
// (@acme/client@2.0.0) is checked at that package's newest release, not at
// another package's (@acme/hono@2.0.1), whose commit holds client code no
// client release has.
func TestWorkspaceTagsOfAnotherPackage(t *testing.T) {
	lib := library(t)
	git(t, lib, "tag", "@acme/client@2.0.0", "v2.0.0^{commit}")
	git(t, lib, "tag", "@acme/hono@2.0.1", "v2.1.0rc1^{commit}") // where line 6 is return 90
	page := head + "[`return 60`](cite:acme/lib@@acme/client@2.0.0:src/app.py#6)\n"
	want := "lib @acme/client@2.0.0 is the newest 2.x release; 1 citation holds\n"
	code, out, err := run(t, page, false, "acme/lib="+lib)
	if err != nil || code != Held || out != want {
		t.Errorf("exit %d, err = %v, report:\n%s\nwant exit 0 and %q", code, err, out, want)
	}
}

// TestJSON: -json gives the report as JSON, each citation with its
// outcome, where it went and what the text report says of it; and the
// error, when there is one, with exit 2.
func TestJSON(t *testing.T) {
	lib := library(t)
	var out bytes.Buffer
	o := driftOptions(t, map[string]string{"index.md": old}, &out, "acme/lib="+lib)
	o.JSON = true
	code, err := Drift(o)
	if err != nil || code != Drifted {
		t.Fatalf("exit %d, err = %v", code, err)
	}
	var r jsonReport
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v:\n%s", err, out.String())
	}
	if r.Exit != Drifted || !strings.HasSuffix(r.Answer, "3 of 6 citations do not hold there (1 changed, 1 ambiguous, 1 gone)") || len(r.Repositories) != 1 {
		t.Fatalf("exit %d, answer %q, %d repositories", r.Exit, r.Answer, len(r.Repositories))
	}
	groups := r.Repositories[0].Groups
	if len(groups) != 2 || groups[0].Major != 1 || groups[0].Newest != "v1.2.0" || !groups[0].Drifted ||
		groups[1].Major != 2 || groups[1].Newest != "v2.0.0" || groups[1].Drifted {
		t.Fatalf("groups: %+v", groups)
	}
	var got []string
	for _, c := range groups[0].Citations {
		got = append(got, c.At+" "+c.Outcome+" "+c.To)
	}
	want := []string{
		"content/index.md:9 unchanged acme/lib@v1.2.0:src/app.py#1",
		"content/index.md:10 moved acme/lib@v1.2.0:src/app.py#7",
		"content/index.md:11 changed ",
		"content/index.md:12 ambiguous ",
		"content/index.md:13 gone ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("citations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	changed, ambiguous := groups[0].Citations[2], groups[0].Citations[3]
	if !slices.Equal(changed.Nearest, []int{10, 10}) || len(changed.Diff) != 2 || !strings.Contains(changed.Report, ": changed: src/app.py#8") ||
		!slices.Equal(ambiguous.Candidates, []int{2, 4}) {
		t.Errorf("changed: %+v\nambiguous: %+v", changed, ambiguous)
	}
	if p := groups[0].Prose; len(p) != 1 || p[0].Line != 7 || p[0].Text != "As of v1.0.0 of acme/lib:" {
		t.Errorf("prose: %+v", p)
	}
	if groups[0].Counts["moved"] != 1 || groups[0].Counts["gone"] != 1 || groups[1].Counts["unchanged"] != 1 {
		t.Errorf("counts: %v, %v", groups[0].Counts, groups[1].Counts)
	}

	out.Reset()
	o.Clones = []string{"acme/lib=" + filepath.Join(lib, "README")}
	if code, err := Drift(o); code != Failed || err == nil {
		t.Fatalf("exit %d, err = %v", code, err)
	}
	r = jsonReport{}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.Exit != Failed || !strings.Contains(r.Error, "no such folder") {
		t.Errorf("%v: %+v", err, r)
	}
}

// TestSameAsRepin: the report of every citation is what -repin's dry run
// prints for the same move, from folders of the same two tags.
func TestSameAsRepin(t *testing.T) {
	lib := library(t)
	export := func(tag string) string {
		dir := filepath.Join(t.TempDir(), tag)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		archive := exec.Command("git", "-C", lib, "archive", "--format=tar", tag)
		untar := exec.Command("tar", "-x", "-C", dir)
		untar.Stdin, _ = archive.StdoutPipe()
		if err := untar.Start(); err != nil {
			t.Fatal(err)
		}
		if err := archive.Run(); err != nil {
			t.Fatal(err)
		}
		if err := untar.Wait(); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	var dout, rout bytes.Buffer
	o := driftOptions(t, map[string]string{"index.md": old}, &dout, "acme/lib="+lib)
	if _, err := Drift(o); err != nil {
		t.Fatal(err)
	}
	_, err := Repin(RepinOptions{Build: o.Build, To: "acme/lib@v1.2.0=" + export("v1.2.0"), From: []string{"acme/lib@v1.0.0=" + export("v1.0.0")}, Out: &rout})
	if err != nil {
		t.Fatal(err)
	}
	cut := func(s, end string) string { return s[:strings.Index(s, end)] }
	d := cut(dout.String(), "lines naming")
	r := cut(rout.String(), "--- content/index.md")
	if d != r || strings.Count(d, "content/index.md:") != 5 {
		t.Errorf("-drift reports\n%s\n-repin\n%s", d, r)
	}
}

// TestCloneUntouched: checking writes nothing to the clone, bare or not:
// every file keeps its bytes, mode and time, and none is added.
func TestCloneUntouched(t *testing.T) {
	lib := library(t)
	bare := bare(t, lib)
	snapshot := func(dir string) map[string]string {
		m := map[string]string{}
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			data := ""
			if info.Mode().IsRegular() {
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				data = string(b)
			}
			m[p] = info.Mode().String() + " " + info.ModTime().Format(time.RFC3339Nano) + " " + data
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, dir := range []string{lib, bare} {
		before := snapshot(dir)
		for _, page := range []string{current, old, moved} {
			if _, _, err := run(t, page, true, "acme/lib="+dir); err != nil {
				t.Fatal(err)
			}
		}
		after := snapshot(dir)
		for p, s := range after {
			if before[p] != s {
				t.Errorf("%s: changed or added", p)
			}
		}
		for p := range before {
			if _, ok := after[p]; !ok {
				t.Errorf("%s: removed", p)
			}
		}
	}
}
