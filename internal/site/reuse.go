package site

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
)

// fingerprint hashes what every page's output depends on besides its own
// file: the settings, the templates' sources, and the static and counter
// files bundled so far (whose names the pages link to).
func (s *Site) fingerprint(tmplSrc map[string][]byte) [sha256.Size]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%#v\n", s.Settings)
	for _, m := range []map[string][]byte{tmplSrc, s.Files} {
		for _, n := range slices.Sorted(maps.Keys(m)) {
			fmt.Fprintf(h, "%q %d\n", n, len(m[n]))
			h.Write(m[n])
		}
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// reusable maps each page of prev to its file, when prev was built from
// the same settings, templates and bundled files as s; else it is nil.
func (s *Site) reusable(prev *Site) map[string]*Page {
	if prev == nil || prev.inputs != s.inputs {
		return nil
	}
	pages := make(map[string]*Page, len(prev.Pages))
	for _, p := range prev.Pages {
		pages[p.File] = p
	}
	return pages
}
