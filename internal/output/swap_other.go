//go:build !linux && !darwin

package output

import "errors"

// exchangeFolders: no system call here swaps two folders in one step, so
// Write moves the old one aside first (see Write).
func exchangeFolders(a, b string) error {
	return errors.ErrUnsupported
}
