// Package benchsite writes sites of many pages: a site folder's templates,
// static files, counter and settings, with n distinct pages made from its
// home page (the real site's for benchmarks, a fixture's for tests). Each
// page has its own title and a comment line opening each Python block, so
// that no page's highlighting can be reused for another, as on a real
// site.
package benchsite

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Make writes a site of n pages into dst, from the site folder at src.
func Make(dst, src string, n int) error {
	for _, dir := range []string{"templates", "static", "measure"} {
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
	home, err := os.ReadFile(filepath.Join(src, "content", "index.md"))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dst, "content"), 0o755); err != nil {
		return err
	}
	for i := range n {
		page := strings.Replace(string(home), `title = "`, fmt.Sprintf(`title = "%04d `, i), 1)
		page = strings.ReplaceAll(page, "```python\n", fmt.Sprintf("```python\n# page %04d\n", i))
		name := fmt.Sprintf("p%04d.md", i)
		if i == 0 {
			name = "index.md"
		}
		if err := os.WriteFile(filepath.Join(dst, "content", name), []byte(page), 0o644); err != nil {
			return err
		}
	}
	return nil
}
