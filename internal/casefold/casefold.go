// Package casefold gives a name's key on a file system that folds case, as
// macOS's and Windows' do by default: two names with one key are one file
// there.
package casefold

import (
	"strings"
	"unicode"
)

// Key maps each letter of s to one of its cases, the same for every case
// of it (unicode.SimpleFold's orbit: k, K and the Kelvin sign fold alike).
func Key(s string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
}
