package output

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// swaps are the two ways Write puts a new site in place: one exchange of
// the folders where the system has one (Linux, macOS), and elsewhere the
// old one renamed aside and the new one renamed into place. Both run
// here, whatever the system.
var swaps = []struct {
	name     string
	exchange func(a, b string) error
}{
	{"exchange", exchangeFolders},
	{"aside", func(a, b string) error { return errors.ErrUnsupported }},
}

// forEachSwap runs f once for each way of swapping.
func forEachSwap(t *testing.T, f func(t *testing.T)) {
	for _, sw := range swaps {
		t.Run(sw.name, func(t *testing.T) {
			exchange = sw.exchange
			t.Cleanup(func() { exchange = exchangeFolders })
			f(t)
		})
	}
}

// read returns every file below dir by slash-separated path.
func read(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		if rel == Marker && bytes.HasPrefix(b, []byte(markerText)) {
			b = []byte(markerText) // and the build's number, another each time
		}
		m[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// site is files as Write takes them, and what read finds after it.
func site(files map[string]string) (map[string][]byte, map[string]string) {
	in := map[string][]byte{}
	want := map[string]string{Marker: markerText}
	for k, v := range files {
		in[k] = []byte(v)
		want[k] = v
	}
	return in, want
}

func leftBehind(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".new-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestExchangeFolders holds the system's one-step swap to its word: where
// there is one, both folders trade places.
func TestExchangeFolders(t *testing.T) {
	parent := t.TempDir()
	a, b := filepath.Join(parent, "a"), filepath.Join(parent, "b")
	os.MkdirAll(a, 0o755)
	os.MkdirAll(b, 0o755)
	os.WriteFile(filepath.Join(a, "f"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(b, "f"), []byte("b"), 0o644)
	err := exchangeFolders(a, b)
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		if !errors.Is(err, errors.ErrUnsupported) {
			t.Fatalf("exchange on %s: %v, want ErrUnsupported", runtime.GOOS, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("exchange on %s: %v", runtime.GOOS, err)
	}
	if got, _ := os.ReadFile(filepath.Join(a, "f")); string(got) != "b" {
		t.Errorf("a/f = %q after the exchange, want b", got)
	}
	if got, _ := os.ReadFile(filepath.Join(b, "f")); string(got) != "a" {
		t.Errorf("b/f = %q after the exchange, want a", got)
	}
}

func TestWriteSwapsWholeAndAFailureKeepsTheOld(t *testing.T) {
	forEachSwap(t, testWriteSwapsWhole)
}

func testWriteSwapsWhole(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "public")
	if err := Write(dir, map[string][]byte{"index.html": []byte("one"), "a/b.txt": []byte("b")}); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, map[string][]byte{"index.html": []byte("two")}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "index.html")); string(b) != "two" {
		t.Errorf("index.html = %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "a", "b.txt")); err == nil {
		t.Error("a file of the old build survived the swap")
	}
	// "x" is a file and a folder at once: the write fails half-way.
	if err := Write(dir, map[string][]byte{"index.html": []byte("three"), "x": nil, "x/y": nil}); err == nil {
		t.Fatal("a write that cannot finish passed")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "index.html")); string(b) != "two" {
		t.Errorf("after a failed write index.html = %q, want the last good one", b)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), ".public.new-*")); len(m) > 0 {
		t.Errorf("left behind: %v", m)
	}
}

// TestRelativeFoldersAgainAndAgain writes the site as the command does
// from a writer's folder: into "public" and other relative paths, build
// after build. Each build's folder is exactly its files, a bare relative
// name such as "public" included, whose spare must keep them from the
// third build on.
func TestRelativeFoldersAgainAndAgain(t *testing.T) {
	for _, dir := range []string{"public", "./public", "out/site", "../www"} {
		t.Run(dir, func(t *testing.T) {
			forEachSwap(t, func(t *testing.T) {
				root := filepath.Join(t.TempDir(), "repo")
				if err := os.MkdirAll(filepath.Join(root, "out"), 0o755); err != nil {
					t.Fatal(err)
				}
				t.Chdir(root)
				for i := range 8 {
					files := map[string]string{"index.html": fmt.Sprint(i), "a/b.html": "b"}
					if i%2 == 1 {
						files["c/d.html"] = fmt.Sprint("d", i)
					} else {
						files["e.html"] = "e"
					}
					in, want := site(files)
					if err := Write(dir, in); err != nil {
						t.Fatalf("build %d: %v", i+1, err)
					}
					if got := read(t, dir); !maps.Equal(got, want) {
						t.Fatalf("build %d: %s holds %v, want %v", i+1, dir, got, want)
					}
				}
				if m := leftBehind(t, dir); len(m) > 0 {
					t.Errorf("left %v", m)
				}
			})
		})
	}
}

