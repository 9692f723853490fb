package buildcache

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestPutGet(t *testing.T) {
	d := Open(t.TempDir(), "things")
	if d == nil {
		t.Fatal("no cache: the test binary's identity could not be read")
	}
	k := d.Key([]byte("a"), []byte("bc"))
	if _, ok := d.Get(k); ok {
		t.Fatal("a hit in an empty cache")
	}
	d.Put(k, []byte("value"))
	if got, ok := d.Get(k); !ok || string(got) != "value" {
		t.Errorf("Get = %q, %v", got, ok)
	}
	if m, _ := filepath.Glob(filepath.Join(d.path, "*", ".tmp-*")); len(m) > 0 {
		t.Errorf("left behind: %v", m)
	}
}

func TestKeysDoNotRunTogether(t *testing.T) {
	d := Open(t.TempDir(), "things")
	if d.Key([]byte("ab"), []byte("c")) == d.Key([]byte("a"), []byte("bc")) {
		t.Error(`("ab","c") and ("a","bc") share a key`)
	}
}

// TestAnotherBinaryMisses: the key holds the binary's identity, so an
// entry left by another build of the generator is never found.
func TestAnotherBinaryMisses(t *testing.T) {
	root := t.TempDir()
	d := Open(root, "things")
	other := &Dir{path: d.path, id: append(bytes.Clone(d.id), 'x')}
	other.Put(other.Key([]byte("in")), []byte("stale"))
	if _, ok := d.Get(d.Key([]byte("in"))); ok {
		t.Error("an entry of another binary was found")
	}
}

func TestNilCachesNothing(t *testing.T) {
	var d *Dir
	d.Put(d.Key([]byte("x")), []byte("y"))
	if _, ok := d.Get(d.Key([]byte("x"))); ok {
		t.Error("a nil Dir answered")
	}
}

func TestUnwritableIsAMiss(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	d := Open(file, "things") // below a file: nothing can be written
	k := d.Key([]byte("x"))
	d.Put(k, []byte("y"))
	if _, ok := d.Get(k); ok {
		t.Error("a cache that cannot be written answered")
	}
}
