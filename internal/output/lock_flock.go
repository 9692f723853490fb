//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// A lock is flock(2) on the folder itself: it moves with the folder when
// the folder is renamed, and ends when the build does, however it ends.
type lock struct{ f *os.File }

// lockDir locks the fresh folder dir, then writes its marker. Without
// flock, tryLock finds every folder in use, so that none is removed wrongly.
func lockDir(dir string) (*lock, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); errors.Is(err, unix.EWOULDBLOCK) {
		// Another build found the folder empty and is removing it.
		f.Close()
		return nil, fmt.Errorf("another build of the same folder removed %s: build again", dir)
	}
	if err := os.WriteFile(filepath.Join(dir, Marker), mark(), 0o644); err != nil {
		f.Close()
		return nil, err
	}
	return &lock{f}, nil
}

// tryLock locks dir, unless a running build holds it or flock cannot tell.
func tryLock(dir string) (*lock, bool) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, false
	}
	if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		f.Close()
		return nil, false
	}
	return &lock{f}, true
}

// beforeMove does nothing: the lock moves with the folder.
func (l *lock) beforeMove() {}

func (l *lock) release() { l.f.Close() }

// keepSpare: see spare.go. The lock moves with a renamed folder, so a
// spare is taken by one build only.
const keepSpare = true

// linkedElsewhere reports whether the file has other names.
func linkedElsewhere(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || st.Nlink > 1
}

// noFollow makes an open fail on a link.
const noFollow = unix.O_NOFOLLOW
