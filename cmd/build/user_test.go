package main

// These tests run the README's build command as a writer does: from the
// root of a copy of the repository, with its relative paths (public/ by
// default), again and again in the one folder that keeps its public/ and
// leftovers, through go run too, two at once, and killed and run again.
// Each result must equal a fresh build of the same sources into an empty
// folder. A test that builds once into a new absolute temporary folder
// would miss a build that fails only after others in the same folder.

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// userRepo copies the repository as a clone of it holds it, with the
// edits not yet committed: the files git lists, tracked or not, but not
// those it ignores (no public/, no leftover of the developer's builds).
// Its site is the fixture's, put where the page's sources are.
func userRepo(t *testing.T) string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	list, err := exec.Command("git", "-C", src, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	dst := filepath.Join(t.TempDir(), "repo")
	for _, name := range strings.Split(strings.TrimSuffix(string(list), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(src, name))
		if os.IsNotExist(err) {
			continue // deleted, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"content", "templates", "static", "measure", "site.toml"} {
		if err := os.RemoveAll(filepath.Join(dst, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.CopyFS(dst, os.DirFS(fixture)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// versions are the versions of a copy's sources that a test moves
// between, and the site a fresh build makes of each.
type versions struct {
	repo, bin string
	home      []byte // content/index.md as committed
	fresh     map[int]map[string][32]byte
}

func newVersions(t *testing.T) *versions {
	repo := userRepo(t)
	home, err := os.ReadFile(filepath.Join(repo, "content", "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	return &versions{repo: repo, bin: command(t), home: home, fresh: map[int]map[string][32]byte{}}
}

// edit makes the copy's sources version n: the home page ends with a
// line naming n, and an odd n adds a page and a static file in a folder
// of its own, so that two versions differ in a file's bytes and in which
// files and folders they hold.
func (s *versions) edit(t *testing.T, n int) {
	t.Helper()
	write := func(name, text string) {
		p := filepath.Join(s.repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("content/index.md", fmt.Sprintf("%s\nEdit %d.\n", s.home, n))
	note, extra := filepath.Join(s.repo, "content", "note.md"), filepath.Join(s.repo, "static", "notes")
	if n%2 == 0 {
		os.Remove(note)
		os.RemoveAll(extra)
		return
	}
	write("content/note.md", fmt.Sprintf("+++\ntitle = \"Note %d\"\ndescription = \"A note.\"\ncounter = false\n+++\n\nNote %d.\n", n, n))
	write(fmt.Sprintf("static/notes/%d.txt", n), fmt.Sprint(n))
}

// want is the site a fresh build of version n makes: the copy at version
// n built into an empty folder, with nothing taken from the build cache.
// The sources must be at version n.
func (s *versions) want(t *testing.T, n int) map[string][32]byte {
	t.Helper()
	if w, ok := s.fresh[n]; ok {
		return w
	}
	out := filepath.Join(t.TempDir(), "public")
	cmd := exec.Command(s.bin, "-quiet", "-out", out)
	cmd.Dir = s.repo
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the fresh build of version %d: %v\n%s", n, err, b)
	}
	s.fresh[n] = snapshot(t, out)
	return s.fresh[n]
}

// run runs a command in the copy's root, as a writer types it.
func (s *versions) run(name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = s.repo
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestBuildAgainAndAgain runs the build eight times in a row from the
// copy's root, with an edit before each, into the default public/ (through
// go run ./cmd/build, the README's command) and into relative -out folders:
// each time it exits 0 and leaves exactly what a fresh build of the same
// sources makes.
func TestBuildAgainAndAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: go run ./cmd/build eight times from a copy of the repository; run without -short")
	}
	s := newVersions(t)
	for _, tc := range []struct {
		name string
		cmd  []string // the command and its arguments
		out  string   // the folder it writes, from the root
	}{
		{"go run ./cmd/build", []string{"go", "run", "./cmd/build"}, "public"},
		{"-out dist", []string{s.bin, "-out", "dist"}, "dist"},
		{"-out ../www", []string{s.bin, "-out", "../www"}, filepath.Join("..", "www")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := range 8 {
				s.edit(t, i)
				want := s.want(t, i)
				if out, err := s.run(tc.cmd[0], tc.cmd[1:]...); err != nil {
					t.Fatalf("build %d: %v\n%s", i+1, err, out)
				}
				if got := snapshot(t, filepath.Join(s.repo, tc.out)); !maps.Equal(got, want) {
					t.Fatalf("build %d: %s differs from a fresh build of the same sources in: %s", i+1, tc.out, differing(got, want))
				}
			}
		})
	}
}

// TestTwoBuildsAtOnce starts two builds of the same folder at the same
// time, from the copy's root, after each edit: both exit 0, and public/
// is what a fresh build of the sources makes.
func TestTwoBuildsAtOnce(t *testing.T) {
	s := newVersions(t)
	for i := range 6 {
		s.edit(t, i)
		want := s.want(t, i)
		var wg sync.WaitGroup
		outs, errs := make([]string, 2), make([]error, 2)
		for j := range 2 {
			wg.Go(func() { outs[j], errs[j] = s.run(s.bin, "-quiet") })
		}
		wg.Wait()
		for j, err := range errs {
			if err != nil {
				t.Errorf("round %d, build %d: %v\n%s", i+1, j+1, err, outs[j])
			}
		}
		if got := snapshot(t, filepath.Join(s.repo, "public")); !maps.Equal(got, want) {
			t.Fatalf("round %d: public/ differs from a fresh build of the same sources in: %s", i+1, differing(got, want))
		}
	}
}

// TestKilledAndRunAgain kills builds from the copy's root at random points,
// an edit before each: public/ is always the last site built or the new
// one, whole, never a mix and never without its marker; and the builds
// after the kills, run to the end, each leave exactly the new site and no
// temporary folder.
func TestKilledAndRunAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: kills builds of a copy of the repository at random points; run without -short")
	}
	s := newVersions(t)
	s.edit(t, 0)
	s.want(t, 0)
	if out, err := s.run(s.bin, "-quiet"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	public := filepath.Join(s.repo, "public")
	// How long a build takes, so that the kills fall all over it.
	start := time.Now()
	if out, err := s.run(s.bin, "-quiet"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	took := time.Since(start)
	last := 0 // the version public/ holds
	for i := 1; i <= 30; i++ {
		// Two versions, taken in turn: a mix of them is neither.
		v := i % 2
		s.edit(t, v)
		s.want(t, v)
		cmd := exec.Command(s.bin, "-quiet")
		cmd.Dir = s.repo
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(rand.N(took * 3 / 2))
		cmd.Process.Kill()
		cmd.Wait()
		switch got := snapshot(t, public); {
		case maps.Equal(got, s.fresh[v]):
			last = v
		case maps.Equal(got, s.fresh[last]):
		default:
			t.Fatalf("kill %d: public/ is neither the last site built nor the new one; it differs from the new one in: %s", i, differing(got, s.fresh[v]))
		}
	}
	for i := range 4 {
		v := 31 + i
		s.edit(t, v)
		want := s.want(t, v)
		if out, err := s.run(s.bin, "-quiet"); err != nil {
			t.Fatalf("build %d after the kills: %v\n%s", i+1, err, out)
		}
		if got := snapshot(t, public); !maps.Equal(got, want) {
			t.Fatalf("build %d after the kills: public/ differs from a fresh build in: %s", i+1, differing(got, want))
		}
	}
	if left, _ := filepath.Glob(filepath.Join(s.repo, ".public.new-*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}
