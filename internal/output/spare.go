package output

import (
	"cmp"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
)

// After a swap, the old site is kept as .DIR.spare for the next build to
// write into, keeping its inodes and folders (making them is a fifth of a
// 1,000-page build); every file is written whole, the rest pruned.

func spareOf(dir string) string {
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".spare")
}

// takeSpare moves dir's spare, if the build made it and no build holds it,
// to a fresh .DIR.new-*, prunes it for names, and returns it locked.
func takeSpare(dir string, names []string) (string, *lock, bool) {
	spare := spareOf(dir)
	if fi, err := os.Lstat(spare); !keepSpare || err != nil || !fi.IsDir() {
		return "", nil, false
	}
	l, ok := tryLock(spare)
	if !ok {
		return "", nil, false
	}
	// Never renamed onto an empty folder made for it: another build may
	// have found that one empty, and would remove the spare in its place.
	tmp := filepath.Join(filepath.Dir(dir), fmt.Sprintf(".%s.new-%d", filepath.Base(dir), rand.Uint32()))
	// A spare the build did not make is left alone; one that cannot be
	// pruned is a marked .DIR.new-* folder, which the next build removes.
	if !marked(spare) || os.Rename(spare, tmp) != nil || prune(tmp, names) != nil || os.WriteFile(filepath.Join(tmp, Marker), mark(), 0o644) != nil {
		l.release()
		return "", nil, false
	}
	return tmp, l, true
}

// prune removes from dir, a spare, what the build will not write over in
// place: files and folders it needs no more, and anything but a plain file
// with no other link (cp -al), which a write would change there too.
func prune(dir string, names []string) error {
	files := map[string]bool{Marker: true}
	dirs := map[string]bool{".": true}
	for _, n := range names {
		files[n] = true
		for d := path.Dir(n); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	// Walked in the folder, so that rel is the name the build writes.
	return fs.WalkDir(os.DirFS(dir), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if d.IsDir() {
			if dirs[rel] {
				return nil
			}
			return cmp.Or(os.RemoveAll(p), fs.SkipDir)
		}
		if files[rel] && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil && fi.Mode().Perm() == 0o644 && !linkedElsewhere(fi) {
				return nil
			}
		}
		return os.Remove(p)
	})
}

// keepAsSpare makes old, the site a swap replaced, dir's spare, or removes it.
func keepAsSpare(dir, old string) {
	if !keepSpare || os.Rename(old, spareOf(dir)) != nil {
		removeBuilt(old, nil)
	}
}
