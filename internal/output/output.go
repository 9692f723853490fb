// Package output writes a built site into its folder whole, through a
// fresh sibling folder that then takes the old one's place: a failed build
// or write leaves the last good folder exactly as it was.
package output

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"
)

// Marker is the file every output folder holds: a folder without it was
// not made by this build, and is never replaced.
const Marker = ".errref-build"

const markerText = "This folder is the output of errref's build (go run ./cmd/build). Each build replaces it whole.\n"

// mark is the marker's text, numbered anew by each build: by it the preview
// tells its folder from one another build wrote, even its own as a spare.
func mark() []byte { return fmt.Appendf(nil, "%sbuild %x\n", markerText, rand.Uint64()) }

// Write makes dir, when Replaceable, hold exactly files (by slash path) and
// Marker, written into a fresh .DIR.new-* that then takes dir's place: in one
// swap where the system can, else after dir is renamed aside (see tidy).
func Write(dir string, files map[string][]byte) (err error) {
	dir = filepath.Clean(dir)
	names := slices.Sorted(maps.Keys(files))
	for _, name := range names {
		if err := checkName(dir, name); err != nil {
			return err
		}
	}
	if err := Replaceable(dir); err != nil {
		return err
	}
	tidy(dir)
	// Locked until the build ends or dies (on Windows, the swap), so another
	// leaves it alone; marked at once, so the next removes it if this one dies.
	tmp, l, err := fresh(dir, names)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			removeBuilt(tmp, nil)
		}
	}()
	defer l.release()
	if err := writeAll(tmp, names, files); err != nil {
		return fmt.Errorf("%s: cannot write the site: %w", dir, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	l.beforeMove()
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		if err := retry(func() error { return os.Rename(tmp, dir) }); err != nil {
			return fmt.Errorf("%s: cannot write the site: %w", dir, err)
		}
		return nil
	}
	// A failure to remove the old site (in tmp after a swap) is not the
	// build's: the new one is in place, and the next build removes the rest.
	if exchange(tmp, dir) == nil {
		keepAsSpare(dir, tmp)
		return nil
	}
	aside := tmp + asideSuffix
	if err := retry(func() error { return os.Rename(dir, aside) }); err != nil {
		return fmt.Errorf("%s: cannot replace the site: %w", dir, err)
	}
	if err := retry(func() error { return os.Rename(tmp, dir) }); err != nil {
		os.Rename(aside, dir)
		return fmt.Errorf("%s: cannot replace the site: %w", dir, err)
	}
	keepAsSpare(dir, aside)
	return nil
}

// fresh returns the folder a build writes into, locked and marked: dir's
// spare, pruned, when there is one to take, else a new empty one.
func fresh(dir string, names []string) (tmp string, l *lock, err error) {
	if tmp, l, ok := takeSpare(dir, names); ok {
		return tmp, l, nil
	}
	// Another build may remove the new folder, empty and unlocked, as a
	// leftover: lockDir then fails, and another is made.
	for range 8 {
		if tmp, err = os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".new-"); err != nil {
			break
		}
		// Clean, as every path the build compares is: os.MkdirTemp spells
		// the one beside "public" "./.public.new-1".
		tmp = filepath.Clean(tmp)
		raced(dir)
		if l, err = lockDir(tmp); err == nil {
			return tmp, l, nil
		}
		os.Remove(tmp)
	}
	return "", nil, fmt.Errorf("%s: cannot write the site: %w", dir, err)
}

// raced does nothing; a test makes another build's removal of leftovers
// happen here, between making a folder and locking it.
var raced = func(dir string) {}

// asideSuffix ends the name of a site moved aside by a two-step swap.
const asideSuffix = ".old"

// exchange swaps two folders in one step, or fails without touching
// either; a variable, so that a test can take the other path on any system.
var exchange = exchangeFolders

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
	case marked(dir):
		return nil
	}
	switch entries, err := os.ReadDir(dir); {
	case err != nil:
		return fmt.Errorf("%s: %w", dir, err)
	case len(entries) > 0:
		return fmt.Errorf("%s: refusing to replace this folder: the build did not make it (it has no %s file), so it holds what someone wrote. Move it away, or give another -out", dir, Marker)
	}
	return nil
}

