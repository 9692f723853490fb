package site

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"errref/internal/frontmatter"
	"errref/internal/settings"
)

// A Section is a folder of content/: its error pages, in title order.
type Section struct {
	Name    string // the folder, "mcp"
	Library string // the library its pages explain, as most of those that name one name it
	Page    *Page  // the folder's own page, content/NAME/index.md, or nil
	Pages   []*Page
	weight  int    // its heading's on the index, gzip (see Site.entries)
	html    []byte // its heading, laid out by partials/section.html
}

// Catalog is .Site to templates: the settings, and every page. Each render has
// its own copy, noting whether the page lists the pages: only then it shows
// them (see Site.reuse).
type Catalog struct {
	settings.Settings // so that templates keep reading .Site.Publisher
	pages             []*Page
	sections          []*Section
	part              *Part // the rendering page's part of the index, or nil
	parts             int
	listed            bool
}

// Pages are the error pages by section then title.
func (c *Catalog) Pages() []*Page { c.listed = true; return c.pages }

// Sections are the error pages by folder.
func (c *Catalog) Sections() []*Section { c.listed = true; return c.sections }

// Part is the part of the index the page lists, or nil (see Site.paginate).
func (c *Catalog) Part() *Part {
	c.listed = true
	if c.part != nil {
		c.part.read = true // see Site.paginate
	}
	return c.part
}

// Parts is how many pages the index has, for the box to search them all.
func (c *Catalog) Parts() int { c.listed = true; return c.parts }

// A Link is what a page shows of a page it links to, its neighbours and
// its related pages: no links of its own, so that what a page shows ends there.
type Link struct {
	URL  string
	Meta frontmatter.Meta
}

// IsError reports whether p is an error page: in a section, not its own page.
func (p *Page) IsError() bool { return p.Section != "" && !strings.HasSuffix(p.File, "/index.md") }

