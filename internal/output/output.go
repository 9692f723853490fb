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

// Marker is the file every output folder holds: a folder without it was
// not made by this build, and is never replaced.
const Marker = ".errref-build"

const markerText = "This folder is the output of errref's build (go run ./cmd/build). Each build replaces it whole.\n"

// Write makes dir hold exactly files, keyed by slash-separated relative
// path, and Marker. An existing dir must be empty or hold Marker: a folder
// the build did not make holds what someone wrote, and is refused.
func Write(dir string, files map[string][]byte) (err error) {
	dir = filepath.Clean(dir)
	if err := Replaceable(dir); err != nil {
		return err
	}
	if _, ok := files[Marker]; ok {
		return fmt.Errorf("%s: refusing to write %s: the build writes it itself", dir, Marker)
	}
	removeLeftovers(dir)
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".new-")
	if err != nil {
		return fmt.Errorf("%s: cannot write the site: %w", dir, err)
	}
	defer func() {
		// tmp holds the new files on failure, or the old ones after a swap.
		os.RemoveAll(tmp)
	}()
	// Held until this build ends, or dies: another build of dir leaves a
	// locked folder alone (see removeLeftovers).
	if lock, err := os.Open(tmp); err == nil {
		defer lock.Close()
		unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	}
	// The marker first: a build killed from here on leaves a folder that
	// the next build knows as its own leftover.
	if err := os.WriteFile(filepath.Join(tmp, Marker), []byte(markerText), 0o644); err != nil {
		return fmt.Errorf("%s: cannot write the site: %w", dir, err)
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	made := map[string]bool{tmp: true}
	for _, name := range names {
		if err := checkName(dir, name); err != nil {
			return err
		}
		if d := filepath.Dir(filepath.Join(tmp, filepath.FromSlash(name))); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return fmt.Errorf("%s: cannot write the site: %w", dir, err)
			}
			made[d] = true
		}
	}
	if err := writeAll(tmp, names, files); err != nil {
		return fmt.Errorf("%s: cannot write the site: %w", dir, err)
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

// Replaceable refuses a dir that exists and that the build did not make:
// anything but a folder that is empty or holds Marker.
func Replaceable(dir string) error {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", dir, err)
	case fi.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("%s: refusing to replace a symbolic link: give the folder it points to, or another -out", dir)
	case !fi.IsDir():
		return fmt.Errorf("%s: cannot write the site: it is a file, not a folder", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, Marker)); err == nil {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s: refusing to replace this folder: the build did not make it (it has no %s file), so it holds what someone wrote. Move it away, or give another -out", dir, Marker)
	}
	return nil
}

// removeLeftovers removes the temporary folders of builds of dir that were
// killed before they finished: .NAME.new-* beside it, when empty or
// marked, and when no running build holds its lock.
func removeLeftovers(dir string) {
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".new-*"))
	for _, l := range left {
		if fi, err := os.Lstat(l); err != nil || !fi.IsDir() {
			continue
		}
		f, err := os.Open(l)
		if err != nil {
			continue
		}
		// A folder another build still holds is its work, not a leftover.
		if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil && Replaceable(l) == nil {
			os.RemoveAll(l)
		}
		f.Close()
	}
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
