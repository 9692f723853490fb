package store

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockFile takes the journal's lock, which every Journal of any process takes
// around a batch, and reports whether it holds it. It locks one byte far past
// any journal's end, blocking no read or write, on a handle of its own:
// LockFileEx wants read or write access, and the journal's may only append.
func lockFile(f *os.File) (unlock func(), locked bool) {
	h, err := os.Open(f.Name())
	if err != nil {
		return func() {}, false
	}
	ol := &windows.Overlapped{Offset: 0xfffffffe, OffsetHigh: 0x7fffffff}
	if windows.LockFileEx(windows.Handle(h.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, ol) != nil {
		// As on a Unix file system without locks: appends stay whole.
		h.Close()
		return func() {}, false
	}
	return func() {
		windows.UnlockFileEx(windows.Handle(h.Fd()), 0, 1, 0, ol)
		h.Close()
	}, true
}
