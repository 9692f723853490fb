package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"errref/internal/highlight"
	"errref/internal/htmlcheck"
)

// generated names the files the build writes, which static/ may not hold but
// _redirects, the writer's own, refused only beside aliases (writeRedirects).
var generated = map[string]bool{"measure.js": true, "filter.js": true, "sitemap.xml": true, "robots.txt": true,
	"404.html": true, "index.html": true, "_redirects": true}

// bundle copies static/, each name to its served path in s.assets (CSS minified
// under a hashed name, markup with LF line ends), then minifies measure/'s.
func (s *Site) bundle(site fs.FS) error {
	// fs.WalkDir would follow a link at its root; below, the walk refuses links.
	if fi, err := fs.Lstat(site, StaticDir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%s/: a link, not a folder: static/ holds plain files, never links", StaticDir)
	}
	s.assets = map[string]string{}
	err := fs.WalkDir(site, StaticDir, func(name string, e fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("%s/: %w", StaticDir, err)
		}
		rel := strings.TrimPrefix(name, StaticDir+"/")
		if e.IsDir() || Ignored(e.Name()) {
			return nil // a folder is walked; an editor's or the system's file is never published
		}
		if !e.Type().IsRegular() {
			return fmt.Errorf("%s/%s: not a regular file: static/ holds plain files, never links", StaticDir, rel)
		}
		if generated[rel] && rel != "_redirects" {
			return fmt.Errorf("%s/%s: the build writes this file itself: remove it from %s/", StaticDir, rel, StaticDir)
		}
		data, err := fs.ReadFile(site, name)
		if err != nil {
			return fmt.Errorf("%s/%s: %w", StaticDir, rel, err)
		}
		out := rel // its served path
		// By extension in any case: a server types static/X.JS as a script too.
		switch strings.ToLower(path.Ext(rel)) {
		case ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".wasm":
			return fmt.Errorf("%s/%s: scripts are not copied: the counter, %s/measure.js, is the only script a page loads", StaticDir, rel, MeasureDir)
		case ".html", ".htm", ".xhtml", ".svg", ".xml":
			// Served as it is, but for Git for Windows' CRLF line ends: it
			// passes the pages' checks.
			data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
			var problems []error
			for _, pr := range htmlcheck.Check(data).Problems {
				problems = append(problems, fmt.Errorf("%s/%s:%d: %s", StaticDir, rel, lineOf(data, pr.Needle), pr.Msg))
			}
			if err := errors.Join(problems...); err != nil {
				return err
			}
		case ".css":
			data = bytes.TrimPrefix(data, []byte("\uFEFF")) // a Windows editor's byte order mark, as in templates/
			if rel == "style.css" {
				data = append(append(data, '\n'), highlight.CSS()...)
			}
			if data, err = minifier.Bytes("text/css", data); err != nil {
				return fmt.Errorf("%s/%s: %v", StaticDir, rel, err)
			}
			// A content hash in the name, style.0123abcd.css, lets it be cached forever.
			sum, ext := sha256.Sum256(data), path.Ext(rel)
			out = strings.TrimSuffix(rel, ext) + "." + hex.EncodeToString(sum[:])[:10] + ext
		}
		s.Files[out] = data
		s.assets[rel] = "/" + out
		return nil
	})
	if err != nil {
		return err
	}
	if _, ok := s.assets["style.css"]; !ok {
		return fmt.Errorf("%s/style.css: missing: it is the site's one stylesheet", StaticDir)
	}
	// The counter, and the index's filter.js if any.
	for _, name := range []string{"measure.js", "filter.js"} {
		src, err := fs.ReadFile(site, MeasureDir+"/"+name)
		if name == "filter.js" && errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s/%s: %w", MeasureDir, name, err)
		}
		if name == "measure.js" && strings.Contains(string(src), `"__ENDPOINT__"`) { // an older release's: it would post to ./__ENDPOINT__
			return fmt.Errorf(`%s/measure.js: holds "__ENDPOINT__", which releases before 4952992 replaced with site.toml's endpoint and this one does not: every event would be lost; write "/api/event" in its place`, MeasureDir)
		}
		if s.Files[name], err = minifier.Bytes("application/javascript", src); err != nil {
			return fmt.Errorf("%s/%s: %v", MeasureDir, name, err)
		}
	}
	return nil
}
