package site

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"html/template"
	"maps"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tdewolff/minify/v2"
	mincss "github.com/tdewolff/minify/v2/css"
	minhtml "github.com/tdewolff/minify/v2/html"
	minjs "github.com/tdewolff/minify/v2/js"
	minjson "github.com/tdewolff/minify/v2/json"

	"errref/internal/htmlcheck"
	"errref/internal/markdown"
	"errref/internal/settings"
)

// minifier is shared by every page; minify.M is safe for concurrent use.
var minifier = func() *minify.M {
	m := minify.New()
	m.Add("text/html", &minhtml.Minifier{KeepDocumentTags: true, KeepEndTags: true, KeepDefaultAttrVals: true})
	m.AddFunc("text/css", mincss.Minify)
	// ES5: the minifier may not add newer syntax (an optional catch binding) an
	// old browser fails on.
	m.Add("application/javascript", &minjs.Minifier{Version: 2009})
	m.AddFuncRegexp(regexp.MustCompile(`[/+]json$`), minjson.Minify)
	return m
}()

// rendered is what rendering a page gives, kept for the next build.
type rendered struct {
	htmlcheck.Findings // its ids, links and click names, whose places are found for an error only
	HTML               []byte
	Cites              []Citation
	Warnings           []string
	Listed             bool // its templates listed the catalog (.Site.Pages, .Site.Sections)
	Critical           Size // its critical path, which Site.fit, Sizes and CheckBudget read
}

// asset is the served path of a file of static/, for templates; bundle sets s.assets before any page renders.
func (s *Site) asset(name string) (string, error) {
	if a, ok := s.assets[name]; ok {
		return a, nil
	}
	return "", fmt.Errorf("asset %q is not in %s/", name, StaticDir)
}

// render renders every page that o.Prev does not hold.
func (s *Site) render(o Options) error {
	if slices.ContainsFunc(s.Pages, func(p *Page) bool { return p.Home }) && s.tmpl.set.Lookup("home") == nil {
		return fmt.Errorf("%s/index.md: missing, and %s/ has no home.html to lay out the index of errors, /: add one of them", ContentDir, TemplateDir)
	}
	// A page with HTML was reused from Prev.
	todo := slices.DeleteFunc(slices.Clone(s.Pages), func(p *Page) bool { return p.out.HTML != nil })
	s.Rendered += len(todo)
	return s.renderEach(o, todo)
}

// renderEach renders pages side by side (see each).
func (s *Site) renderEach(o Options, pages []*Page) error {
	return s.each(o, len(pages), func(i int) (err error) {
		pages[i].out, err = s.renderPage(pages[i]) // a failed build is not kept
		return err
	})
}

// each runs job(0) to job(n-1) side by side, each within o.Timeout of the
// one before it: on a loaded machine a large site takes long, but a job
// never ends only when its template does not. Pages and the index's entries render here.
func (s *Site) each(o Options, n int, job func(i int) error) error {
	errs := make([]error, n)
	finished := make(chan struct{}, n)
	// As many jobs at a time as cores: more would only hold more half-rendered pages.
	busy := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := range n {
		go func() {
			busy <- struct{}{}
			defer func() { <-busy; finished <- struct{}{} }()
			errs[i] = job(i)
		}()
	}
	// A running template cannot be stopped: on time out the build reports,
	// leaving it to stopWriter or the process's end.
	timeout := cmp.Or(o.Timeout, DefaultTimeout)
	timer := time.NewTimer(timeout)
	for range n {
		select {
		case <-finished:
			timer.Reset(timeout)
		case <-timer.C:
			s.stop.Store(true)
			return s.tmpl.tooSlow(timeout)
		}
	}
	return joinOnce(errs)
}

// renderError is a template that failed while rendering pages.
type renderError struct {
	err   error    // templates/FILE.html:LINE: ...
	pages []string // content/NAME.md
}

func (e *renderError) Error() string {
	if n := len(e.pages); n > 4 { // a catalog's worth of names would hide the error
		return fmt.Sprintf("%v (rendering %s and %d more pages)", e.err, strings.Join(e.pages[:3], ", "), n-3)
	}
	return fmt.Sprintf("%v (rendering %s)", e.err, strings.Join(e.pages, ", "))
}

