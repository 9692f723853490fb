//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || windows)

package output

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Without a lock a build cannot tell a running build's folder from a dead
// one's: here every folder counts as in use, and leftovers stay.
type lock struct{}

func lockDir(dir string) (*lock, error) {
	return &lock{}, os.WriteFile(filepath.Join(dir, Marker), []byte(markerText), 0o644)
}

func tryLock(dir string) (*lock, bool) { return nil, false }
func (l *lock) beforeMove()            {}
func (l *lock) release()               {}

// keepSpare: see spare.go. Without a lock that moves with its folder, two
// builds could take one spare; the old site is removed instead.
const keepSpare = false

func linkedElsewhere(fs.FileInfo) bool { return true }

const noFollow = 0
