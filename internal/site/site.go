// Package site builds the whole site in memory: it loads the content and
// templates, renders every page, bundles the stylesheet and the counter,
// and returns the files to write. It writes nothing itself.
package site

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"errref/internal/buildcache"
	"errref/internal/cite"
	"errref/internal/frontmatter"
	"errref/internal/highlight"
	"errref/internal/settings"
)

// The site folder's parts.
const (
	ContentDir  = "content"
	TemplateDir = "templates"
	StaticDir   = "static"
	MeasureDir  = "measure"
)

// SourceDirs are the folders that hold what the site's author wrote, which
// no build may write into.
func SourceDirs() []string { return []string{ContentDir, TemplateDir, StaticDir, MeasureDir} }

// Options say how to build.
type Options struct {
	Root    string // the site folder
	Publish bool   // refuse to build while a setting a published site needs is unset
	Getenv  func(string) string
	// Prev is the last good build of the same site, or nil. A page whose
	// file is byte for byte the same, in a build whose settings, templates,
	// static files and counter are the same, is taken from it as it was.
	Prev *Site
	// Cache keeps rendered pages and size figures on disk between runs
	// (see buildcache), in CacheRoot, or in the user's cache when that is
	// empty. A page found there is one whose file, settings, templates,
	// static files and counter, and generator binary, were all the same.
	Cache     bool
	CacheRoot string
	// Timeout bounds the rendering of the pages, where the templates run:
	// a template that never ends ({{range 100000000000}}) is reported
	// instead of hanging the build. DefaultTimeout when zero.
	Timeout time.Duration
}

// DefaultTimeout is the time every page together may take to render.
const DefaultTimeout = 10 * time.Second

// Site is a finished build.
type Site struct {
	Files     map[string][]byte // slash-separated path -> content
	Pages     []*Page
	Citations []cite.Citation
	Warnings  []string
	Settings  settings.Settings
	Rendered  int // pages rendered by this build; the rest came from Prev or the cache

	inputs    [sha256.Size]byte // what every page depends on besides its own file
	sizeCache *buildcache.Dir   // nil without Options.Cache
}

// Page is one rendered page.
type Page struct {
	Source string // content/index.md
	Out    string // index.html
	URL    string // /
	Meta   frontmatter.Meta
	Body   template.HTML
	Loads  []string // the files the page needs to render: its critical path
	raw    []byte   // the file as read
	src    []byte   // its body, after the front matter
	first  int
	out    rendered
}

// Raw is the page's file as the build read it: what a tool that rewrites
// the file checks it against, so that it never writes over a newer edit.
func (p *Page) Raw() []byte { return p.raw }

// rendered is what rendering a page gives, kept for the next build.
type rendered struct {
	HTML     []byte
	Cites    []cite.Citation
	Warnings []string
}