// joinOnce joins the pages' errors, a template failure once with the pages it broke.
func joinOnce(errs []error) error {
	var out []error
	first := map[string]*renderError{} // a template's failure -> its first renderError
	for _, err := range errs {
		if re, ok := err.(*renderError); !ok {
			out = append(out, err) // nil, which errors.Join drops, when the page rendered
		} else if f, ok := first[re.err.Error()]; ok {
			f.pages = append(f.pages, re.pages...)
		} else {
			first[re.err.Error()] = re
			out = append(out, re)
		}
	}
	return errors.Join(out...)
}

// Data is what templates see.
type Data struct {
	Site      *Catalog // the settings, and every page
	Home      bool     // the page is the index of errors
	Page      *Page
	Canonical string    // absolute URL, or empty without a base URL
	Counter   bool      // the page loads /measure.js
	JSONLD    any       // structured data, or nil
	Checked   []Checked // the releases the quotes are checked against (checkedAgainst)
	Guide     string    // the guide the page offers: its guide, or site.toml's
	Sells     bool      // the page has a buy link, whose event the notice then names
	ids       map[string]int
	partials  []string // the partials the body calls ({{< NAME >}})
}

// HasID reports whether the body makes the id, for a partial to link to it only then.
func (d *Data) HasID(id string) bool { _, ok := d.ids[id]; return ok }

// Uses reports whether the body calls the partial, for the base template
// to load what it needs (the not-found page's index of errors, filter.js).
func (d *Data) Uses(partial string) bool { return slices.Contains(d.partials, partial) }

// renderPage renders p; any number of pages render at once.
func (s *Site) renderPage(p *Page) (out rendered, err error) {
	cat := *s.catalog // the page's own, to note whether it lists the pages
	cat.part = p.part
	d := &Data{Site: &cat, Page: p, Home: p.Home, Counter: p.Meta.CounterOn(), Guide: cmp.Or(p.Meta.Guide, s.Settings.Guide)}
	if !p.Meta.NoIndex {
		d.Canonical, d.JSONLD = s.structuredData(p)
	}
	// Partials run after the body, when its citations are known; until
	// then a mark with a NUL, which Markdown cannot output, holds each.
	res, err := markdown.Render(p.src, p.first, s.markdownOptions(d))
	if at, ok := errors.AsType[*markdown.LineError](err); ok {
		return out, fmt.Errorf("%s:%d: %w", p.File, at.Line, at.Err)
	}
	if err != nil {
		return out, fmt.Errorf("%s: %w", p.File, err)
	}
	var quotes []string
	front := len(p.raw) - len(p.src) // a span counts the front matter too: the body is the end of the file
	for _, c := range res.Citations {
		if c.Span != [2]int{} {
			c.Span[0], c.Span[1] = c.Span[0]+front, c.Span[1]+front
		}
		out.Cites = append(out.Cites, Citation{Citation: c, File: p.File, History: slices.Contains(p.Meta.History, c.Repo+"@"+c.Version)})
		quotes = append(quotes, c.Quote)
	}
	if err := p.checkMessages(quotes); err != nil {
		return out, err
	}
	d.Checked = checkedAgainst(out.Cites)
	d.ids = res.IDs
	if out.Warnings, err = s.checkUnset(p, d.Guide, d); err != nil {
		return out, err
	}
	for i, name := range d.partials {
		b, err := s.execute(name, p.File, d)
		if err != nil {
			return out, err
		}
		res.HTML = bytes.Replace(res.HTML, partialMark(i), b, 1)
	}
	p.Body = template.HTML(res.HTML)
	// Most pages sell nothing: only a body that names the attribute is parsed.
	d.Sells = bytes.Contains(res.HTML, []byte("data-checkout")) && htmlcheck.Check(res.HTML).Checkouts > 0
	page, err := s.execute("base", p.File, d)
	if err != nil {
		return out, err
	}
	if out.Findings, err = s.check(p, d, page); err != nil {
		return out, err
	}
	if out.HTML, err = minifier.Bytes("text/html", page); err != nil {
		return out, fmt.Errorf("%s: minify: %v", p.File, err)
	}
	for _, w := range res.Warnings {
		out.Warnings = append(out.Warnings, fmt.Sprintf("%s:%d: %v", p.File, w.Line, w.Err))
	}
	if err := checkHistory(p, out.Cites); err != nil {
		return out, err
	}
	out.Listed = cat.listed
	out.Critical = s.critical(out)
	// Warned as it renders, so the preview warns too; the index's pages are cut to fit (Site.fit).
	if z := (PageSize{URL: p.URL, File: p.File, Size: out.Critical}); p.part == nil && !z.Fits() {
		out.Warnings = append(out.Warnings, z.Over()+": -publish refuses to build")
	}
	return out, nil
}

