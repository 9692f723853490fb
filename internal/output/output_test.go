package output

import (
	"os"
	"path/filepath"
	"testing"
	"time"
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
