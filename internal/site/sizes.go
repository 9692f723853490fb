package site

import (
	"cmp"
	"compress/gzip"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
)

// CriticalBudget is what fits in the first round trip: ten segments of 1,460 bytes.
const CriticalBudget = 14600

// StandinBaseURL stands in, in the summary of a build without a base URL,
// for the one the published page carries: Netlify's URL when no domain is set.
const StandinBaseURL = "https://error-reference.netlify.app"

// Size is a file's bytes raw and compressed.
type Size struct{ Raw, Gzip int }

func (z Size) plus(o Size) Size { return Size{z.Raw + o.Raw, z.Gzip + o.Gzip} }

// PageSize is a page's critical path: its HTML and the stylesheets and
// scripts it loads, each compressed on its own, as a server sends them.
type PageSize struct {
	URL, File string
	Size
}

// Fits reports whether the critical path fits CriticalBudget.
func (z PageSize) Fits() bool { return z.Gzip <= CriticalBudget }

// Over says by how much the page is over the budget.
func (z PageSize) Over() string {
	return fmt.Sprintf("%s: %s is %d B gzip with its CSS and scripts, %d B over the budget of one round trip, %d B: cut bytes from the page, the templates or the stylesheet (docs/build.md)",
		z.File, z.URL, z.Gzip, z.Gzip-CriticalBudget, CriticalBudget)
}

// Sizes is the build's size summary.
type Sizes struct {
	Raw int // every file, uncompressed
	// Critical is the heaviest critical path by gzip, not raw: a big table
	// compresses to little.
	Critical PageSize
	Standin  bool // the page was measured with StandinBaseURL, the build having no base URL
	Measure  Size // measure.js
}

// Sizes measures the built files and measure.js, and names the heaviest page.
// Without a base URL it measures that page, unless one of the index's, rendered
// again with StandinBaseURL, as published.
func (s *Site) Sizes() (Sizes, error) {
	r := Sizes{Standin: s.Settings.BaseURL == ""}
	for _, data := range s.Files {
		r.Raw += len(data)
	}
	// A build has a page at least that is not one of the index's (see Site.fit).
	pages := slices.DeleteFunc(slices.Clone(s.Pages), func(p *Page) bool { return p.part != nil })
	heavy := slices.MaxFunc(pages, func(a, b *Page) int { return cmp.Compare(a.out.Critical.Gzip, b.out.Critical.Gzip) })
	page := heavy.out
	if r.Standin {
		alt := &Site{Files: s.Files, Pages: s.Pages, Settings: s.Settings, publish: s.publish, tmpl: s.tmpl, assets: s.assets, catalog: s.catalog}
		alt.Settings.BaseURL = StandinBaseURL
		body := heavy.Body // renderPage sets it; the build's stays
		var err error
		page, err = alt.renderPage(heavy)
		if heavy.Body = body; err != nil {
			return r, fmt.Errorf("%s, rendered again with the base URL %s to be measured: %w", heavy.File, StandinBaseURL, err)
		}
	}
	r.Measure = measureAll([][]byte{s.Files["measure.js"]})[0]
	r.Critical = PageSize{URL: heavy.URL, File: heavy.File, Size: page.Critical}
	for _, p := range s.Pages {
		if p.part != nil && p.out.Critical.Gzip > r.Critical.Gzip {
			r.Critical, r.Standin = PageSize{URL: p.URL, File: p.File, Size: p.out.Critical}, false
		}
	}
	return r, nil
}

// critical measures a page's critical path: its HTML and the stylesheets and
// scripts it loads, those measured once a build, as every page of the index
// loads the same ones.
func (s *Site) critical(page rendered) Size {
	s.sizeOnce.Do(func() {
		s.sized = map[string]Size{}
		for name, data := range s.Files {
			if path.Ext(name) == ".css" || path.Ext(name) == ".js" {
				s.sized[name] = measureAll([][]byte{data})[0]
			}
		}
	})
	z := measureAll([][]byte{page.HTML})[0]
	for _, l := range page.Loads {
		z = z.plus(s.sized[strings.TrimPrefix(l, "/")]) // nothing for another site's: the CSP blocks it
	}
	return z
}

// CheckBudget refuses the build, naming each page whose critical path as built
// is over CriticalBudget.
func (s *Site) CheckBudget() error {
	var over []string
	for _, p := range s.Pages {
		z := PageSize{URL: p.URL, File: p.File, Size: p.out.Critical}
		if !z.Fits() {
			over = append(over, z.Over())
		}
	}
	if len(over) > 0 {
		return fmt.Errorf("a published page must fit one round trip; %d of %d are over it:\n%s", len(over), len(s.Pages), strings.Join(over, "\n"))
	}
	return nil
}

// measureAll measures each of files with gzip -9.
func measureAll(files [][]byte) []Size {
	sizes := make([]Size, len(files))
	// Writers are reset, not made: a new one, 600 KB of tables, costs about as
	// much as compressing a small file, and a build measures often (each page
	// of the index).
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	for i, data := range files {
		var n counter
		zw.Reset(&n)
		zw.Write(data)
		zw.Close()
		sizes[i] = Size{len(data), int(n)}
	}
	return sizes
}

var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestCompression)
	return zw
}}

// counter counts the bytes written to it.
type counter int

func (c *counter) Write(p []byte) (int, error) { *c += counter(len(p)); return len(p), nil }
