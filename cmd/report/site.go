package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"errref/internal/report"
	"errref/internal/site"
)

// placeOnPages puts on r, as the site in root builds, what a click and a sale
// do not carry: each click's page (by the content file) and each guide's page
// (its front matter's guide, or site.toml's or SITE_GUIDE) and each alias's, and returns the
// pages' URLs. A folder without content/ is no site: nothing is placed.
func placeOnPages(r *report.Report, root string) (urls []string, err error) {
	if _, err := os.Stat(filepath.Join(root, site.ContentDir)); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	s, err := site.Build(site.Options{FS: os.DirFS(root)})
	if err != nil {
		return nil, err
	}
	for _, p := range s.Pages {
		urls = append(urls, p.URL)
	}
	r.Place(s.Places())
	return urls, nil
}
