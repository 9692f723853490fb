// Package site builds the whole site in memory from an fs.FS, and returns
// the files to write: it writes nothing itself.
package site

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"errref/internal/frontmatter"
	"errref/internal/markdown"
	"errref/internal/message"
	"errref/internal/settings"
)

// The site folder's parts.
const (
	ContentDir  = "content"
	TemplateDir = "templates"
	StaticDir   = "static"
	MeasureDir  = "measure"
)

// SourceDirs hold what the site's author wrote: no build may write into them.
func SourceDirs() []string { return []string{ContentDir, TemplateDir, StaticDir, MeasureDir} }

// Options say how to build.
type Options struct {
	// FS holds site.toml, content/, templates/, static/ and measure/: errors name files by their paths in it.
	FS      fs.FS
	Publish bool // refuse to build while a setting a published site needs is unset
	Getenv  func(string) string
	Timeout time.Duration // bounds the wait for each page, to report a template that never ends; DefaultTimeout when zero
	// Prev is the last good build, or nil: an unchanged page is taken from it.
	Prev *Site
	// Changed names the files saved since Prev (content/x.md): read again even
	// at the size and time Prev read.
	Changed map[string]bool
}

// DefaultTimeout is the longest the build waits for the next page to render.
const DefaultTimeout = 10 * time.Second

// Site is a finished build.
type Site struct {
	Files     map[string][]byte // slash-separated path -> content
	Pages     []*Page
	Citations []Citation
	Warnings  []string
	Settings  settings.Settings
	Rendered  int // pages rendered by this build; the rest came from Prev

	publish    bool        // refuse what a published page may not show
	stop       atomic.Bool // the build has given up: renders stop at their next write
	tmpl       *templates
	assets     map[string]string // static name -> served path
	inputs     [sha256.Size]byte // what every page depends on besides its own file and Page.shows
	catalogSum [sha256.Size]byte // what a page that lists the catalog shows of it
	catalog    *Catalog
	room       int                 // what a page of the index has for entries, gzip (see Site.paginate)
	heads      map[string]*Section // the sections' headings on the index, by name
	breaks     map[string]bool     // files that start a page of the index, as fit found (see Site.fit)
	sizeOnce   sync.Once
	sized      map[string]Size // the bundled stylesheets and scripts (see Site.critical)
}

// A Citation is a quote of library source on a page, which internal/quote checks.
type Citation struct {
	markdown.Citation        // Span counts the bytes of the file, front matter too
	File              string // content/index.md
	History           bool   // the page quotes this release as history, so the quote stays at it
}

// At is where the spec is written: "content/index.md:88".
func (c Citation) At() string { return fmt.Sprintf("%s:%d", c.File, c.Line) }

// Page is one rendered page.
type Page struct {
	File    string // content/index.md
	Out     string // index.html
	URL     string // /
	Meta    frontmatter.Meta
	Body    template.HTML
	Section string // the page's folder under content/ ("mcp"), empty at the top
	Home    bool   // the generated index of errors, /
	// Prev and Next: neighbours in the section by title; Related: sharing a tag or in Meta.Related.
	Prev, Next  *Link
	Related     []*Link
	Messages    []message.Message // Meta.Messages, read
	LibraryName string            // the library the page explains: its own, or its section's
	raw         []byte            // the file as read
	stat        fs.FileInfo       // its size and modification time when read
	src         []byte            // its body, after the front matter
	first       int
	shows       [sha256.Size]byte // what it shows of the other pages (see Site.sum)
	part        *Part             // the part of the index it lists, on a page of the index
	weight      int               // its entry's on the index, gzip (see Site.entries)
	entry       []byte            // its entry, as the index lays it out
	after       []byte            // the entry or heading before it, which its weight was measured after
	out         rendered
}

// Raw is the page's file as the build read it: what a tool that rewrites
// the file checks it against, so that it never writes over a newer edit.
func (p *Page) Raw() []byte { return p.raw }

