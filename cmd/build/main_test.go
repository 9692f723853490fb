package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"errref/internal/benchsite"
	"errref/internal/needs"
)

// fixture is the generator's test site: these tests hold the command, not
// the published page, and run with content/ emptied.
var fixture = filepath.Join("..", "..", "internal", "site", "testdata", "fixture")

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	needs.Hermetic()
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// newSite makes a one-page site of the repository's templates in a new folder.
func newSite(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := benchsite.Make(root, fixture, 1); err != nil {
		t.Fatal(err)
	}
	return root
}

// command builds the command once per test binary.
func command(t testing.TB) string {
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "errref-build-test-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "build")
		if runtime.GOOS == "windows" {
			binPath += ".exe" // else Windows will not run it
		}
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// symlink makes a symbolic link and reports whether there is one: Windows
// refuses without a privilege, and Wine's os.Symlink makes nothing and
// returns nil.
func symlink(target, link string) bool {
	if os.Symlink(target, link) != nil {
		return false
	}
	fi, err := os.Lstat(link)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// snapshot hashes every file, folder and link below dir, by path: a
// file's bytes and permissions, a link's target.
func snapshot(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	m := map[string][32]byte{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			m[rel] = sha256.Sum256([]byte("link:" + target))
		case d.IsDir():
			m[rel+string(filepath.Separator)] = sha256.Sum256([]byte("folder"))
		case d.Type().IsRegular():
			data, _ := os.ReadFile(p)
			if rel == ".errref-build" { // the output's marker, numbered anew by each build
				data, _, _ = bytes.Cut(data, []byte("\nbuild "))
			}
			var perm fs.FileMode
			if fi, err := d.Info(); err == nil {
				perm = fi.Mode().Perm()
			}
			m[rel] = sha256.Sum256(fmt.Appendf(data, "\x00%v", perm))
		}
		return nil
	})
	return m
}

// TestUnsafeOutIsRefusedAndNothingIsLost runs the command with each -out
// that would replace what someone wrote: it exits non-zero with the
// reason, and every file of the site folder is byte for byte the same.
func TestUnsafeOutIsRefusedAndNothingIsLost(t *testing.T) {
	bin := command(t)
	root := t.TempDir()
	if err := benchsite.Make(root, fixture, 3); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"docs", ".git/objects/ab", "internal/site", "public"} {
		os.MkdirAll(filepath.Join(root, d), 0o755)
	}
	os.WriteFile(filepath.Join(root, "docs", "notes.md"), []byte("my notes"), 0o644)
	os.WriteFile(filepath.Join(root, ".git", "objects", "ab", "cdef"), []byte("an object"), 0o644)
	os.WriteFile(filepath.Join(root, "internal", "site", "site.go"), []byte("package site"), 0o644)
	os.WriteFile(filepath.Join(root, "public", "mine.html"), []byte("not the build's"), 0o644)
	linked := symlink(".", filepath.Join(root, "here"))
	if !linked {
		t.Log("os.Symlink made no link (Windows without the privilege, Wine): -out through one is not tried")
	}
	before := snapshot(t, root)
	for _, tc := range []struct{ out, want string }{
		{"docs", "the build did not make it"},
		{"here/content", "inside"},
		{"here/docs", "the build did not make it"},
		{".git/objects", "inside"},
		{".git", "inside"},
		{"internal", "the build did not make it"},
		{"public", "the build did not make it"},
		{"content", "inside"},
		{"templates/x/..", "inside"},
		{".", "holds the site folder"},
		{"here", "holds the site folder"},
		{"..", "holds the site folder"},
		{"", `-out "": name the output folder, or drop -out to build into public/ in the site folder`},
	} {
		if strings.HasPrefix(tc.out, "here") && !linked {
			continue
		}
		cmd := exec.Command(bin, "-root", root, "-out", tc.out)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Errorf("-out %s: the build ran", tc.out)
		}
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("-out %s: output\n%s\nwant it to say %q", tc.out, out, tc.want)
		}
		if after := snapshot(t, root); !maps.Equal(before, after) {
			t.Fatalf("-out %s changed the site folder: %s", tc.out, differing(after, before))
		}
	}
}

// TestKilledBuildsLeaveACompleteSite kills the build at random points: the
// output is always a whole build (or none yet), and the next build leaves
// no temporary folder behind.
func TestKilledBuildsLeaveACompleteSite(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: builds a 3,000-page site and kills it at random points, 20 times; run without -short")
	}
	bin := command(t)
	root := t.TempDir()
	// As many of the fixture's small pages as make a build take about as
	// long as the random kills span, so that most land during it.
	if err := benchsite.Make(root, fixture, 3000); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(root, "public")
	run := func() error {
		cmd := exec.Command(bin, "-quiet", "-root", root, "-out", out)
		return cmd.Run()
	}
	if err := run(); err != nil {
		t.Fatal(err)
	}
	whole := snapshot(t, out)
	for i := range 20 {
		cmd := exec.Command(bin, "-quiet", "-root", root, "-out", out)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.IntN(400)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if got := snapshot(t, out); !maps.Equal(got, whole) {
			t.Fatalf("kill %d: public/ is not the whole site (%d files, want %d); these differ: %s", i, len(got), len(whole), differing(got, whole))
		}
	}
	if err := run(); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(root, ".public.new-*"))
	if len(left) > 0 {
		t.Errorf("left behind after the next build: %v", left)
	}
	if got := snapshot(t, out); !maps.Equal(got, whole) {
		t.Errorf("the build after the kills differs in: %s", differing(got, whole))
	}
}

