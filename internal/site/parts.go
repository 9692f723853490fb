package site

import (
	"bytes"
	"fmt"
	"maps"
	"regexp"
	"slices"
)

// A Part is one page of the index of errors: / lists a catalog that fits one
// round trip; a larger one goes on over /page/2/ and after, so no new error
// page makes / too heavy.
type Part struct {
	N, Of      int
	Prev, Next string     // the neighbouring parts' URLs, or empty
	Sections   []*Section // the part's pages, by section
	read       bool       // a template read it
}

func partURL(n int) string {
	if n == 1 {
		return "/"
	}
	return fmt.Sprintf("/page/%d/", n)
}

var partRE = regexp.MustCompile(`^/page/[0-9]+/$`)

// paginate measures the room the index's page leaves with no entry, and cuts
// the catalog into parts (see cut). A page unchanged since prev (last, by file)
// keeps entry and weight.
func (s *Site) paginate(o Options, last map[string]*Page) error {
	for _, p := range s.Pages {
		if partRE.MatchString(p.URL) || p.URL == "/" && p.IsError() { // a home page of one's own is content/index.md
			return fmt.Errorf("%s:%d: url %q is the index of errors' (/, and /page/2/ and after once the catalog outgrows one page): "+
				"set another url", p.File, p.Meta.URLLine, p.URL)
		}
	}
	home := s.Pages[slices.IndexFunc(s.Pages, func(p *Page) bool { return p.URL == "/" })] // a page of every build
	if len(s.catalog.pages) == 0 || home.Home && s.tmpl.set.Lookup("home") == nil {
		return nil // nothing to list; render reports a missing home.html
	}
	// The page with no entry, as a middle part, with both its links.
	home.part, s.catalog.parts = &Part{N: 10, Of: 11, Prev: partURL(9), Next: partURL(11)}, 11
	if err := s.renderEach(o, []*Page{home}); err != nil {
		return err
	}
	s.room, home.out = CriticalBudget-home.out.Critical.Gzip, rendered{}
	if !home.part.read { // a home of the writer's own that lists no part of the index
		home.part, s.catalog.parts = nil, 0
		return nil
	}
	s.breaks = map[string]bool{}
	if prev := o.Prev; prev != nil && prev.inputs == s.inputs && prev.catalogSum == s.catalogSum {
		s.breaks = prev.breaks // the last build's cut, which its pages of the index, reused, show
	}
	if s.room <= 0 {
		return fmt.Errorf("%s: the index's page with no entry is %d B gzip with its CSS and scripts, over the budget of %d B: "+
			"cut its templates (home.html, partials/errors.html) or the stylesheets",
			home.File, CriticalBudget-s.room, CriticalBudget)
	}
	if err := s.entries(o, last); err != nil {
		return err
	}
	return s.cut(home)
}

// cut fills each part with the next pages while their entries' weights (a
// guess, which fit checks) fit s.room, and makes a page of the index for each
// part after the first.
func (s *Site) cut(home *Page) error {
	var runs [][]*Page
	used := s.room + 1 // no run yet
	for i, p := range s.catalog.pages {
		w := p.weight
		if i == 0 || s.catalog.pages[i-1].Section != p.Section || used+w > s.room || s.breaks[p.File] {
			w += s.heads[p.Section].weight // a run's first page of a section brings its heading
		}
		if w > s.room {
			return fmt.Errorf("%s:1: its entry on the index of errors is about %d B gzip, more than the %d B "+
				"a page of the index has for entries: shorten its description or its messages", p.File, w, s.room)
		}
		if used+w > s.room || s.breaks[p.File] {
			runs, used = append(runs, nil), 0
		}
		runs[len(runs)-1] = append(runs[len(runs)-1], p)
		used += w
	}
	if len(runs) > 1 && s.tmpl.set.Lookup("home") == nil {
		return fmt.Errorf("%s/home.html: missing: the index of errors goes on over /page/2/, which it lays out", TemplateDir)
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
				part.Sections = append(part.Sections, &Section{Name: p.Section, Library: s.heads[p.Section].Library})
			}
			sec := part.Sections[len(part.Sections)-1]
			sec.Pages = append(sec.Pages, p)
		}
		if n == 0 {
			home.part = part
			continue
		}
		url := partURL(n + 1)
		p := &Page{File: fmt.Sprintf("%s (page %d)", homeFile, n+1), URL: url, Out: url[1:] + "index.html",
			Home: true, Meta: home.Meta, part: part}
		p.Meta.Title = fmt.Sprintf("%s, page %d of %d", home.Meta.Title, n+1, len(runs))
		s.Pages = append(s.Pages, p)
	}
	s.catalog.parts = len(runs)
	return nil
}

