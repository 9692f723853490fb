package store

import (
	"os"
	"syscall"
	"unsafe"
)

var (
	kernel32     = syscall.NewLazyDLL("kernel32.dll")
	lockFileEx   = kernel32.NewProc("LockFileEx")
	unlockFileEx = kernel32.NewProc("UnlockFileEx")
)

const lockfileExclusiveLock = 2

// lockFile takes the journal's lock, which every Journal of any process
// takes around a batch, and returns its release. It locks one byte far
// past any journal's end, which blocks no read or write of the lines, on
// a handle of its own: LockFileEx wants read or write access, and the
// journal's handle may only append.
func lockFile(f *os.File) (unlock func(), locked bool, err error) {
	h, err := os.Open(f.Name())
	if err != nil {
		return func() {}, false, nil
	}
	ol := &syscall.Overlapped{Offset: 0xfffffffe, OffsetHigh: 0x7fffffff}
	r, _, _ := lockFileEx.Call(h.Fd(), lockfileExclusiveLock, 0, 1, 0, uintptr(unsafe.Pointer(ol)))
	if r == 0 {
		// As on a Unix file system without locks: appends stay whole.
		h.Close()
		return func() {}, false, nil
	}
	return func() {
		unlockFileEx.Call(h.Fd(), 0, 1, 0, uintptr(unsafe.Pointer(ol)))
		h.Close()
	}, true, nil
}
