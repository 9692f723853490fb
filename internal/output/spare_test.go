//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package output

import (
	"maps"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func inode(t *testing.T, p string) uint64 {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return uint64(fi.Sys().(*syscall.Stat_t).Ino)
}

// TestTheSpareIsWrittenInPlace: the third build writes into the first
// one's site, kept as the spare: a file both have keeps its inode, and
// the site holds exactly the third build's files, none of the first's
// others, in either way of swapping.
func TestTheSpareIsWrittenInPlace(t *testing.T) {
	forEachSwap(t, func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "public")
		first := map[string][]byte{"index.html": []byte("1"), "gone/a.html": []byte("1"), "kept/b.html": []byte("1, longer than 3"), "x": []byte("file, then folder")}
		if err := Write(dir, first); err != nil {
			t.Fatal(err)
		}
		ino := inode(t, filepath.Join(dir, "kept", "b.html"))
		if err := Write(dir, map[string][]byte{"index.html": []byte("2")}); err != nil {
			t.Fatal(err)
		}
		if got := read(t, spareOf(dir)); got["kept/b.html"] != "1, longer than 3" {
			t.Fatalf("spare after the second build = %v, want the first site", got)
		}
		in, want := site(map[string]string{"index.html": "3", "kept/b.html": "3", "new/c.html": "3", "x/y.html": "3"})
		if err := Write(dir, in); err != nil {
			t.Fatal(err)
		}
		if got := read(t, dir); !maps.Equal(got, want) {
			t.Errorf("public/ = %v, want %v", got, want)
		}
		if got := inode(t, filepath.Join(dir, "kept", "b.html")); got != ino {
			t.Errorf("kept/b.html is a new file (inode %d, was %d): the spare was not written in place", got, ino)
		}
		if m := leftBehind(t, dir); len(m) > 0 {
			t.Errorf("left %v", m)
		}
	})
}

// TestTheSpareNeverWritesThrough: a file of the spare that has another
// name (a backup made with cp -al), or that is a link, is replaced, never
// written through.
func TestTheSpareNeverWritesThrough(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "public")
	if err := Write(dir, map[string][]byte{"index.html": []byte("1"), "a.html": []byte("1")}); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(parent, "backup.html")
	if err := os.Link(filepath.Join(dir, "index.html"), backup); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, map[string][]byte{"index.html": []byte("2")}); err != nil {
		t.Fatal(err)
	}
	// The spare is the first site now; its a.html becomes a link.
	target := filepath.Join(parent, "target.html")
	if err := os.WriteFile(target, []byte("target"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(spareOf(dir), "a.html")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(spareOf(dir), "a.html")); err != nil {
		t.Fatal(err)
	}
	in, want := site(map[string]string{"index.html": "3", "a.html": "3"})
	if err := Write(dir, in); err != nil {
		t.Fatal(err)
	}
	if got := read(t, dir); !maps.Equal(got, want) {
		t.Errorf("public/ = %v, want %v", got, want)
	}
	for p, want := range map[string]string{backup: "1", target: "target"} {
		if b, _ := os.ReadFile(p); string(b) != want {
			t.Errorf("%s = %q, want %q: the build wrote through the spare", filepath.Base(p), b, want)
		}
	}
}

// TestAHeldSpareIsNotTaken: a spare another build holds is left to it.
func TestAHeldSpareIsNotTaken(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "public")
	for _, v := range []string{"1", "2"} {
		if err := Write(dir, map[string][]byte{"index.html": []byte(v)}); err != nil {
			t.Fatal(err)
		}
	}
	l, ok := tryLock(spareOf(dir))
	if !ok {
		t.Fatal("cannot lock the spare")
	}
	defer l.release()
	if err := Write(dir, map[string][]byte{"index.html": []byte("3")}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, spareOf(dir)); got["index.html"] != "1" {
		t.Errorf("the held spare holds %v, want the first site", got)
	}
	if got := read(t, dir); got["index.html"] != "3" {
		t.Errorf("public/ = %v", got)
	}
}