// structuredData is p's canonical URL, empty without a base URL, and its
// JSON-LD: a TechArticle, or the index's CollectionPage, with its
// BreadcrumbList (see trail).
func (s *Site) structuredData(p *Page) (canonical string, jsonLD any) {
	set := s.Settings
	kind, title := "TechArticle", "headline"
	if p.Home {
		kind, title = "CollectionPage", "name"
	}
	ld := map[string]any{
		"@context":    "https://schema.org",
		"@type":       kind,
		title:         p.Meta.Title,
		"description": p.Meta.Description,
		"inLanguage":  set.Language,
		"publisher":   map[string]string{"@type": "Organization", "name": set.Publisher},
		"author":      map[string]string{"@type": "Organization", "name": set.Publisher},
	}
	if set.BaseURL != "" {
		canonical = set.BaseURL + p.URL
		ld["url"] = canonical
	}
	for key, t := range map[string]time.Time{"datePublished": p.Meta.Date, "dateModified": p.Meta.Updated} {
		if !t.IsZero() {
			ld[key] = t.Format("2006-01-02")
		}
	}
	if trail := s.trail(p); trail != nil {
		var items []any
		for i, c := range append(trail, p) {
			item := map[string]any{"@type": "ListItem", "position": i + 1, "name": c.Meta.Title}
			if c != p { // the page itself needs no link
				item["item"] = set.BaseURL + c.URL
			}
			items = append(items, item)
		}
		delete(ld, "@context")
		crumbs := map[string]any{"@type": "BreadcrumbList", "itemListElement": items}
		return canonical, map[string]any{"@context": "https://schema.org", "@graph": []any{ld, crumbs}}
	}
	return canonical, ld
}

// markdownOptions are the settings'; a partial the body calls goes to d.partials.
func (s *Site) markdownOptions(d *Data) markdown.Options {
	return markdown.Options{
		Contact:        s.Settings.Contact,
		Wallet:         s.Settings.Wallet,
		PaymentContact: s.Settings.PaymentContact,
		Storefront:     s.Settings.Storefront,
		PayPage:        "/pay/",
		Counter:        d.Counter,
		Guide:          d.Guide,
		Partial: func(name string) ([]byte, error) {
			if s.tmpl.set.Lookup(name) == nil {
				return nil, fmt.Errorf("no partial %q: add %s/partials/%s.html", name, TemplateDir, name)
			}
			d.partials = append(d.partials, name)
			return partialMark(len(d.partials) - 1), nil
		},
	}
}

// checkUnset warns of, or with publish refuses, a placeholder the page shows:
// <setting:guide> naming no guide, or a checked line (it shows its quotes as
// checked) without updated.
func (s *Site) checkUnset(p *Page, guide string, d *Data) ([]string, error) {
	var msgs []string
	if n := lineOf(p.src, "<setting:guide>"); n > 0 && guide == "" {
		msgs = append(msgs, fmt.Sprintf("%s:%d: <setting:guide> names no guide: set guide = \"NAME\" (the product's name on the storefront) in its front matter, or guide in %s (SITE_GUIDE)", p.File, p.first+n-1, settings.File))
	}
	if d != nil && d.Uses("checked") && len(d.Checked) > 0 && p.Meta.Updated.IsZero() {
		msgs = append(msgs, fmt.Sprintf("%s:%d: {{< checked >}} shows the day the page's quotes were checked, and the page sets no updated: "+
			"set updated = 2026-12-05, the day you checked them", p.File, p.first+max(lineOf(p.src, "{{< checked >}}"), 1)-1))
	}
	if s.publish && msgs != nil {
		return nil, errors.New(strings.Join(msgs, "\n"))
	}
	for i := range msgs {
		msgs[i] += ": the page shows a placeholder; -publish refuses to build"
	}
	return msgs, nil
}

// unnamedGuides refuses, for -publish, each page whose <setting:guide> has no guide to name.
func (s *Site) unnamedGuides() error {
	errs := make([]error, len(s.Pages)) // errors.Join drops the nils
	for i, p := range s.Pages {
		_, errs[i] = s.checkUnset(p, cmp.Or(p.Meta.Guide, s.Settings.Guide), nil)
	}
	return errors.Join(errs...)
}

