// Package casefold gives a name's key on a file system that folds case, as
// macOS's and Windows' do by default: names with one key are one file there.
package casefold

import (
	"io/fs"
	"path"
	"slices"
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

// Exact reports whether fsys holds name spelt as it is, each folder and the
// file: on a file system that folds case, opening SRC/Mod.py finds src/mod.py,
// which a case-sensitive server (GitHub, Netlify) does not.
func Exact(fsys fs.FS, name string) bool {
	for p := name; p != "."; p = path.Dir(p) {
		entries, _ := fs.ReadDir(fsys, path.Dir(p))
		if !slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == path.Base(p) }) {
			return false
		}
	}
	return true
}
