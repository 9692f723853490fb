package output

import "golang.org/x/sys/unix"

// exchangeFolders swaps a and b in one step with renameat2(2); it fails on
// a file system that cannot (EINVAL), and Write then takes the other path.
func exchangeFolders(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}
