package output

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestWriteSwapsWholeAndAFailureKeepsTheOld(t *testing.T) {
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
	os.Symlink(empty, link)
	if err := Write(link, map[string][]byte{"index.html": nil}); err == nil {
		t.Error("a symbolic link was replaced")
	}
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
	os.WriteFile(filepath.Join(held, Marker), nil, 0o644)
	os.WriteFile(filepath.Join(foreign, "mine.txt"), []byte("someone's"), 0o644)
	f, _ := os.Open(held)
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
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
