package output

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// A lock is LockFileEx on the folder's marker, held open. Windows renames
// no folder holding an open file, so the lock ends just before the swap and
// the marker's removal (beforeMove).
type lock struct{ f *os.File }

// The locked byte lies beyond the marker's text: a lock on Windows also
// stops others reading the bytes it covers.
const lockOffset = 1 << 20

// lockDir writes dir's marker and locks it.
func lockDir(dir string) (*lock, error) {
	f, err := os.OpenFile(filepath.Join(dir, Marker), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	if err = lockFile(f); err == nil {
		_, err = f.Write(mark())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &lock{f}, nil
}

// tryLock locks dir's marker, unless a running build holds it. A folder
// without a marker holds no lock.
func tryLock(dir string) (*lock, bool) {
	f, err := os.Open(filepath.Join(dir, Marker))
	if errors.Is(err, os.ErrNotExist) {
		return &lock{}, true
	}
	if err != nil {
		return nil, false
	}
	if lockFile(f) != nil {
		f.Close()
		return nil, false
	}
	return &lock{f}, true
}

func lockFile(f *os.File) error {
	ol := &windows.Overlapped{Offset: lockOffset}
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
}

func (l *lock) beforeMove() { l.release() }

func (l *lock) release() {
	if l != nil && l.f != nil {
		l.f.Close()
		l.f = nil
	}
}

// keepSpare: see spare.go. Without a lock that moves with its folder, two
// builds could take one spare; the old site is removed instead.
const keepSpare = false

func linkedElsewhere(fs.FileInfo) bool { return true }

const noFollow = 0
