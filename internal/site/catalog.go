package site

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"errref/internal/settings"
)

// A Section is a folder of content/: its error pages, in title order.
type Section struct {
	Name    string // the folder, "mcp"
	Library string // the library its pages explain, as the first page that says so names it
	Page    *Page  // the folder's own page, content/NAME/index.md, or nil
	Pages   []*Page
}

// Catalog is what templates see as .Site: the settings, and every page.
type Catalog struct {
	settings.Settings // so that templates keep reading .Site.Publisher
	// Pages are the error pages by section then title; Sections, the same by folder.
	Pages    []*Page
	Sections []*Section
}

// IsError reports whether p is an error page: in a section, not its own page.
func (p *Page) IsError() bool { return p.Section != "" && !strings.HasSuffix(p.File, "/index.md") }

// LibraryName is the library the page explains: its own, or its section's.
func (p *Page) LibraryName() string { return p.library }

// link groups the pages into sections, sets each error page's neighbours
// and related pages, and makes s.catalog for the templates. A related
// page that no page is fails the build.
func (s *Site) link() error {
	bySection := map[string]*Section{}
	byURL := map[string]*Page{}
	// Every page shows the catalog: a page is reused only while it is the same.
	h := sha256.New()
	for _, p := range s.Pages {
		byURL[p.URL] = p
		if p.Section == "" {
			continue // not in the catalog
		}
		fmt.Fprintf(h, "%q %q %q %q %q %q %v %v %v\n", p.File, p.URL, p.Meta.Title, p.Meta.Description, p.Meta.Library, p.Meta.Updated, p.Meta.Tags, p.Meta.Related, p.Meta.NoIndex)
		sec := bySection[p.Section]
		if sec == nil {
			sec = &Section{Name: p.Section}
			bySection[p.Section] = sec
		}
		sec.Library = cmp.Or(sec.Library, p.Meta.Library)
		if p.IsError() {
			sec.Pages = append(sec.Pages, p)
		} else {
			sec.Page = p
		}
	}
	cat := Catalog{Settings: s.Settings}
	cat.Sections = slices.SortedFunc(maps.Values(bySection), func(a, b *Section) int { return strings.Compare(a.Name, b.Name) })
	var latest time.Time // the index changes when an error page does
	for _, sec := range cat.Sections {
		slices.SortFunc(sec.Pages, func(a, b *Page) int {
			return cmp.Or(strings.Compare(a.Meta.Title, b.Meta.Title), strings.Compare(a.File, b.File))
		})
		for i, p := range sec.Pages {
			p.library = cmp.Or(p.Meta.Library, sec.Library)
			if i > 0 {
				p.Prev = sec.Pages[i-1]
			}
			if i+1 < len(sec.Pages) {
				p.Next = sec.Pages[i+1]
			}
			cat.Pages = append(cat.Pages, p)
			if p.Meta.Updated.After(latest) {
				latest = p.Meta.Updated
			}
		}
	}
	for _, p := range cat.Pages {
		seen := map[*Page]bool{p: true} // the page, and those its related key names
		for _, u := range p.Meta.Related {
			r, ok := byURL[u]
			if !ok {
				return fmt.Errorf("%s:1: related %q is no page of this site: name a page by its path, such as \"/mcp/mcperror/\"", p.File, u)
			}
			if !seen[r] {
				seen[r] = true
				p.Related = append(p.Related, r)
			}
		}
		for _, o := range cat.Pages {
			if !seen[o] && slices.ContainsFunc(p.Meta.Tags, func(t string) bool { return slices.Contains(o.Meta.Tags, t) }) {
				p.Related = append(p.Related, o)
			}
		}
	}
	for _, p := range s.Pages {
		if p.Home {
			p.Meta.Updated = latest
		}
	}
	s.catalog = &cat
	h.Sum(s.catalogSum[:0])
	return nil
}
