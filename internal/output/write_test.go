package output

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteAllWritesEveryFileOrSaysWhich: every file is written, and a
// file that cannot be written is the error, named.
func TestWriteAllWritesEveryFileOrSaysWhich(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{}
	var names []string
	for i := range 50 {
		name := fmt.Sprintf("f%02d.html", i)
		files[name] = []byte(name)
		names = append(names, name)
	}
	if err := writeAll(dir, names, files); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(data) != name {
			t.Errorf("%s: %q, %v", name, data, err)
		}
	}
	// A folder where a file should go cannot be written over.
	os.Mkdir(filepath.Join(dir, "in-the-way"), 0o755)
	names = append(names, "in-the-way")
	if err := writeAll(dir, names, files); err == nil || !strings.Contains(err.Error(), "in-the-way") {
		t.Errorf("err = %v, want one naming in-the-way", err)
	}
}

// BenchmarkWrite writes a site of 1,000 pages of 25 KB, as the cold
// build of the benchmark site does; -cpu 1,2 shows what the parallel
// writes give.
func BenchmarkWrite(b *testing.B) {
	files := map[string][]byte{}
	page := []byte(strings.Repeat("x", 25000))
	for i := range 1000 {
		files[fmt.Sprintf("p%04d/index.html", i)] = page
	}
	dir := filepath.Join(b.TempDir(), "public")
	for b.Loop() {
		if err := Write(dir, files); err != nil {
			b.Fatal(err)
		}
	}
}
