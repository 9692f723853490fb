package site

import (
	"bytes"
	"compress/flate"
	"fmt"
	"slices"
)

// A Part is one page of the generated index of errors. A catalog that fits
// one round trip is listed whole on /; a larger one goes on over /page/2/
// and after, so that no new error page makes the index too heavy.
type Part struct {
	N, Of      int
	Prev, Next string     // the neighbouring parts' URLs, or empty
	Sections   []*Section // the part's pages, by section
}

func partURL(n int) string {
	if n == 1 {
		return "/"
	}
	return fmt.Sprintf("/page/%d/", n)
}

// paginate cuts the catalog into parts of the index that fit the room the
// index's page leaves with no entry, and adds a page for each part after
// the first. last holds prev's pages by file, whose entries are kept.
func (s *Site) paginate(prev *Site, last map[string]*Page) error {
	i := slices.IndexFunc(s.Pages, func(p *Page) bool { return p.Home })
	if i < 0 || len(s.catalog.pages) == 0 || s.tmpl.set.Lookup("home") == nil {
		return nil // a home of the writer's own lists what it lists; render reports a missing home.html
	}
	home := s.Pages[i]
	// The page with no entry, as a middle part, with both its links.
	home.part, s.catalog.parts = &Part{N: 10, Of: 11, Prev: partURL(9), Next: partURL(11)}, 11
	empty, err := s.renderPage(home)
	if err != nil {
		return err
	}
	room := CriticalBudget - s.critical(empty).Gzip
	heads, err := s.entries(prev, last)
	if err != nil {
		return err
	}
	runs, err := split(s.catalog.pages, heads, room)
	if err != nil {
		return err
	}
	for n, run := range runs {
		part := &Part{N: n + 1, Of: len(runs)}
		if n > 0 {
			part.Prev = partURL(n)
		}
		if n+1 < len(runs) {
			part.Next = partURL(n + 2)
		}
		for i, p := range run {
			if i == 0 || run[i-1].Section != p.Section {
				part.Sections = append(part.Sections, &Section{Name: p.Section, Library: heads[p.Section].Library})
			}
			sec := part.Sections[len(part.Sections)-1]
			sec.Pages = append(sec.Pages, p)
		}
		if n == 0 {
			home.part = part
			continue
		}
		url := partURL(n + 1)
		p := &Page{File: fmt.Sprintf("%s (page %d)", homeFile, n+1), URL: url, Out: url[1:] + "index.html", Home: true, Meta: home.Meta, part: part}
		p.Meta.Title = fmt.Sprintf("%s, page %d of %d", home.Meta.Title, n+1, len(runs))
		if j := slices.IndexFunc(s.Pages, func(o *Page) bool { return o.Out == p.Out }); j >= 0 {
			return fmt.Errorf("%s:1: this page is published at %s, where the index of errors puts its page %d: "+
				"set another url in its front matter", s.Pages[j].File, url, n+1)
		}
		s.Pages = append(s.Pages, p)
	}
	s.catalog.parts = len(runs)
	return nil
}

// split cuts pages into runs of one length, the last shorter, each of which
// fits room as the index lays it out: headings and entries, compressed at
// the fastest level, which makes more bytes of them than the page's
// compression. The length is guessed from the whole catalog's size, then
// lowered until every run fits.
func split(pages []*Page, heads map[string]*Section, room int) ([][]*Page, error) {
	var n counter
	zw, _ := flate.NewWriter(&n, flate.BestSpeed)
	size := func(run []*Page) int {
		n = 0
		zw.Reset(&n)
		for i, p := range run {
			if i == 0 || run[i-1].Section != p.Section {
				zw.Write(heads[p.Section].head)
			}
			zw.Write(p.entry)
		}
		zw.Close()
		return int(n)
	}
	k := len(pages)
	if all := size(pages); all > room {
		k = max(1, len(pages)*room/all)
	}
	for ; ; k = min(k-1, k*9/10) {
		runs := slices.Collect(slices.Chunk(pages, k))
		over := slices.IndexFunc(runs, func(run []*Page) bool { return size(run) > room })
		if over < 0 {
			return runs, nil
		}
		if k == 1 {
			return nil, fmt.Errorf("%s:1: its entry on the index of errors is %d B gzip, more than the %d B a page of the index has "+
				"for entries: shorten its description or its messages", runs[over][0].File, size(runs[over]), room)
		}
	}
}

// entries lays out each error page's entry and each section's heading, by
// section name, as the index does; a page unchanged since prev keeps its entry.
func (s *Site) entries(prev *Site, last map[string]*Page) (map[string]*Section, error) {
	run := func(name string, data any) ([]byte, error) {
		var b bytes.Buffer
		if err := s.tmpl.set.ExecuteTemplate(&b, name, data); err != nil {
			return nil, fmt.Errorf("%w (the index of errors lays out with %s/partials/%s.html)", s.tmpl.error(err), TemplateDir, name)
		}
		return b.Bytes(), nil
	}
	heads := map[string]*Section{}
	for _, sec := range s.catalog.sections {
		var err error
		head := &Section{Name: sec.Name, Library: sec.Library}
		if head.head, err = run("section", head); err != nil {
			return nil, err
		}
		heads[sec.Name] = head
		for _, p := range sec.Pages {
			l := last[p.File]
			same := prev != nil && prev.inputs == s.inputs && l != nil
			if same && bytes.Equal(l.raw, p.raw) && l.URL == p.URL && l.library == p.library {
				p.entry = l.entry
			} else if p.entry, err = run("entry", p); err != nil {
				return nil, err
			}
		}
	}
	return heads, nil
}