// TestAnotherBuildStartingMeanwhile: another build of the folder, starting
// after this one has made its new folder and before it locks it, removes
// that folder as an empty leftover; this one makes another and finishes.
func TestAnotherBuildStartingMeanwhile(t *testing.T) {
	forEachSwap(t, func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "public")
		first := true
		raced = func(dir string) {
			if first {
				first = false
				tidy(dir)
			}
		}
		t.Cleanup(func() { raced = func(string) {} })
		in, want := site(map[string]string{"index.html": "1"})
		if err := Write(dir, in); err != nil {
			t.Fatal(err)
		}
		if first {
			t.Fatal("the other build never ran")
		}
		if got := read(t, dir); !maps.Equal(got, want) {
			t.Errorf("public/ = %v, want %v", got, want)
		}
	})
}

// TestKilledBetweenTheRenamesRestoresTheSite: without a one-step swap, a
// build killed after moving the site aside and before moving the new one
// in leaves no public/; the next build puts the last good site back first,
// so that public/ is that site even when the next build fails.
func TestKilledBetweenTheRenamesRestoresTheSite(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "public")
	oldIn, oldWant := site(map[string]string{"index.html": "old", "a/b.html": "b"})
	if err := Write(dir, oldIn); err != nil {
		t.Fatal(err)
	}
	// The state the kill leaves: the old site aside, the new one beside it.
	newDir := filepath.Join(parent, ".public.new-123")
	if err := os.Rename(dir, newDir+asideSuffix); err != nil {
		t.Fatal(err)
	}
	newIn, newWant := site(map[string]string{"index.html": "new"})
	if err := Write(newDir, newIn); err != nil {
		t.Fatal(err)
	}

	// "x" is a file and a folder at once: the next build fails.
	if err := Write(dir, map[string][]byte{"x": nil, "x/y": nil}); err == nil {
		t.Fatal("a write that cannot finish passed")
	}
	if got := read(t, dir); !maps.Equal(got, oldWant) {
		t.Errorf("after a failed build public/ holds %v, want the last good site %v", got, oldWant)
	}
	if m := leftBehind(t, dir); len(m) > 0 {
		t.Errorf("left behind: %v", m)
	}
	if err := Write(dir, newIn); err != nil {
		t.Fatal(err)
	}
	if got := read(t, dir); !maps.Equal(got, newWant) {
		t.Errorf("public/ = %v, want %v", got, newWant)
	}
}

// errKilled stands for a kill: the removal stops where it is.
var errKilled = errors.New("killed")

// TestAnInterruptedRemovalIsFinishedNextTime stops the removal of the old
// site after each of its steps, as a kill would, and checks that the next
// build removes what is left: the folder never loses its marker while it
// still holds files.
func TestAnInterruptedRemovalIsFinishedNextTime(t *testing.T) {
	forEachSwap(t, func(t *testing.T) {
		old := map[string][]byte{"index.html": []byte("1"), "a/b.html": nil, "c/d/e.html": nil, "z.css": nil, "0.txt": nil}
		// One step per entry of the folder, the marker, the folder.
		steps := len([]string{"index.html", "a", "c", "z.css", "0.txt"}) + 2
		for k := range steps {
			dir := filepath.Join(t.TempDir(), "public")
			if err := Write(dir, old); err != nil {
				t.Fatal(err)
			}
			// A spare the build did not make: the old site cannot
			// take its place, so the build removes it.
			foreign := spareOf(dir)
			if err := os.MkdirAll(foreign, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(foreign, "mine.txt"), []byte("mine"), 0o644); err != nil {
				t.Fatal(err)
			}
			n := 0
			removeAll = func(p string) error {
				if n == k {
					return errKilled
				}
				n++
				return os.RemoveAll(p)
			}
			err := Write(dir, map[string][]byte{"index.html": []byte("2")})
			removeAll = os.RemoveAll
			if err != nil {
				t.Fatal(err)
			}
			if m := leftBehind(t, dir); len(m) != 1 {
				t.Fatalf("stopped after %d steps: left %v, want the old site's folder", k, m)
			}
			in, want := site(map[string]string{"index.html": "3"})
			if err := Write(dir, in); err != nil {
				t.Fatal(err)
			}
			if m := leftBehind(t, dir); len(m) > 0 {
				t.Errorf("stopped after %d steps: the next build left %v", k, m)
			}
			if got := read(t, dir); !maps.Equal(got, want) {
				t.Errorf("stopped after %d steps: public/ = %v, want %v", k, got, want)
			}
			if got := read(t, foreign); !maps.Equal(got, map[string]string{"mine.txt": "mine"}) {
				t.Errorf("stopped after %d steps: the folder the build did not make holds %v", k, got)
			}
		}
	})
}