// Build builds the site at o.Root. Errors name the file and line to fix.
func Build(o Options) (*Site, error) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	if o.Prev == nil {
		// A rebuild (the preview's) has its lexers compiled already.
		prepareHighlighting(o.Root)
	}
	set, err := settings.Load(o.Root, o.Getenv)
	if err != nil {
		return nil, err
	}
	s := &Site{Files: map[string][]byte{}, Settings: set}
	if missing := set.Missing(); len(missing) > 0 {
		if o.Publish {
			return nil, fmt.Errorf("%s: refusing to publish while these settings are unset: %s", settings.File, strings.Join(missing, "; "))
		}
		for _, m := range missing {
			s.Warnings = append(s.Warnings, fmt.Sprintf("%s: %s is not set: the page shows a placeholder; -publish refuses to build", settings.File, m))
		}
	}
	if stand := set.Placeholders(); len(stand) > 0 {
		if o.Publish {
			return nil, fmt.Errorf("%s: refusing to publish placeholder settings:\n%s", settings.File, strings.Join(stand, "\n"))
		}
		for _, p := range stand {
			s.Warnings = append(s.Warnings, fmt.Sprintf("%s: %s; -publish refuses to build", settings.File, p))
		}
	}
	tmpl, tmplSrc, err := loadTemplates(filepath.Join(o.Root, TemplateDir))
	if err != nil {
		return nil, err
	}
	assets, err := s.bundleStatic(o.Root)
	if err != nil {
		return nil, err
	}
	if err := s.bundleMeasure(o.Root); err != nil {
		return nil, err
	}
	s.inputs = s.fingerprint(tmplSrc)
	var prev map[string]*Page
	if o.Prev != nil && o.Prev.inputs == s.inputs {
		prev = make(map[string]*Page, len(o.Prev.Pages))
		for _, p := range o.Prev.Pages {
			prev[p.Source] = p
		}
	}
	pages, err := loadPages(o.Root, prev)
	if err != nil {
		return nil, err
	}
	s.Pages = pages
	// The templates get this build's asset names once, before any page
	// runs them; html/template may then execute them in parallel.
	tmpl.Funcs(template.FuncMap{"asset": func(name string) (string, error) {
		if a, ok := assets[name]; ok {
			return a, nil
		}
		return "", fmt.Errorf("asset %q is not in %s/", name, StaticDir)
	}})
	files := map[string]string{}
	for file := range tmplSrc {
		files[strings.TrimSuffix(path.Base(file), ".html")] = file
	}
	r := &renderer{site: s, tmpl: tmpl, tmplSrc: tmplSrc, assets: assets, files: files}
	var cache *buildcache.Dir
	if o.Cache {
		cache = buildcache.Open(o.CacheRoot, "pages")
		s.sizeCache = buildcache.Open(o.CacheRoot, "sizes")
	}
	errs := make([]error, len(pages))
	var renders atomic.Int64
	var wg sync.WaitGroup
	// As many renders at a time as there are cores: more would only hold
	// more half-rendered pages in memory, for the collector to scan.
	// Reading the cache is not held back: it waits on the disk.
	busy := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, p := range pages {
		if p.out.HTML != nil {
			continue // reused from Prev
		}
		wg.Go(func() {
			key := cache.Key(s.inputs[:], []byte(p.Source), p.raw)
			if data, ok := cache.Get(key); ok {
				var out rendered
				if gob.NewDecoder(bytes.NewReader(data)).Decode(&out) == nil {
					p.out, p.Loads = out, r.loads(p)
					return
				}
			}
			busy <- struct{}{}
			defer func() { <-busy }()
			renders.Add(1)
			var out rendered
			out.HTML, out.Cites, out.Warnings, errs[i] = r.render(p)
			if errs[i] != nil {
				return
			}
			p.out = out
			if cache != nil {
				var b bytes.Buffer
				if gob.NewEncoder(&b).Encode(out) == nil {
					cache.Put(key, b.Bytes())
				}
			}
		})
	}
	// A template cannot be stopped once it runs: on time out the build
	// reports, and the render is left to the process's end (the command
	// exits; the preview goes on and builds again on the next save).
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	timeout := cmp.Or(o.Timeout, DefaultTimeout)
	select {
	case <-finished:
	case <-time.After(timeout):
		r.stop.Store(true)
		return nil, tooSlow(timeout, tmpl, r.files)
	}
	s.Rendered = int(renders.Load())
	if err := joinOnce(errs); err != nil {
		return nil, err
	}
	outs := map[string]bool{}
	for _, p := range pages {
		outs[p.Out] = true
	}
	for _, p := range pages {
		if err := s.claim(p, outs); err != nil {
			return nil, err
		}
	}
	for _, p := range pages {
		s.Files[p.Out] = p.out.HTML
		s.Warnings = append(s.Warnings, p.out.Warnings...)
		s.Citations = append(s.Citations, p.out.Cites...)
	}
	if err := s.writeSitemap(); err != nil {
		return nil, err
	}
	if err := homeIsBuilt(s); err != nil {
		return nil, err
	}
	from := map[string]string{
		"measure.js":  MeasureDir + "/measure.js",
		"sitemap.xml": "the build's sitemap",
		"robots.txt":  "the build's robots.txt",
	}
	for name, served := range assets {
		from[strings.TrimPrefix(served, "/")] = StaticDir + "/" + name
	}
	for _, p := range pages {
		from[p.Out] = fmt.Sprintf("%s:%d", p.Source, max(p.Meta.URLLine, 1))
	}
	if err := checkCase(s.Files, from); err != nil {
		return nil, err
	}
	return s, nil
}