// fit renders the pages and checks each page of the index against the budget.
// One over it (its entries pushed its end out of gzip's reach, say) gets a
// break before its last pages, weighing what it is over, and the index and
// every page that lists the catalog render again.
func (s *Site) fit(o Options, last map[string]*Page) error {
	var first, cutAt string // the last round's page, by its first entry, and the entry it was cut before
	for {
		if err := s.render(o); err != nil {
			return err
		}
		i := slices.IndexFunc(s.Pages, func(p *Page) bool { return p.part != nil && p.out.Critical.Gzip > CriticalBudget })
		if i < 0 {
			return nil
		}
		over := s.Pages[i]
		var run []*Page
		for _, sec := range over.part.Sections {
			run = append(run, sec.Pages...)
		}
		if len(run) == 1 {
			return fmt.Errorf("%s:1: its entry alone makes %s %d B gzip with its CSS and scripts, over the budget of %d B: "+
				"shorten its description or its messages", run[0].File, over.URL, over.out.Critical.Gzip, CriticalBudget)
		}
		cut, w := len(run)-1, run[len(run)-1].weight
		for cut > 1 && w < over.out.Critical.Gzip-CriticalBudget {
			cut--
			w += run[cut].weight
		}
		s.breaks = maps.Clone(s.breaks) // the last build's, which its pages show, stays as it was
		if run[0].File == first {
			delete(s.breaks, cutAt) // still over: cut it shorter, leaving no page of the few entries between two cuts
		}
		first, cutAt = run[0].File, run[cut].File
		s.breaks[cutAt] = true
		for _, p := range s.Pages {
			if p.part == nil && !p.out.Listed {
				continue
			}
			if l := last[p.File]; len(p.out.HTML) > 0 && (l == nil || len(l.out.HTML) == 0 || &l.out.HTML[0] != &p.out.HTML[0]) {
				s.Rendered-- // rendered by this build, and again below: counted once
			}
			p.out = rendered{}
		}
		root := s.Pages[slices.IndexFunc(s.Pages, func(p *Page) bool { return p.URL == "/" })]
		s.Pages = slices.DeleteFunc(s.Pages, func(p *Page) bool { return p.part != nil && p != root })
		if err := s.cut(root); err != nil {
			return err
		}
	}
}

// entries lays out each error page's entry and each section's heading as the
// index does, and weighs each: a heading compressed alone, an entry by what it
// adds, compressed, to the one before (or the heading), as entries alike add
// little. A page and the one before it unchanged since prev keep their weight.
func (s *Site) entries(o Options, last map[string]*Page) error {
	if o.Prev == nil || o.Prev.inputs != s.inputs {
		last = nil // a template or a setting changed: every entry is laid out again
	}
	secs := s.catalog.sections
	s.heads = map[string]*Section{}
	var todo []*Page // the pages whose entries are laid out again
	for _, sec := range secs {
		s.heads[sec.Name] = &Section{Name: sec.Name, Library: sec.Library}
		for _, p := range sec.Pages {
			if l := last[p.File]; l != nil && bytes.Equal(l.raw, p.raw) && l.URL == p.URL && l.LibraryName == p.LibraryName {
				p.entry = l.entry
			} else {
				todo = append(todo, p)
			}
		}
	}
	err := s.each(o, len(secs)+len(todo), func(i int) (err error) {
		if i < len(secs) {
			head := s.heads[secs[i].Name]
			head.html, err = s.execute("section", ContentDir+"/"+head.Name+"/", head)
			return err
		}
		p := todo[i-len(secs)]
		p.entry, err = s.execute("entry", p.File, p)
		return err
	})
	if err != nil {
		return err
	}
	// Measured together, a gzip writer being 600 KB of tables: the size of
	// frags[i] less that of frags[i-1] goes to weights[i] where it is set.
	weights, frags := []*int{nil, nil}, [][]byte{nil, nil}
	for _, sec := range secs {
		head := s.heads[sec.Name]
		before := head.html
		weights, frags = append(weights, nil, &head.weight), append(frags, nil, before)
		for _, p := range sec.Pages {
			if l := last[p.File]; l != nil && bytes.Equal(l.entry, p.entry) && bytes.Equal(l.after, before) {
				p.weight = l.weight
			} else {
				weights, frags = append(weights, nil, &p.weight), append(frags, before, slices.Concat(before, p.entry))
			}
			p.after, before = before, p.entry
		}
	}
	sizes := measureAll(frags)
	for i, w := range weights {
		if w != nil {
			*w = sizes[i].Gzip - sizes[i-1].Gzip
		}
	}
	return nil
}