func TestUnwritableOutputFolder(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if err := Write(filepath.Join(file, "public"), map[string][]byte{"index.html": nil}); err == nil {
		t.Error("writing below a file passed")
	}
	if err := Write(file, map[string][]byte{"index.html": nil}); err == nil {
		t.Error("writing over a file passed")
	}
	if err := Write(filepath.Join(t.TempDir(), "p"), map[string][]byte{"../escape": nil}); err == nil {
		t.Error("a path out of the folder passed")
	}
}

func TestUpdateWritesOnlyWhatChanged(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "public")
	prev := map[string][]byte{"index.html": []byte("one"), "a/b.html": []byte("b"), "gone.html": []byte("g")}
	if err := Write(dir, prev); err != nil {
		t.Fatal(err)
	}
	// Mark the unchanged file: Update must not rewrite it.
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "a", "b.html"), old, old)
	next := map[string][]byte{"index.html": []byte("two"), "a/b.html": []byte("b"), "new/c.html": []byte("c")}
	if err := Update(dir, prev, next); err != nil {
		t.Fatal(err)
	}
	for name, want := range next {
		if got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name))); err != nil || string(got) != string(want) {
			t.Errorf("%s = %q, %v; want %q", name, got, err, want)
		}
	}
	if fi, _ := os.Stat(filepath.Join(dir, "a", "b.html")); !fi.ModTime().Equal(old) {
		t.Error("an unchanged file was written again")
	}
	if _, err := os.Stat(filepath.Join(dir, "gone.html")); err == nil {
		t.Error("a file the new build lacks is still there")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".new-*")); len(m) > 0 {
		t.Errorf("left behind: %v", m)
	}
	if err := Update(dir, next, map[string][]byte{"../escape": nil}); err == nil {
		t.Error("a path out of the folder passed")
	}
	// Nor is one removed: Update trusts no caller's prev.
	beside := filepath.Join(filepath.Dir(dir), "beside")
	os.WriteFile(beside, nil, 0o644)
	if err := Update(dir, map[string][]byte{"../beside": nil}, next); err == nil {
		t.Error("a removal out of the folder passed")
	}
	if _, err := os.Stat(beside); err != nil {
		t.Errorf("a removal out of the folder took %s: %v", beside, err)
	}
}

// TestUpdateRenamedInCaseOnly: a page renamed in case only (Page.md to
// page.md) on a file system that folds case, Windows' or a Mac's: the new
// page/index.html was written over Page/index.html, and the removal of the
// old name then took it, so the preview answered 404 where a build serves
// the page. Only such a system (or .ci/wine/test) can fail it.
func TestUpdateRenamedInCaseOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "public")
	prev := map[string][]byte{"index.html": []byte("i"), "Page/index.html": []byte("p"), "Logo.svg": []byte("l")}
	if err := Write(dir, prev); err != nil {
		t.Fatal(err)
	}
	next := map[string][]byte{"index.html": []byte("i"), "page/index.html": []byte("p"), "logo.svg": []byte("l")}
	if err := Update(dir, prev, next); err != nil {
		t.Fatal(err)
	}
	got := map[string][]byte{}
	fs.WalkDir(os.DirFS(dir), ".", func(name string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && name != Marker {
			got[name], err = fs.ReadFile(os.DirFS(dir), name)
		}
		return err
	})
	if !maps.EqualFunc(got, next, bytes.Equal) {
		t.Errorf("the folder holds %q, want %q", got, next)
	}
}