// BenchmarkCommand times the build as a user runs it: the built command,
// a whole process, on sites of 1, 100 and 1,000 distinct pages, writing
// public/ and printing its summary. An in-process benchmark can hide a
// slow command; this one cannot. Every run is a cold build, as each one
// is: the command keeps nothing between runs but public/.
//
//	go test ./cmd/build -run '^$' -bench Command -benchtime 5x
func BenchmarkCommand(b *testing.B) {
	bin := command(b)
	for _, n := range []int{1, 100, 1000} {
		root := b.TempDir()
		if err := benchsite.Make(root, filepath.Join("..", ".."), n); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			run := func() {
				cmd := exec.Command(bin, "-root", root, "-out", filepath.Join(root, "public"))
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v\n%s", err, out)
				}
			}
			run() // the first build: public/ exists from here on, as for a user
			for b.Loop() {
				run()
			}
		})
	}
}

// TestSIGTERMStopsThePreview sends the preview SIGTERM, as process
// managers, containers and go run's wrappers do: it stops as on Ctrl-C,
// exiting 0 with "preview stopped", the event it acknowledged whole in its
// journal, and its port free.
func TestSIGTERMStopsThePreview(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no SIGTERM to send")
	}
	bin := command(t)
	root := newSite(t)
	journal := filepath.Join(root, "events.jsonl")
	cmd := exec.Command(bin, "-serve", "-root", root, "-out", filepath.Join(root, "public"), "-addr", "127.0.0.1:0", "-db", journal)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stdout)
	var addr string
	for addr == "" && lines.Scan() {
		if rest, ok := strings.CutPrefix(lines.Text(), "preview at http://"); ok {
			addr, _, _ = strings.Cut(rest, "/")
		}
	}
	if addr == "" {
		t.Fatalf("the preview never said its address; stderr:\n%s", stderr.String())
	}
	// Lines still come: keep reading them so the preview never blocks.
	rest := make(chan string, 1)
	go func() {
		var b strings.Builder
		for lines.Scan() {
			b.WriteString(lines.Text() + "\n")
		}
		rest <- b.String()
	}()
	resp, err := http.Post("http://"+addr+"/api/event", "text/plain", strings.NewReader(`{"name":"view","path":"/","visible_ms":1,"scrolled":false}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("POST /api/event = %d, want 204", resp.StatusCode)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	out := <-rest
	if err := cmd.Wait(); err != nil {
		t.Errorf("after SIGTERM: %v, want exit status 0; stderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(out, "preview stopped") {
		t.Errorf("after SIGTERM the preview printed %q, want \"preview stopped\"", out)
	}
	if b, err := os.ReadFile(journal); err != nil || strings.Count(string(b), "\n") != 1 || !strings.Contains(string(b), `"name":"view"`) {
		t.Errorf("the journal after SIGTERM holds %q (%v), want the one event acknowledged", b, err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Errorf("%s is not free after the preview stopped: %v", addr, err)
	} else {
		ln.Close()
	}
}

// TestRepin runs -repin on internal/quote's fixture page as a user does:
// the dry run prints the diff, changes nothing and exits 1 for the quotes
// it cannot move; -write rewrites the pages to internal/quote's golden
// ones and exits 1 still; -write alone is refused.
func TestRepin(t *testing.T) {
	bin := command(t)
	pages, err := filepath.Abs(filepath.Join("..", "..", "internal", "quote", "testdata", "repin"))
	if err != nil {
		t.Fatal(err)
	}
	root := newSite(t)
	content := filepath.Join(root, "content")
	if err := os.RemoveAll(content); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(content, os.DirFS(filepath.Join(pages, "content"))); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, int) {
		cmd := exec.Command(bin, append([]string{"-root", root}, args...)...)
		out, err := cmd.CombinedOutput()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatal(err)
		}
		return string(out), cmd.ProcessState.ExitCode()
	}
	repin := []string{
		"-check-sources", "acme/lib@v1.0.0=" + filepath.Join(pages, "upstream", "v1"),
		"-repin", "acme/lib@v2.0.0=" + filepath.Join(pages, "upstream", "v2"),
	}
	summary := "acme/lib to v2.0.0: 7 moved, 1 unchanged, 1 changed, 1 ambiguous, 1 gone; 1 already at v2.0.0\n"

	before := snapshot(t, root)
	out, code := run(repin...)
	if code != 1 || !strings.Contains(out, summary) || !strings.Contains(out, "+++ content/index.md\n") {
		t.Errorf("dry run: exit %d, output:\n%s", code, out)
	}
	if !maps.Equal(before, snapshot(t, root)) {
		t.Error("the dry run changed the site folder")
	}

	out, code = run(append(repin, "-write")...)
	if code != 1 || !strings.Contains(out, summary) || !strings.HasSuffix(out, "wrote content/about.md\nwrote content/index.md\n") {
		t.Errorf("-write: exit %d, output:\n%s", code, out)
	}
	for _, name := range []string{"about", "index"} {
		got, _ := os.ReadFile(filepath.Join(content, name+".md"))
		want, _ := os.ReadFile(filepath.Join(pages, name+".written.md"))
		if string(got) != string(want) {
			t.Errorf("content/%s.md after -write:\n%s\nwant internal/quote/testdata/repin/%s.written.md:\n%s", name, got, name, want)
		}
	}

	if out, code := run("-write"); code != 1 || !strings.Contains(out, "-write goes with -repin") {
		t.Errorf("-write alone: exit %d, output:\n%s", code, out)
	}
}

// TestEmptyRootIsTheCurrentFolder: -root "" builds the folder the command
// runs in, as -root . does (os.DirFS alone would refuse it).
func TestEmptyRootIsTheCurrentFolder(t *testing.T) {
	bin := command(t)
	root := newSite(t)
	cmd := exec.Command(bin, "-quiet", "-root", "", "-out", "public")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(root, "public", "index.html")); err != nil {
		t.Error(err)
	}
}

// TestTheDefaultOutputIsInTheRoot: -root names the site, so without -out
// the build writes the site's public/, beside its journal, not one in the
// folder the command runs in.
func TestTheDefaultOutputIsInTheRoot(t *testing.T) {
	bin := command(t)
	root, elsewhere := newSite(t), t.TempDir()
	cmd := exec.Command(bin, "-quiet", "-root", root)
	cmd.Dir = elsewhere
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(root, "public", "index.html")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "public")); err == nil {
		t.Error("the build wrote public/ in the folder it ran in, not in -root")
	}
}

// TestARunOutsideTheSiteSaysWhereToRun: run in a folder that is not a
// site's root (a subfolder of it, say), the command names the folder and
// the way out, and writes nothing.
func TestARunOutsideTheSiteSaysWhereToRun(t *testing.T) {
	bin := command(t)
	dir := t.TempDir()
	cmd := exec.Command(bin)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	want := dir + " holds no content/ folder: run the command in the site's root"
	if err == nil || !strings.Contains(string(out), want) {
		t.Errorf("exit %v, output:\n%s\nwant a failure holding %q", err, out, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("the command wrote %s into the folder", entries[0].Name())
	}
}

// TestBadArgumentsBuildNothing: an argument a quote tool cannot use fails
// the command at once, before any build: no warning a build would print,
// no word of a build or of an output folder it never meant to write, no
// public/. The
// last case, a good argument, builds and so warns.
func TestBadArgumentsBuildNothing(t *testing.T) {
	bin := command(t)
	root := newSite(t)
	page := "+++\ntitle = \"t\"\ndescription = \"d\"\ncounter = false\n+++\n\n<b>raw HTML, which the build warns of</b>\n\n" +
		"[`Command build renders the site`](cite:a/b@v1:main.go#1)\n"
	if err := os.WriteFile(filepath.Join(root, "content", "warns.md"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	here, _ := os.Getwd()
	for _, tc := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"-check-sources", "nonsense"}, "-check-sources \"nonsense\": write REPO=DIR", 1},
		{[]string{"-check-sources", "a/b=nowhere"}, "nowhere is not a folder", 1},
		{[]string{"-check-sources", "a/b@v1=" + here, "-repin", "a/b=" + here}, "-repin \"a/b=" + here + "\": write REPO@VERSION=DIR", 1},
		{[]string{"-drift", "nonsense"}, "-drift \"nonsense\": write OWNER/REPO=GITDIR", 2},
		{[]string{"-drift", "a/b=nowhere"}, "nowhere: no such folder", 2},
		{[]string{"-check-sources", "a/b=" + here}, "is not a git checkout: write a/b@VERSION=", 1},
		{[]string{"-serve", "-publish"}, "-serve goes without -check-sources, -repin and -publish", 1},
		{[]string{"-check-sources", "a/b@v1=" + here}, "warning: content/warns.md", 0},
	} {
		cmd := exec.Command(bin, append([]string{"-root", root}, tc.args...)...)
		out, _ := cmd.CombinedOutput()
		built := strings.Contains(string(out), "warning:")
		if cmd.ProcessState.ExitCode() != tc.code || !strings.Contains(string(out), tc.want) || built != (tc.code == 0) || strings.Contains(string(out), "output folder") || strings.Contains(string(out), "build failed") {
			t.Errorf("%q: exit %d, output:\n%s\nwant exit %d, holding %q, and a warning only from a build", tc.args, cmd.ProcessState.ExitCode(), out, tc.code, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "public")); err == nil {
		t.Error("a quote tool wrote public/")
	}
}
