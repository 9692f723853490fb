package output

import "golang.org/x/sys/unix"

// exchangeFolders swaps a and b in one step with renamex_np(2); on a file
// system that cannot (HFS+: ENOTSUP), Write takes the other path.
func exchangeFolders(a, b string) error {
	return unix.RenamexNp(a, b, unix.RENAME_SWAP)
}