// checkHistory refuses a release named as history that no citation quotes:
// a typo would leave the quote it meant checked against the newest release.
func checkHistory(p *Page, cites []Citation) error {
	for _, h := range p.Meta.History {
		if !slices.ContainsFunc(cites, func(c Citation) bool { return c.Repo+"@"+c.Version == h }) {
			return fmt.Errorf("%s:%d: history names %s, which no citation of this page quotes: cite it, or remove it from history", p.File, p.Meta.HistoryLine, h)
		}
	}
	return nil
}

// execute runs the template name on data, for the page file.
func (s *Site) execute(name, file string, data any) ([]byte, error) {
	var b bytes.Buffer
	if err := s.tmpl.set.ExecuteTemplate(stopWriter{&b, &s.stop}, name, data); err != nil {
		return nil, &renderError{s.tmpl.error(err), []string{file}}
	}
	return b.Bytes(), nil
}

// check finds page's ids, links and click names, and refuses its HTML
// problems, each at the line to change: of the page, else of a template.
func (s *Site) check(p *Page, d *Data, page []byte) (htmlcheck.Findings, error) {
	found := htmlcheck.Check(page)
	if found.Filter && d.Counter {
		// A page with the counter keeps it as its only script, as its notice says.
		at := locate(p, s.tmpl.src, htmlcheck.FilterSrc)
		fix := "the counter is its only script (the index of errors and the not-found page have none)"
		if n := lineOf(p.src, "{{< errors >}}"); n > 0 {
			at = fmt.Sprintf("%s:%d", p.File, p.first+n-1)
			fix = "its {{< errors >}} box needs it, and the counter is a page's only script: " +
				"set counter = false in its front matter, as the not-found page does, or take the box out"
		}
		return found, fmt.Errorf("%s: loads %s, which a page with the counter may not: %s", at, htmlcheck.FilterSrc, fix)
	}
	if found.Checkouts > 0 && !d.Sells {
		return found, fmt.Errorf("%s: a template makes a buy link (data-checkout) outside the page's body, where the notice cannot see it: put buy links in the page or a partial it calls", locate(p, s.tmpl.src, "data-checkout"))
	}
	var problems []error
	for _, pr := range found.Problems {
		where := locate(p, s.tmpl.src, pr.Needle)
		if line, ok := d.ids[pr.ID]; ok && pr.ID != "" {
			// A template or another line repeats the id: the page's line is the one to change.
			where = fmt.Sprintf("%s:%d", p.File, line)
			pr.Msg += " (this line makes it, and so does a template or another line): rename the heading"
		}
		problems = append(problems, fmt.Errorf("%s: %s", where, pr.Msg))
	}
	return found, errors.Join(problems...)
}

// trail is p's breadcrumb, of absolute URLs (none without a base URL, nor
// on the index): the index, and the section's own page if any.
func (s *Site) trail(p *Page) []*Page {
	if s.Settings.BaseURL == "" || p.URL == "/" {
		return nil
	}
	// The index is a page of every build.
	trail := []*Page{s.Pages[slices.IndexFunc(s.Pages, func(h *Page) bool { return h.URL == "/" })]}
	for _, sec := range s.catalog.sections {
		if sec.Name == p.Section && sec.Page != nil && sec.Page != p {
			trail = append(trail, sec.Page)
		}
	}
	return trail
}

// partialMark stands in the body for the i-th partial until it runs.
func partialMark(i int) []byte { return fmt.Appendf(nil, "\x00partial %d\x00", i) }

// stopWriter fails every write once stop is set: a runaway template that
// writes ends there instead of filling memory until the process ends.
type stopWriter struct {
	w    *bytes.Buffer
	stop *atomic.Bool
}

func (s stopWriter) Write(p []byte) (int, error) {
	if s.stop.Load() {
		return 0, errors.New("stopped: the build ran out of time")
	}
	return s.w.Write(p)
}

// locate names the first line of the page, else of a template, that holds needle.
func locate(p *Page, tmplSrc map[string][]byte, needle string) string {
	if needle != "" {
		if n := lineOf(p.src, needle); n > 0 {
			return fmt.Sprintf("%s:%d", p.File, p.first+n-1)
		}
		for _, name := range slices.Sorted(maps.Keys(tmplSrc)) {
			if n := lineOf(tmplSrc[name], needle); n > 0 {
				return fmt.Sprintf("%s:%d (rendering %s)", name, n, p.File)
			}
		}
	}
	return p.File + ":1"
}

// lineOf is the line of src, from 1, where needle first occurs, or 0.
func lineOf(src []byte, needle string) int {
	i := bytes.Index(src, []byte(needle))
	if i < 0 {
		return 0
	}
	return bytes.Count(src[:i], []byte("\n")) + 1
}
