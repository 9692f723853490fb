package main

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// copyRE finds a copy control's name in a code fence's info string, the
// one way a page makes a click control (docs/counter.md).
var copyRE = regexp.MustCompile(`^\s*(?:` + "```" + `|~~~).*\bcopy=("[^"]*"|\S+)`)

// clickPages maps each click name to the content files whose pages have
// its control, read from root's content/ folder: a click event carries
// its name and nothing else, so the page is known only from the site. A
// site without content/ gives none.
func clickPages(root string) (map[string][]string, error) {
	out := map[string][]string{}
	dir := filepath.Join(root, "content")
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if m := copyRE.FindStringSubmatch(sc.Text()); m != nil {
				name := strings.Trim(m[1], `"`)
				if !slices.Contains(out[name], rel) {
					out[name] = append(out[name], rel)
				}
			}
		}
		return sc.Err()
	})
	if os.IsNotExist(err) {
		return out, nil
	}
	return out, err
}
