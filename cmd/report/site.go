package main

import (
	"cmp"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"errref/internal/frontmatter"
)

// copyRE finds a copy control's name in a code fence's info string, the
// one way a page makes a click control (docs/counter.md), on each line.
var copyRE = regexp.MustCompile(`(?m)^\s*(?:` + "```" + `|~~~).*\bcopy=("[^"\n]*"|\S+)`)

// readSite reads from root's content/ what events and sales do not carry:
// for each click name, the content files whose pages have its control (a
// click carries only its name); and for each page's URL path, the guide its
// front matter or site.toml names (a sale names a product, not a page). A
// page whose front matter does not parse is left to the build to refuse.
func readSite(root string) (clicks map[string][]string, guides map[string]string, err error) {
	clicks, guides = map[string][]string{}, map[string]string{}
	var site struct {
		Guide string `toml:"guide"`
	}
	if _, err := toml.DecodeFile(filepath.Join(root, "site.toml"), &site); err != nil && !os.IsNotExist(err) {
		return nil, nil, err
	}
	dir := filepath.Join(root, "content")
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		for _, m := range copyRE.FindAllStringSubmatch(string(src), -1) {
			if name := strings.Trim(m[1], `"`); !slices.Contains(clicks[name], rel) {
				clicks[name] = append(clicks[name], rel)
			}
		}
		fm, _, _, err := frontmatter.Parse(rel, src)
		if guide := cmp.Or(fm.Guide, site.Guide); err == nil && guide != "" {
			guides[frontmatter.PageURL(strings.TrimSuffix(strings.TrimPrefix(rel, "content/"), ".md"), fm.URL)] = guide
		}
		return nil
	})
	if os.IsNotExist(err) {
		return clicks, guides, nil
	}
	return clicks, guides, err
}
