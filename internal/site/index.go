package site

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

// index places the pages among the bundled files, adds sitemap.xml, robots.txt
// and _redirects, and checks paths are distinct, even in case, and links hold.
func (s *Site) index() error {
	from := map[string]string{ // what writes each file, for errors to name
		"measure.js":  MeasureDir + "/measure.js",
		"filter.js":   MeasureDir + "/filter.js",
		"sitemap.xml": "the build's sitemap",
		"robots.txt":  "the build's robots.txt",
		"_redirects":  "the build's _redirects",
	}
	for name, served := range s.assets {
		from[strings.TrimPrefix(served, "/")] = StaticDir + "/" + name
	}
	n := 0 // the citations
	for _, p := range s.Pages {
		from[p.Out] = fmt.Sprintf("%s:%d", p.File, max(p.Meta.URLLine, 1))
		n += len(p.out.Cites)
	}
	// Grown once: grown by page, 60,000 citations were most of a rebuild's time.
	s.Citations = slices.Grow(s.Citations, n)
	dirs := map[string]string{} // each folder of a file written so far -> the first file in it
	add := func(name string) {
		for d := path.Dir(name); d != "." && dirs[d] == ""; d = path.Dir(d) {
			dirs[d] = name
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Files)) {
		add(name)
	}
	for _, p := range s.Pages {
		if err := s.claim(p, from, dirs); err != nil {
			return err
		}
		s.Files[p.Out] = p.out.HTML
		add(p.Out)
		s.Warnings = append(s.Warnings, p.out.Warnings...)
		s.Citations = append(s.Citations, p.out.Cites...)
	}
	s.writeSitemap()
	if err := s.writeRedirects(); err != nil {
		return err
	}
	if err := checkCase(s.Files, from); err != nil {
		return err
	}
	if err := s.checkClicks(); err != nil {
		return err
	}
	return s.checkLinks()
}

// claim refuses p's output path if the build writes a file there, on its way
// (/404.html/) or below it. from maps each file to its writer; dirs each folder
// written to a file in it.
func (s *Site) claim(p *Page, from, dirs map[string]string) error {
	at := from[p.Out]
	if _, ok := s.Files[p.Out]; ok {
		return fmt.Errorf("%s: the page would be written to public/%s, which the build already writes: set a different url", at, p.Out)
	}
	for dir := path.Dir(p.Out); dir != "."; dir = path.Dir(dir) {
		if _, ok := s.Files[dir]; ok || from[dir] != "" {
			return fmt.Errorf("%s: the page would be written to public/%s, but public/%s is a file: set a different url", at, p.Out, dir)
		}
	}
	if name := dirs[p.Out]; name != "" {
		return fmt.Errorf("%s: the page would be written to public/%s, which public/%s needs as a folder: set a different url", at, p.Out, name)
	}
	return nil
}

// writeSitemap writes robots.txt and, with a base URL, sitemap.xml (escaped by encoding/xml).
func (s *Site) writeSitemap() {
	base := s.Settings.BaseURL
	robots := "User-agent: *\nAllow: /\n"
	if base != "" {
		type url struct {
			Loc     string `xml:"loc"`
			LastMod string `xml:"lastmod,omitempty"`
		}
		set := struct {
			XMLName xml.Name `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 urlset"`
			URLs    []url    `xml:"url"`
		}{}
		for _, p := range s.Pages {
			if !p.Meta.NoIndex {
				u := url{Loc: base + p.URL}
				if d := cmp.Or(p.Meta.Updated, p.Meta.Date); !d.IsZero() {
					u.LastMod = d.Format("2006-01-02")
				}
				set.URLs = append(set.URLs, u)
			}
		}
		out, _ := xml.MarshalIndent(set, "", "  ") // strings only: it cannot fail
		s.Files["sitemap.xml"] = append(append([]byte(xml.Header), out...), '\n')
		robots += "Sitemap: " + base + "/sitemap.xml\n"
	}
	s.Files["robots.txt"] = []byte(robots)
}
