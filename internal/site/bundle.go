package site

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"errref/internal/highlight"
	"errref/internal/htmlcheck"
)

// Generated names that static/ may not also hold.
var generated = map[string]bool{"measure.js": true, "sitemap.xml": true, "robots.txt": true, "404.html": true, "index.html": true}

// bundleStatic copies static/: CSS is minified and gets a hashed name, the
// site's style.css with chroma's stylesheet added; the rest is copied as it
// is. It returns the map from each name to the path it is served at.
func (s *Site) bundleStatic(root string) (map[string]string, error) {
	dir := filepath.Join(root, StaticDir)
	assets := map[string]string{}
	err := filepath.WalkDir(dir, func(name string, e fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("%s/: %w", StaticDir, err)
		}
		rel := filepath.ToSlash(strings.TrimPrefix(name, dir+string(filepath.Separator)))
		if e.IsDir() {
			return nil
		}
		if ignored(e.Name()) {
			return nil // an editor's or the system's, never published
		}
		if e.Type()&fs.ModeSymlink != 0 || !e.Type().IsRegular() {
			return fmt.Errorf("%s/%s: not a regular file: static/ holds plain files, never links", StaticDir, rel)
		}
		if generated[rel] {
			return fmt.Errorf("%s/%s: the build writes this file itself: remove it from %s/", StaticDir, rel, StaticDir)
		}
		data, err := os.ReadFile(name)
		if err != nil {
			return fmt.Errorf("%s/%s: %w", StaticDir, rel, err)
		}
		// By extension, in any case: a server types static/X.JS as a
		// script as surely as static/x.js.
		switch strings.ToLower(filepath.Ext(rel)) {
		case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".wasm":
			return fmt.Errorf("%s/%s: scripts are not copied: the counter, %s/measure.js, is the only script a page loads", StaticDir, rel, MeasureDir)
		case ".html", ".htm", ".xhtml", ".svg", ".xml":
			// Markup is served from this site as it is: it passes the
			// checks every generated page passes.
			var problems []string
			for _, pr := range htmlcheck.Check(data).Problems {
				problems = append(problems, fmt.Sprintf("%s/%s:%d: %s", StaticDir, rel, lineOf(data, pr.Needle), pr.Msg))
			}
			if len(problems) > 0 {
				return errors.New(strings.Join(problems, "\n"))
			}
			s.Files[rel] = data
			assets[rel] = "/" + rel
		case ".css":
			if rel == "style.css" {
				data = append(append(data, '\n'), highlight.CSS()...)
			}
			min, err := minifier.Bytes("text/css", data)
			if err != nil {
				return fmt.Errorf("%s/%s: %v", StaticDir, rel, err)
			}
			out := hashName(rel, min)
			s.Files[out] = min
			assets[rel] = "/" + out
		default:
			s.Files[rel] = data
			assets[rel] = "/" + rel
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, ok := assets["style.css"]; !ok {
		return nil, fmt.Errorf("%s/style.css: missing: it is the site's one stylesheet", StaticDir)
	}
	return assets, nil
}

// EndpointPlaceholder stands in measure/measure.js for the endpoint, which
// the build bakes in: the script reads no configuration at run time.
const EndpointPlaceholder = `"__ENDPOINT__"`

// bundleMeasure minifies measure/measure.js into measure.js.
func (s *Site) bundleMeasure(root string) error {
	name := filepath.Join(root, MeasureDir, "measure.js")
	src, err := os.ReadFile(name)
	if err != nil {
		return fmt.Errorf("%s/measure.js: %w", MeasureDir, err)
	}
	if n := bytes.Count(src, []byte(EndpointPlaceholder)); n != 1 {
		return fmt.Errorf("%s/measure.js: holds %s %d times: it must hold it once, where the endpoint goes", MeasureDir, EndpointPlaceholder, n)
	}
	src = bytes.Replace(src, []byte(EndpointPlaceholder), []byte(strconv.Quote(s.Settings.Endpoint)), 1)
	min, err := minifier.Bytes("application/javascript", src)
	if err != nil {
		return fmt.Errorf("%s/measure.js: %v", MeasureDir, err)
	}
	s.Files["measure.js"] = min
	return nil
}

// writeSitemap writes robots.txt and, with a base URL, sitemap.xml, the
// latter with encoding/xml, which escapes every URL.
func (s *Site) writeSitemap() error {
	base := s.Settings.BaseURL
	robots := "User-agent: *\nAllow: /\n"
	if base != "" {
		type url struct {
			Loc string `xml:"loc"`
		}
		set := struct {
			XMLName xml.Name `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 urlset"`
			URLs    []url    `xml:"url"`
		}{}
		for _, p := range s.Pages {
			if !p.Meta.NoIndex {
				set.URLs = append(set.URLs, url{base + p.URL})
			}
		}
		out, err := xml.MarshalIndent(set, "", "  ")
		if err != nil {
			return fmt.Errorf("sitemap.xml: %w", err)
		}
		s.Files["sitemap.xml"] = append(append([]byte(xml.Header), out...), '\n')
		robots += "Sitemap: " + base + "/sitemap.xml\n"
	}
	s.Files["robots.txt"] = []byte(robots)
	return nil
}
