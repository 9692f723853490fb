package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// pageGuides maps each page's URL path to the guide its front matter
// names (the key guide, the product's name as the storefront has it), or
// else site.toml's guide, read from root's content/ folder: a sale names
// a product, not a page.
// A page's URL is its url key, else / for content/index.md, /404.html
// for content/404.md, and /NAME/ for content/NAME.md, as the build makes
// them. A page whose front matter does not parse is left to the build to
// refuse.
func pageGuides(root string) (map[string]string, error) {
	out := map[string]string{}
	var site struct {
		Guide string `toml:"guide"`
	}
	if _, err := toml.DecodeFile(filepath.Join(root, "site.toml"), &site); err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	dir := filepath.Join(root, "content")
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var fm struct {
			URL   string `toml:"url"`
			Guide string `toml:"guide"`
		}
		parts := bytes.SplitN(bytes.TrimPrefix(src, []byte("\uFEFF")), []byte("+++"), 3)
		if len(parts) < 3 || len(bytes.TrimSpace(parts[0])) > 0 {
			return nil
		}
		if _, err := toml.Decode(string(parts[1]), &fm); err != nil {
			return nil
		}
		if fm.Guide == "" {
			fm.Guide = site.Guide
		}
		if fm.Guide == "" {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		name := strings.TrimSuffix(filepath.ToSlash(rel), ".md")
		url := fm.URL
		switch {
		case url != "":
		case name == "index":
			url = "/"
		case name == "404":
			url = "/404.html"
		default:
			url = "/" + name + "/"
		}
		out[url] = fm.Guide
		return nil
	})
	if os.IsNotExist(err) {
		return out, nil
	}
	return out, err
}
