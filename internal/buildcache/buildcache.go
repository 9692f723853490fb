// Package buildcache keeps the results of slow, pure steps of a build on
// disk between runs, as Go's build cache does: files named by a hash of
// the step's inputs and of the running binary. A new generator, even one
// a single line different, finds nothing its predecessor left, so a change
// to the code can never be answered from the cache.
//
// Entries are written whole and renamed into place; any failure to read
// or write is a miss, never an error.
package buildcache

import (
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// Dir is one kind of entry, a folder under the user's cache. A nil *Dir
// caches nothing.
type Dir struct {
	path string
	id   []byte // the running binary's identity
}

// Open returns the folder for entries of one kind, or nil when there is no
// cache folder or the binary's identity cannot be read. root is the
// folder that holds every kind: "" means errref-build in the user's cache
// (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux).
func Open(root, kind string) *Dir {
	id := binaryID()
	if id == nil {
		return nil
	}
	if root == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return nil
		}
		root = filepath.Join(dir, "errref-build")
	}
	return &Dir{path: filepath.Join(root, kind), id: id}
}

// Key names an entry by its inputs, each written whole (length first, so
// that no two lists of inputs run together into one).
func (d *Dir) Key(inputs ...[]byte) string {
	h := sha256.New()
	if d != nil {
		h.Write(d.id)
	}
	var n [8]byte
	for _, in := range inputs {
		for i, l := 0, len(in); i < 8; i, l = i+1, l>>8 {
			n[i] = byte(l)
		}
		h.Write(n[:])
		h.Write(in)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Get returns the entry named key.
func (d *Dir) Get(key string) ([]byte, bool) {
	if d == nil {
		return nil, false
	}
	data, err := os.ReadFile(filepath.Join(d.path, key[:2], key))
	return data, err == nil
}

// Put stores data under key.
func (d *Dir) Put(key string, data []byte) {
	if d == nil {
		return
	}
	dir := filepath.Join(d.path, key[:2])
	if os.MkdirAll(dir, 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(dir, ".tmp-")
	if err != nil {
		return
	}
	_, werr := f.Write(data)
	if f.Close() == nil && werr == nil {
		os.Rename(f.Name(), filepath.Join(dir, key))
	}
	os.Remove(f.Name()) // a no-op after the rename
}

var binaryID = sync.OnceValue(func() []byte {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	// On Linux the Go linker writes the build ID, a hash of everything
	// that went into the binary, in an ELF note: reading it costs well
	// under a millisecond. Elsewhere the whole binary is hashed.
	if f, err := elf.Open(exe); err == nil {
		defer f.Close()
		if s := f.Section(".note.go.buildid"); s != nil {
			if data, err := s.Data(); err == nil && len(data) > 16 {
				return data
			}
		}
	}
	f, err := os.Open(exe)
	if err != nil {
		return nil
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil
	}
	return h.Sum(nil)
})
