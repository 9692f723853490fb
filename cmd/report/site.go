package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"errref/internal/site"
)

// places are what a click, a sale and an event do not carry, as the site in
// root builds (site.Places): each click's, guide's and alias's page, and the
// pages' URLs. A folder without content/ is no site: nothing is placed.
type places struct {
	urls            []string
	clicks          map[string][]string
	guides, aliases map[string]string
}

func placesOf(root string) (places, error) {
	if _, err := os.Stat(filepath.Join(root, site.ContentDir)); errors.Is(err, fs.ErrNotExist) {
		return places{}, nil
	}
	s, err := site.Build(site.Options{FS: os.DirFS(root)})
	if err != nil {
		return places{}, err
	}
	var p places
	for _, page := range s.Pages {
		p.urls = append(p.urls, page.URL)
	}
	p.clicks, p.guides, p.aliases = s.Places()
	return p, nil
}
