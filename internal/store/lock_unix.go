//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package store

import (
	"os"
	"syscall"
)

// lockFile takes the lock every Journal takes around a batch, and reports whether it holds it.
func lockFile(f *os.File) (unlock func(), locked bool) {
	fd := int(f.Fd())
	err := syscall.Flock(fd, syscall.LOCK_EX)
	for err == syscall.EINTR {
		err = syscall.Flock(fd, syscall.LOCK_EX)
	}
	if err != nil {
		// A file system without locks (ENOLCK, EOPNOTSUPP on some network mounts)
		// still takes whole appends: refusing events would lose more than a lock protects.
		return func() {}, false
	}
	return func() { syscall.Flock(fd, syscall.LOCK_UN) }, true
}