// TestUpdateWaitsForAReader: on Windows a file open elsewhere (the preview
// serving the page a browser reloads, an antivirus scan) cannot be renamed
// over, and a save made then failed with "Access denied", 2 of 30 saves
// under Wine while a browser reloaded. Only Windows (or .ci/wine/test) can
// fail it.
func TestUpdateWaitsForAReader(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "public")
	prev := map[string][]byte{"index.html": []byte("one")}
	if err := Write(dir, prev); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(20 * time.Millisecond); f.Close() }() // a reader done soon, as the preview's are
	if err := Update(dir, prev, map[string][]byte{"index.html": []byte("two")}); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "index.html")); string(got) != "two" {
		t.Errorf("index.html = %q, %v; want two", got, err)
	}
}

// TestUpdateRemovesAPageBeingRead: on Windows a file open elsewhere cannot
// be removed either, and a save that deleted the page a browser was loading
// failed with "Sharing violation" under Wine, every page of it left stale.
// Only Windows (or .ci/wine/test) can fail it.
func TestUpdateRemovesAPageBeingRead(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "public")
	prev := map[string][]byte{"index.html": []byte("one"), "gone/index.html": []byte("gone")}
	if err := Write(dir, prev); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "gone", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(20 * time.Millisecond); f.Close() }() // a reader done soon
	if err := Update(dir, prev, map[string][]byte{"index.html": []byte("two")}); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "index.html")); string(got) != "two" {
		t.Errorf("index.html = %q, %v; want two", got, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "gone", "index.html")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("gone/index.html is still there: %v", err)
	}
}

// TestWriteRefusesAFolderItDidNotMake: an existing folder without the
// marker is refused, and its files stay byte for byte; an empty one, or
// one the build made, is replaced.
func TestWriteRefusesAFolderItDidNotMake(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "docs")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "notes.md"), []byte("notes"), 0o644)
	err := Write(dir, map[string][]byte{"index.html": []byte("x")})
	if err == nil || !strings.Contains(err.Error(), "the build did not make it") {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.md")); string(b) != "notes" {
		t.Errorf("notes.md = %q after the refusal", b)
	}
	empty := filepath.Join(t.TempDir(), "empty")
	os.MkdirAll(empty, 0o755)
	if err := Write(empty, map[string][]byte{"index.html": []byte("x")}); err != nil {
		t.Errorf("an empty folder: %v", err)
	}
	if err := Write(empty, map[string][]byte{"index.html": []byte("y")}); err != nil {
		t.Errorf("a folder the build made: %v", err)
	}
	if _, err := os.Stat(filepath.Join(empty, Marker)); err != nil {
		t.Errorf("the output lacks %s: %v", Marker, err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if !symlink(empty, link) {
		t.Skip("os.Symlink made no link (Windows without the privilege, Wine): a link to the output is not tried")
	}
	if err := Write(link, map[string][]byte{"index.html": nil}); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a symbolic link to the output: %v, want it refused as one", err)
	}
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

// TestLeftoversGoUnlessHeld: a killed build's folder is removed by the
// next build; one that a running build holds is not.
func TestLeftoversGoUnlessHeld(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "public")
	dead := filepath.Join(parent, ".public.new-1")
	held := filepath.Join(parent, ".public.new-2")
	foreign := filepath.Join(parent, ".public.new-3")
	for _, d := range []string{dead, held, foreign} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(dead, Marker), nil, 0o644)
	os.WriteFile(filepath.Join(foreign, "mine.txt"), []byte("someone's"), 0o644)
	l, err := lockDir(held)
	if err != nil {
		t.Fatal(err)
	}
	defer l.release()
	if err := Write(dir, map[string][]byte{"index.html": nil}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Error("a dead build's folder is still there")
	}
	if _, err := os.Stat(held); err != nil {
		t.Error("a running build's folder was removed")
	}
	if _, err := os.Stat(filepath.Join(foreign, "mine.txt")); err != nil {
		t.Error("a folder without the marker was removed")
	}
}
