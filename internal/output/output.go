// Package output writes a built site into its folder whole: the files go
// into a fresh sibling folder, which then takes the old one's place in one
// step. A build that fails, or a write that fails half-way, leaves the last
// good folder exactly as it was.
package output

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/sys/unix"
)

// Write makes dir hold exactly files, keyed by slash-separated relative path.
func Write(dir string, files map[string][]byte) (err error) {
	dir = filepath.Clean(dir)
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return fmt.Errorf("%s: cannot write the site: it is a file, not a folder", dir)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".new-")
	if err != nil {
		return fmt.Errorf("%s: cannot write the site: %w", dir, err)
	}
	defer func() {
		// tmp holds the new files on failure, or the old ones after a swap.
		os.RemoveAll(tmp)
	}()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := checkName(dir, name); err != nil {
			return err
		}
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("%s: cannot write the site: %w", dir, err)
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return fmt.Errorf("%s: cannot write the site: %w", dir, err)
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		if err := os.Rename(tmp, dir); err != nil {
			return fmt.Errorf("%s: cannot write the site: %w", dir, err)
		}
		return nil
	}
	// Swap the two folders in one step where the kernel can; elsewhere
	// move the old one aside first, so that a failure can put it back.
	if err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, dir, unix.RENAME_EXCHANGE); err == nil {
		return nil
	}
	old := tmp + ".old"
	if err := os.Rename(dir, old); err != nil {
		return fmt.Errorf("%s: cannot replace the site: %w", dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.Rename(old, dir)
		return fmt.Errorf("%s: cannot replace the site: %w", dir, err)
	}
	return os.RemoveAll(old)
}

// Update makes dir, which holds exactly prev, hold exactly next, writing
// only the files whose bytes differ and removing those next lacks. Each
// file is replaced in one step (a rename), but not the folder as a whole:
// it is for the preview, where a save changes a page or two of a thousand.
// The CLI build, which must never leave a half-written site, uses Write.
func Update(dir string, prev, next map[string][]byte) error {
	dir = filepath.Clean(dir)
	names := make([]string, 0, len(next))
	for name := range next {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if old, ok := prev[name]; ok && bytes.Equal(old, next[name]) {
			continue
		}
		if err := checkName(dir, name); err != nil {
			return err
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		f, err := os.CreateTemp(filepath.Dir(p), ".new-")
		if err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		_, werr := f.Write(next[name])
		cerr := f.Close()
		if err := errors.Join(werr, cerr, os.Chmod(f.Name(), 0o644), os.Rename(f.Name(), p)); err != nil {
			os.Remove(f.Name())
			return fmt.Errorf("%s: cannot write %s: %w", dir, name, err)
		}
	}
	for name := range prev {
		if _, ok := next[name]; !ok {
			if err := checkName(dir, name); err != nil {
				return err
			}
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("%s: %w", dir, err)
			}
		}
	}
	return nil
}

// checkName refuses a file name that is not a plain relative path.
func checkName(dir, name string) error {
	clean := path.Clean(name)
	if clean != name || strings.HasPrefix(name, "/") || name == ".." || strings.HasPrefix(name, "../") {
		return fmt.Errorf("%s: refusing to write %q: not a plain relative path", dir, name)
	}
	return nil
}
