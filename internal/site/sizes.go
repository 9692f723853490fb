package site

import (
	"cmp"
	"compress/gzip"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// Size is a file's bytes raw and compressed; Brotli is 0 when not measured.
type Size struct{ Raw, Gzip, Brotli int }

// measureAll measures each of files with gzip -9 and, when withBrotli is
// set, with brotli -q 11, each file on a core. Brotli at quality 11 is
// slow (50 ms for a 30 KB page), and the budget is a gzip figure, so it
// is measured only on request.
func measureAll(files [][]byte, withBrotli bool) []Size {
	sizes := make([]Size, len(files))
	var wg sync.WaitGroup
	if withBrotli {
		for i, data := range files {
			wg.Go(func() { sizes[i].Brotli = brotliSize(data) })
		}
	}
	// One writer, reset for each file: a new one is 600 KB of tables,
	// which would cost about as much as compressing a small file.
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestCompression)
	for i, data := range files {
		var n counter
		zw.Reset(&n)
		zw.Write(data)
		zw.Close()
		sizes[i].Raw, sizes[i].Gzip = len(data), int(n)
	}
	wg.Wait()
	return sizes
}

func brotliSize(data []byte) int {
	var n counter
	// The window fitted to the input, as the brotli command does: the
	// streaming default, 4 MB, is a byte off on small files, and slower.
	lgwin := min(max(10, bits.Len(uint(len(data)))), 24)
	bw := brotli.NewWriterOptions(&n, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: lgwin})
	bw.Write(data)
	bw.Close()
	return int(n)
}

// counter counts the bytes written to it.
type counter int

func (c *counter) Write(p []byte) (int, error) { *c += counter(len(p)); return len(p), nil }

// Sizes is the build's size summary.
type Sizes struct {
	Raw int // every file, uncompressed
	// Critical is the critical path (HTML, stylesheet, scripts) of the
	// page with the largest HTML, CriticalURL: on pages built from the same
	// templates, gzip follows the raw size closely enough.
	Critical    Size
	CriticalURL string
	Measure     Size // measure.js
}

// Verdict says whether the critical path fits CriticalBudget.
func (r Sizes) Verdict() string {
	if r.Critical.Gzip <= CriticalBudget {
		return "fits"
	}
	return "OVER"
}

// CriticalBudget is what fits in the first round trip: ten segments of 1,460 bytes.
const CriticalBudget = 14600

// Sizes measures the built files, compressing only the critical path and measure.js.
func (s *Site) Sizes(withBrotli bool) Sizes {
	var r Sizes
	for _, data := range s.Files {
		r.Raw += len(data)
	}
	// A build has a page at least: the index.
	heavy := slices.MaxFunc(s.Pages, func(a, b *Page) int { return cmp.Compare(len(s.Files[a.Out]), len(s.Files[b.Out])) })
	r.CriticalURL = heavy.URL
	// measure.js, then the critical path: the HTML, the stylesheet and the page's scripts.
	todo := [][]byte{s.Files["measure.js"], s.Files[heavy.Out], s.Files[strings.TrimPrefix(s.assets["style.css"], "/")]}
	if heavy.Meta.CounterOn() {
		todo = append(todo, s.Files["measure.js"])
	}
	if heavy.Home {
		todo = append(todo, s.Files["filter.js"])
	}
	sizes := measureAll(todo, withBrotli)
	r.Measure = sizes[0]
	for _, z := range sizes[1:] {
		r.Critical = Size{r.Critical.Raw + z.Raw, r.Critical.Gzip + z.Gzip, r.Critical.Brotli + z.Brotli}
	}
	return r
}
