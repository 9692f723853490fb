package site

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"

	"errref/internal/casefold"
)

// checkCase refuses two output paths that differ only in case (Guide/index.html
// and guide/map.png): a Mac or Windows keeps one, Netlify serves two. from
// names their writers.
func checkCase(files map[string][]byte, from map[string]string) error {
	type first struct{ spelling, file string }
	seen := map[string]first{} // a folded path -> how it was first spelt, and by which file
	told := map[[2]string]bool{}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(files)) {
		for p := name; p != "."; p = path.Dir(p) {
			f, ok := seen[casefold.Key(p)]
			if !ok {
				seen[casefold.Key(p)] = first{p, name}
				continue
			}
			if f.spelling == p || told[[2]string{f.file, name}] {
				continue
			}
			told[[2]string{f.file, name}] = true
			a, b, pa, pb := name, f.file, p, f.spelling
			if generated[a] && from[a] != StaticDir+"/"+a {
				// The writer's file first: it is the one to rename.
				a, b, pa, pb = b, a, pb, pa
			}
			errs = append(errs, fmt.Errorf("%s: writes public/%s, and %s writes public/%s: %q and %q differ only in case, which a Mac's or Windows' file system takes for one name and Netlify for two: rename one, or set another url",
				from[a], a, from[b], b, pa, pb))
		}
	}
	return errors.Join(errs...)
}