// tidy clears up the .DIR.new-* killed builds left: when dir is missing,
// the newest marked .DIR.new-*.old goes back; the others go when empty or
// marked and no build holds them.
func tidy(dir string) {
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".new-*"))
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		var last string
		var lastTime time.Time
		for _, l := range left {
			fi, err := os.Lstat(l)
			if err == nil && fi.IsDir() && strings.HasSuffix(l, asideSuffix) && marked(l) && (last == "" || fi.ModTime().After(lastTime)) {
				last, lastTime = l, fi.ModTime()
			}
		}
		if last != "" {
			os.Rename(last, dir)
		}
	}
	for _, l := range left {
		// Locked while it is checked and removed: a build that would
		// lock it meanwhile fails instead of writing into it.
		lk, ok := tryLock(l)
		if !ok {
			continue
		}
		if Replaceable(l) == nil {
			removeBuilt(l, lk)
		}
		lk.release()
	}
}

func marked(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, Marker))
	return err == nil
}

// removeBuilt removes a folder the build made, its marker last, so that
// a removal cut short leaves one the next build removes. l, when not nil,
// is the folder's lock, held until the marker goes.
func removeBuilt(dir string, l *lock) {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return
	}
	for _, e := range entries {
		if e.Name() != Marker && removeAll(filepath.Join(dir, e.Name())) != nil {
			return
		}
	}
	l.beforeMove()
	if removeAll(filepath.Join(dir, Marker)) == nil {
		removeAll(dir)
	}
}

// removeAll is os.RemoveAll, which a test replaces to stop removeBuilt midway.
var removeAll = os.RemoveAll

// Update makes dir, holding exactly prev, hold exactly next, each file that
// differs replaced in one step: for the preview, where a save changes a page
// or two. The build, never half-written, uses Write.
func Update(dir string, prev, next map[string][]byte) error {
	dir = filepath.Clean(dir)
	// Removed first: on a system that folds case, page/index.html is
	// Page/index.html, whose removal after would take the new page.
	for name := range prev {
		if _, ok := next[name]; ok {
			continue
		}
		if err := checkName(dir, name); err != nil {
			return err
		}
		if err := retry(func() error { return os.Remove(filepath.Join(dir, filepath.FromSlash(name))) }); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%s: %w", dir, err)
		}
		// os.Remove leaves a folder that holds anything.
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			if os.Remove(filepath.Join(dir, filepath.FromSlash(d))) != nil {
				break
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(next)) {
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
		_, err = f.Write(next[name])
		if err = errors.Join(err, f.Chmod(0o644), f.Close()); err == nil {
			err = retry(func() error { return os.Rename(f.Name(), p) })
		}
		if err != nil {
			os.Remove(f.Name())
			return fmt.Errorf("%s: cannot write %s: %w", dir, name, err)
		}
	}
	return nil
}

// retry runs f again for up to 2 s on Windows, where what another program
// holds open (the preview serving a page a browser reloads, an antivirus
// scan) cannot be renamed over or away, nor removed, until it is closed.
func retry(f func() error) error {
	err := f()
	for i := 0; err != nil && !errors.Is(err, os.ErrNotExist) && runtime.GOOS == "windows" && i < 200; i++ {
		time.Sleep(10 * time.Millisecond)
		err = f()
	}
	return err
}

// checkName refuses a file name that is not a plain relative path, and
// Marker, which the build writes itself.
func checkName(dir, name string) error {
	if name == Marker {
		return fmt.Errorf("%s: refusing to write %s: the build writes it itself", dir, Marker)
	}
	if !fs.ValidPath(name) {
		return fmt.Errorf("%s: refusing to write %q: not a plain relative path", dir, name)
	}
	return nil
}