// link groups the pages into sections, sets each error page's neighbours and
// related pages, makes s.catalog, and sums what each page shows of the others.
func (s *Site) link() error {
	bySection := map[string]*Section{}
	byURL := map[string]*Page{}
	named := map[[2]string]int{} // pages naming each library, by section and library
	for _, p := range s.Pages {
		byURL[p.URL] = p
		if p.Section == "" {
			continue // not in the catalog
		}
		sec := bySection[p.Section]
		if sec == nil {
			sec = &Section{Name: p.Section}
			bySection[p.Section] = sec
		}
		// As most of its pages name it, on a tie the first named that often (docs/writing.md): a shared error's page renames no section two pages name.
		if l := p.Meta.Library; l != "" {
			if named[[2]string{p.Section, l}]++; named[[2]string{p.Section, l}] > named[[2]string{p.Section, sec.Library}] {
				sec.Library = l
			}
		}
		if p.IsError() {
			sec.Pages = append(sec.Pages, p)
		} else {
			sec.Page = p
		}
	}
	cat := &Catalog{Settings: s.Settings}
	cat.sections = slices.SortedFunc(maps.Values(bySection), func(a, b *Section) int { return strings.Compare(a.Name, b.Name) })
	var latest time.Time // the index changes when an error page does
	for _, sec := range cat.sections {
		// A tie names the section, and its pages that name no library, by the first file's: maybe not the writer's.
		for _, k := range slices.SortedFunc(maps.Keys(named), func(a, b [2]string) int { return strings.Compare(a[1], b[1]) }) {
			if k[0] == sec.Name && k[1] != sec.Library && named[k] == named[[2]string{sec.Name, sec.Library}] &&
				slices.ContainsFunc(sec.Pages, func(p *Page) bool { return p.Meta.Library == "" }) {
				s.Warnings = append(s.Warnings, fmt.Sprintf("%s/%s/: its pages name %q and %q as often, so its heading and its pages that name no library say %q, the first file's: set library on one more page, or on each",
					ContentDir, sec.Name, sec.Library, k[1], sec.Library))
			}
		}
		// As a reader scans a list: anyio.ClosedResourceError beside ConnectError, not after Z.
		slices.SortFunc(sec.Pages, func(a, b *Page) int {
			return cmp.Or(strings.Compare(strings.ToLower(a.Meta.Title), strings.ToLower(b.Meta.Title)),
				strings.Compare(a.Meta.Title, b.Meta.Title), strings.Compare(a.File, b.File))
		})
		for i, p := range sec.Pages {
			p.LibraryName = cmp.Or(p.Meta.Library, sec.Library)
			if i > 0 {
				p.Prev = linkTo(sec.Pages[i-1])
			}
			if i+1 < len(sec.Pages) {
				p.Next = linkTo(sec.Pages[i+1])
			}
			cat.pages = append(cat.pages, p)
			if p.Meta.Updated.After(latest) {
				latest = p.Meta.Updated
			}
		}
	}
	for _, p := range s.Pages {
		if p.Home {
			p.Meta.Updated = latest // before a related link copies it
		}
	}
	var errs []error // every page's, in one round
	for _, p := range cat.pages {
		seen := map[*Page]bool{p: true} // the page, and those its related key names
		for _, u := range p.Meta.Related {
			r, ok := byURL[u]
			if !ok {
				fix := `name a page by its path, such as "/mcp/mcperror/"`
				if _, ok := byURL[u+"/"]; ok {
					fix = fmt.Sprintf("write %q, with its last /", u+"/")
				}
				errs = append(errs, fmt.Errorf("%s:%d: related %q is no page of this site: %s", p.File, p.Meta.RelatedLine, u, fix))
				continue
			}
			if !seen[r] {
				seen[r] = true
				p.Related = append(p.Related, linkTo(r))
			}
		}
		for _, o := range cat.pages {
			// "Timeout" and "timeout" are one tag: a writer does not see the other page's spelling.
			shared := slices.ContainsFunc(p.Meta.Tags, func(t string) bool {
				return slices.ContainsFunc(o.Meta.Tags, func(u string) bool { return strings.EqualFold(t, u) })
			})
			if shared && !seen[o] {
				p.Related = append(p.Related, linkTo(o))
			}
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	s.catalog = cat
	s.sum()
	return nil
}

func linkTo(p *Page) *Link { return &Link{URL: p.URL, Meta: p.Meta} }

// sum sums into each page's shows what it shows of the others (date, library,
// links, breadcrumb), into s.catalogSum what a page listing the catalog shows.
func (s *Site) sum() {
	faces := make(map[string][]byte, len(s.Pages)) // by URL
	for _, p := range s.Pages {
		faces[p.URL] = face(p)
	}
	h := sha256.New()
	for _, p := range s.Pages {
		h.Reset()
		fmt.Fprintf(h, "%v %q\n", p.Meta.Updated, p.LibraryName)
		for _, l := range append([]*Link{p.Prev, p.Next}, p.Related...) {
			if l != nil {
				h.Write(faces[l.URL])
			}
		}
		for _, c := range s.trail(p) {
			fmt.Fprintf(h, "%q %q\n", c.URL, c.Meta.Title) // what breadcrumb shows
		}
		h.Sum(p.shows[:0])
	}
	h.Reset()
	// And the index's own file: its pages show its title, and its length sets their cut (see Site.paginate).
	h.Write(s.Pages[slices.IndexFunc(s.Pages, func(p *Page) bool { return p.URL == "/" })].raw)
	for _, sec := range s.catalog.sections {
		for _, p := range append([]*Page{sec.Page}, sec.Pages...) {
			if p != nil {
				h.Write(faces[p.URL])
				h.Write(p.shows[:])
			}
		}
	}
	h.Sum(s.catalogSum[:0])
}

// face sums what a page shows of p when it links to it: p's file, URL and
// front matter, and its date (which the index takes from the catalog).
func face(p *Page) []byte {
	front := p.raw[:len(p.raw)-len(p.src)]
	h := sha256.New()
	fmt.Fprintf(h, "%q %q %v %d\n", p.File, p.URL, p.Meta.Updated, len(front))
	h.Write(front)
	return h.Sum(nil)
}
