//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package store

import (
	"os"
	"syscall"
)

// lockFile takes the journal's advisory lock, which every Journal of any
// process takes around a batch, and returns its release.
func lockFile(f *os.File) (unlock func(), locked bool, err error) {
	fd := int(f.Fd())
	for {
		err = syscall.Flock(fd, syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		// A file system without locks (ENOLCK, EOPNOTSUPP on some network
		// mounts) still takes whole appends: refusing events there would
		// lose more than the lock protects.
		return func() {}, false, nil
	}
	return func() { syscall.Flock(fd, syscall.LOCK_UN) }, true, nil
}