// homeIsBuilt refuses a site without /: content/index.md is the home
// page, but its url can send it elsewhere.
func homeIsBuilt(s *Site) error {
	if _, ok := s.Files["index.html"]; ok {
		return nil
	}
	for _, p := range s.Pages {
		if p.Source == ContentDir+"/index.md" {
			return fmt.Errorf("%s:%d: url %q moves the home page off /, and no page is /: remove the url, or give another page url = \"/\"", p.Source, p.Meta.URLLine, p.Meta.URL)
		}
	}
	return fmt.Errorf("%s/index.md: missing: it is the site's home page, /", ContentDir)
}

// prepareHighlighting starts compiling the lexers that the first pages'
// code blocks name, so that on a small site the compile is done beside
// the reading of templates and pages, not before the first block. Only a
// hint: a language it misses is compiled when a block needs it.
func prepareHighlighting(root string) {
	names, _ := filepath.Glob(filepath.Join(root, ContentDir, "*.md"))
	seen := map[string]bool{}
	for _, name := range names[:min(len(names), 8)] {
		src, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		for line := range bytes.Lines(src) {
			info, ok := bytes.CutPrefix(bytes.TrimLeft(line, " "), []byte("```"))
			if !ok {
				continue
			}
			f := bytes.Fields(bytes.TrimLeft(info, "`"))
			if len(f) == 0 {
				continue
			}
			if lang := string(f[0]); !seen[lang] {
				seen[lang] = true
				highlight.Prepare(lang)
			}
		}
	}
}

// joinOnce joins the pages' errors, reporting a template failure that
// several pages share once, with the pages it broke.
func joinOnce(errs []error) error {
	var out []error
	pages := map[string][]string{} // a template's failure -> the pages
	for _, err := range errs {
		var re renderError
		if errors.As(err, &re) {
			msg := re.err.Error()
			if pages[msg] == nil {
				out = append(out, re.err)
			}
			pages[msg] = append(pages[msg], re.page)
			continue
		}
		if err != nil {
			out = append(out, err)
		}
	}
	for i, err := range out {
		if ps := pages[err.Error()]; len(ps) > 0 {
			out[i] = fmt.Errorf("%w (rendering %s)", err, strings.Join(ps, ", "))
		}
	}
	return errors.Join(out...)
}

// writtenLast are the files written after the pages.
var writtenLast = map[string]bool{"sitemap.xml": true, "robots.txt": true}

// claim checks that p's output path is free: no file the build writes
// besides the pages is there already, no file on its way is one (a url of
// /404.html/ would need 404.html, a page, to be a folder), and p's path is
// no folder on the way to another file. outs are the pages' paths, which
// loadPages keeps apart.
func (s *Site) claim(p *Page, outs map[string]bool) error {
	at := fmt.Sprintf("%s:%d", p.Source, max(p.Meta.URLLine, 1))
	if _, ok := s.Files[p.Out]; ok || writtenLast[p.Out] {
		return fmt.Errorf("%s: the page would be written to public/%s, which the build already writes: set a different url", at, p.Out)
	}
	for dir := path.Dir(p.Out); dir != "."; dir = path.Dir(dir) {
		if _, ok := s.Files[dir]; ok || writtenLast[dir] || outs[dir] {
			return fmt.Errorf("%s: the page would be written to public/%s, but public/%s is a file: set a different url", at, p.Out, dir)
		}
	}
	for name := range s.Files {
		if strings.HasPrefix(name, p.Out+"/") {
			return fmt.Errorf("%s: the page would be written to public/%s, which public/%s needs as a folder: set a different url", at, p.Out, name)
		}
	}
	return nil
}