// Places are what a click and a sale do not carry, for the report: the files of
// the pages with each click's control; the guide each page but the index
// offers, its own or, where it shows <setting:guide> (else no page would have
// the site's guide's row), the site's; and the page each alias answers with a
// 301.
func (s *Site) Places() (clicks map[string][]string, guides, aliases map[string]string) {
	clicks, guides, aliases = map[string][]string{}, map[string]string{}, map[string]string{}
	for _, p := range s.Pages {
		for _, a := range p.Meta.Aliases {
			aliases[a] = p.URL
		}
		for _, name := range p.out.Clicks {
			clicks[name] = append(clicks[name], p.File)
		}
		guide := p.Meta.Guide
		if lineOf(p.src, "<setting:guide>") > 0 {
			guide = cmp.Or(guide, s.Settings.Guide)
		}
		if guide != "" && !p.Home {
			guides[p.URL] = guide
		}
	}
	return clicks, guides, aliases
}

// Build builds the site in o.FS. Errors name the file and line to fix.
func Build(o Options) (*Site, error) {
	s, err := build(o)
	for i := 0; i < 20 && Held(err); i++ { // no save tells the preview when it lets go
		time.Sleep(100 * time.Millisecond)
		s, err = build(o)
	}
	return s, err
}

// Held reports whether err is Windows' refusal to open a file another
// program (an editor, a sync client) holds open without sharing.
func Held(err error) bool { return runtime.GOOS == "windows" && errors.Is(err, syscall.Errno(32)) } // ERROR_SHARING_VIOLATION

func build(o Options) (*Site, error) {
	if o.Getenv == nil {
		o.Getenv = os.Getenv
	}
	// Pages come last: one is reused only if all the rest is the same.
	s, refused := loadSettings(o.FS, o.Getenv, o.Publish)
	if s == nil {
		return nil, refused
	}
	var err error
	if s.tmpl, err = loadTemplates(o.FS, s.asset); err != nil {
		return nil, err
	}
	if err := s.bundle(o.FS); err != nil {
		return nil, err
	}
	s.sumInputs()
	var last map[string]*Page // the pages of o.Prev by file
	if o.Prev != nil {
		last = make(map[string]*Page, len(o.Prev.Pages))
		for _, p := range o.Prev.Pages {
			last[p.File] = p
		}
	}
	if s.Pages, err = loadPages(o.FS, last, o.Changed, s.Settings); err != nil || refused != nil {
		// With the pages that name a guide none is set for: every setting in one round.
		return nil, errors.Join(refused, err, s.unnamedGuides())
	}
	if err := s.link(); err != nil {
		return nil, err
	}
	if err := s.paginate(o, last); err != nil {
		return nil, err
	}
	s.reuse(o.Prev, last)
	if err := s.fit(o, last); err != nil {
		return nil, err
	}
	if err := s.index(); err != nil {
		return nil, err
	}
	return s, nil
}

// sumInputs sums into s.inputs what every page depends on: the settings,
// the templates, and the files bundled so far (whose names pages link to).
func (s *Site) sumInputs() {
	h := sha256.New()
	fmt.Fprintf(h, "%v %#v\n", s.publish, s.Settings)
	for _, m := range []map[string][]byte{s.tmpl.src, s.Files} {
		for _, n := range slices.Sorted(maps.Keys(m)) {
			fmt.Fprintf(h, "%q %d\n", n, len(m[n]))
			h.Write(m[n])
		}
	}
	h.Sum(s.inputs[:0])
}

// reuse takes from prev (its pages by file in last) the rendering of each page
// whose file, s.inputs, what it shows of the others and, if listed, the catalog
// (all it reads) are the same.
func (s *Site) reuse(prev *Site, last map[string]*Page) {
	if prev == nil || prev.inputs != s.inputs {
		return
	}
	for _, p := range s.Pages {
		l := last[p.File]
		if l != nil && bytes.Equal(l.raw, p.raw) && l.shows == p.shows && (!l.out.Listed || prev.catalogSum == s.catalogSum) {
			p.out, p.Body = l.out, l.Body
		}
	}
}
