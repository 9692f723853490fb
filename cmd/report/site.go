package main

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"errref/internal/report"
	"errref/internal/site"
)

// placeOnPages puts on r what events and sales do not carry, as the site
// in root builds: each click on the content files whose pages have its
// control (a click carries only its name), and each guide's sales on the
// row of the page that names it, in its front matter or as site.toml's
// guide (SITE_GUIDE) (a sale names a product, not a page). A folder
// without content/ is no site: nothing is placed.
func placeOnPages(r *report.Report, root string) error {
	if _, err := os.Stat(filepath.Join(root, site.ContentDir)); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	s, err := site.Build(site.Options{FS: os.DirFS(root)})
	if err != nil {
		return err
	}
	clicks, guides := map[string][]string{}, map[string]string{}
	for _, p := range s.Pages {
		for _, name := range p.Clicks() {
			clicks[name] = append(clicks[name], p.File)
		}
		if guide := cmp.Or(p.Meta.Guide, s.Settings.Guide); guide != "" && !p.Home {
			guides[p.URL] = guide
		}
	}
	r.SetClickPages(clicks)
	r.SetGuides(guides)
	return nil
}