// fingerprint hashes what every page's output depends on besides its own
// file: the settings, the templates' sources, and the static and counter
// files bundled so far (whose names the pages link to).
func (s *Site) fingerprint(tmplSrc map[string][]byte) [sha256.Size]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%#v\n", s.Settings)
	for _, m := range []map[string][]byte{tmplSrc, s.Files} {
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(h, "%q %d\n", n, len(m[n]))
			h.Write(m[n])
		}
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// loadPages reads content/*.md and maps each to its output path. A file
// whose bytes equal those of its page in prev is that page again, rendered
// output and all.
func loadPages(root string, prev map[string]*Page) ([]*Page, error) {
	dir := filepath.Join(root, ContentDir)
	// The names as the folder holds them: on a file system that folds
	// case (a Mac's, Windows'), a stat of index.md finds Index.md, which
	// is the page /Index/ on Netlify's.
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s/: %w", ContentDir, err)
	}
	var names []string
	var errs []error
	home := false
	for _, e := range entries {
		name := e.Name()
		ext := filepath.Ext(name)
		switch {
		case ignored(name) || !strings.EqualFold(ext, ".md"):
			continue
		case strings.EqualFold(name, "index.md") && name != "index.md":
			errs = append(errs, fmt.Errorf("%s/%s: the home page's file is index.md, in lower case: rename it to index.md", ContentDir, name))
			continue
		case ext != ".md":
			errs = append(errs, fmt.Errorf("%s/%s: a page's file ends in .md, in lower case: rename it to %s.md", ContentDir, name, strings.TrimSuffix(name, ext)))
			continue
		}
		home = home || name == "index.md"
		names = append(names, name)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s/: no pages: add %s/index.md, Markdown with TOML front matter between +++ lines", ContentDir, ContentDir)
	}
	if !home {
		return nil, fmt.Errorf("%s/index.md: missing: it is the site's home page, /", ContentDir)
	}
	var pages []*Page
	byOut := map[string]*Page{}
	for _, base := range names {
		name := filepath.Join(dir, base)
		rel := ContentDir + "/" + base
		src, err := os.ReadFile(name)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", rel, err))
			continue
		}
		var p *Page
		if old, ok := prev[rel]; ok && bytes.Equal(old.raw, src) {
			p = old
		} else {
			meta, body, first, err := frontmatter.Parse(rel, src)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			p = &Page{Source: rel, Meta: meta, raw: src, src: body, first: first}
			p.URL, p.Out = outPath(strings.TrimSuffix(base, ".md"), meta.URL)
		}
		if prev, ok := byOut[p.Out]; ok {
			errs = append(errs, fmt.Errorf("%s:1: this page and %s both map to public/%s: set a different url in one front matter", rel, prev.Source, p.Out))
			continue
		}
		byOut[p.Out] = p
		pages = append(pages, p)
	}
	return pages, errors.Join(errs...)
}

// ignored reports whether a file in content/ or static/ is not the
// author's: hidden files (macOS's .DS_Store among them), the lock and
// backup files editors leave (.#index.md, #index.md#, index.md~), and the
// files Windows' Explorer writes into a folder it shows (Thumbs.db,
// desktop.ini, in any case).
func ignored(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "#") || strings.HasSuffix(name, "~") ||
		strings.EqualFold(name, "Thumbs.db") || strings.EqualFold(name, "desktop.ini")
}

// outPath maps a content name to its URL and output file: index is /,
// 404 is /404.html (as Netlify serves it), NAME is /NAME/.
func outPath(name, url string) (string, string) {
	switch {
	case url != "":
		return url, strings.TrimPrefix(url, "/") + "index.html"
	case name == "index":
		return "/", "index.html"
	case name == "404":
		return "/404.html", "404.html"
	}
	return "/" + name + "/", name + "/index.html"
}

// locate finds the first line of the page source, or else of a template,
// that holds needle, so that a problem found in the HTML names a line the
// author wrote.
func locate(p *Page, tmplSrc map[string][]byte, needle string) string {
	if needle != "" {
		if n := lineOf(p.src, needle); n > 0 {
			return fmt.Sprintf("%s:%d", p.Source, p.first+n-1)
		}
		names := make([]string, 0, len(tmplSrc))
		for name := range tmplSrc {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if n := lineOf(tmplSrc[name], needle); n > 0 {
				return fmt.Sprintf("%s:%d (rendering %s)", name, n, p.Source)
			}
		}
	}
	return p.Source + ":1"
}

func lineOf(src []byte, needle string) int {
	i := bytes.Index(src, []byte(needle))
	if i < 0 {
		return 0
	}
	return bytes.Count(src[:i], []byte("\n")) + 1
}

// hashName puts a short content hash into a file name, style.css ->
// style.0123abcd.css, so that the file can be cached forever.
func hashName(name string, data []byte) string {
	sum := sha256.Sum256(data)
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:])[:10] + ext
}
