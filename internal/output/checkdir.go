package output

import (
	"fmt"
	"path/filepath"
	"strings"

	"errref/internal/casefold"
)

// CheckDir refuses an output folder dir that is or holds the site folder
// root, or lies inside one of root's folders named by kept, comparing paths
// with their links resolved (ln -s . here; -out here/content) and any case.
func CheckDir(dir, root string, kept []string) error {
	absRoot, err := resolve(root)
	if err != nil {
		return fmt.Errorf("%s: %w", root, err)
	}
	absOut, err := resolve(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if within(absOut, absRoot) {
		return fmt.Errorf("%s: refusing to build into this folder: it is or holds the site folder %s, which the build would replace", dir, absRoot)
	}
	for _, src := range kept {
		if p := filepath.Join(absRoot, src); within(p, absOut) {
			return fmt.Errorf("%s: refusing to build into this folder: it is inside %s, which holds what you wrote", dir, p)
		}
	}
	return nil
}

// resolve makes p absolute and resolves every link on its way, including
// in the part of it that exists when the rest does not yet.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	for cur := abs; ; cur = filepath.Dir(cur) {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, abs[len(cur):]), nil
		}
		if cur == filepath.Dir(cur) {
			return abs, nil
		}
	}
}

// within reports whether child is parent or lies below it, in any case:
// on a Mac or Windows, Static/x is inside static/.
func within(parent, child string) bool {
	rel, err := filepath.Rel(casefold.Key(parent), casefold.Key(child))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
