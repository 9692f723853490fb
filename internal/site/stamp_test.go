package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// TestUnchangedStampIsNotReadAgain: a rebuild takes a page file whose size
// and modification time are as Prev read them from Prev, unless Changed
// names it; a file system without times is always read. The edit keeps
// the size and the time, as a same-size save under a coarse clock does.
func TestUnchangedStampIsNotReadAgain(t *testing.T) {
	root := fixtureSite(t)
	prev, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(root, "content", "index.md")
	fi, err := os.Stat(name)
	if err != nil {
		t.Fatal(err)
	}
	edit(t, root, "content/index.md", "The explaining part.", "The explaining PART.")
	if err := os.Chtimes(name, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		changed map[string]bool
		want    string
	}{
		{nil, "The explaining part."},                                       // taken from prev, unread
		{map[string]bool{"content/index.md": true}, "The explaining PART."}, // named: read
	} {
		s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Prev: prev, Changed: tc.changed})
		if err != nil {
			t.Fatal(err)
		}
		if got := string(s.Files["index.html"]); !strings.Contains(got, tc.want) {
			t.Errorf("Changed %v: the page does not hold %q", tc.changed, tc.want)
		}
	}

	// Without times, every file is read.
	m := fstest.MapFS{}
	for _, n := range []string{"site.toml", "content/index.md", "content/404.md", "content/pay.md"} {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(n)))
		if err != nil {
			t.Fatal(err)
		}
		m[n] = &fstest.MapFile{Data: data}
	}
	for _, dir := range []string{"templates", "static", "measure"} {
		filepath.WalkDir(filepath.Join(root, dir), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(root, p)
				data, _ := os.ReadFile(p)
				m[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data}
			}
			return nil
		})
	}
	prev, err = Build(Options{FS: m, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	m["content/index.md"].Data = []byte(strings.Replace(string(m["content/index.md"].Data), "The explaining PART.", "The explaining Part.", 1))
	s, err := Build(Options{FS: m, Getenv: noEnv, Prev: prev})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(s.Files["index.html"]), "The explaining Part.") {
		t.Error("a file system without times: the edit was not read")
	}
}
