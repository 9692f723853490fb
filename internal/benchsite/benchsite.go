// Package benchsite writes sites of many pages: a site folder's templates,
// static files, counter and settings, with n distinct pages made from its home
// page (a fixture's) or largest error page (the real site's, in 20 sections),
// each with its own title and Python comments, so that no highlighting is reused.
package benchsite

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Make writes a site of n pages into dst, from the site folder at src, with the
// site's own pages, which the copies link to; copy 0 of a home page takes its place.
func Make(dst, src string, n int) error {
	for _, dir := range []string{"templates", "static", "measure", "content"} {
		if err := os.CopyFS(filepath.Join(dst, dir), os.DirFS(filepath.Join(src, dir))); err != nil {
			return err
		}
	}
	// The counter's tests are not part of a site.
	tests, _ := filepath.Glob(filepath.Join(dst, "measure", "*_test.go"))
	for _, t := range tests {
		os.Remove(t)
	}
	settings, err := os.ReadFile(filepath.Join(src, "site.toml"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dst, "site.toml"), settings, 0o644); err != nil {
		return err
	}
	content := filepath.Join(src, "content")
	from, sections := filepath.Join(content, "index.md"), false
	if _, err := os.Stat(from); err != nil {
		pages, _ := filepath.Glob(filepath.Join(content, "*", "*.md"))
		if len(pages) == 0 {
			return fmt.Errorf("%s: neither index.md nor an error page (SECTION/NAME.md) to copy", content)
		}
		// The largest page, the first in Glob's sorted order of those as large.
		from, sections = pages[0], true
		size := int64(0)
		for _, p := range pages {
			if fi, err := os.Stat(p); err == nil && fi.Size() > size {
				from, size = p, fi.Size()
			}
		}
	}
	home, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	for i := range n {
		page := strings.Replace(string(home), `title = "`, fmt.Sprintf(`title = "%04d `, i), 1)
		page = strings.ReplaceAll(page, "```python\n", fmt.Sprintf("```python\n# page %04d\n", i))
		// A click name is one page's: each copy gets its own.
		page = copyRE.ReplaceAllString(page, fmt.Sprintf("${1}-p%04d", i))
		name := fmt.Sprintf("p%04d.md", i)
		switch {
		case sections:
			name = filepath.Join(fmt.Sprintf("s%02d", i%20), name)
		case i == 0:
			name = "index.md"
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, "content", name)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, "content", name), []byte(page), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// copyRE is a click name in a fence's info string.
var copyRE = regexp.MustCompile(`(copy=[A-Za-z0-9_-]+)`)
