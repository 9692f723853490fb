package site

import (
	"compress/gzip"
	"math/bits"
	"sync"

	"github.com/andybalholm/brotli"
)

// Size is a file's bytes raw and compressed, as a server sends them.
// Brotli is 0 when it was not measured.
type Size struct{ Raw, Gzip, Brotli int }

func (a Size) add(b Size) Size { return Size{a.Raw + b.Raw, a.Gzip + b.Gzip, a.Brotli + b.Brotli} }

// Measure measures data with gzip -9 and, when withBrotli is set, with
// brotli -q 11 beside it. Brotli at quality 11 is slow (50 ms for a
// 30 KB page, most of a one-page build), and the budget is a gzip
// figure, so it is measured only on request.
func Measure(data []byte, withBrotli bool) Size {
	return measureAll([][]byte{data}, withBrotli)[0]
}

// measureAll measures each of files as Measure does. The gzip figures are
// taken one after another with one writer, reset for each (see gzipSize).
// Brotli, when asked for, is slow enough that each file gets a core.
func measureAll(files [][]byte, withBrotli bool) []Size {
	sizes := make([]Size, len(files))
	brotlis := make([]int, len(files))
	var wg sync.WaitGroup
	if withBrotli {
		for i, data := range files {
			wg.Go(func() { brotlis[i] = brotliSize(data) })
		}
	}
	for i, data := range files {
		sizes[i] = Size{Raw: len(data), Gzip: gzipSize(data)}
	}
	wg.Wait()
	for i := range sizes {
		sizes[i].Brotli = brotlis[i]
	}
	return sizes
}

// gzipWriters are level-9 writers, kept to be reset: one is 600 KB of
// tables, which the kernel hands over a page at a time as they are first
// written: on a small site, a new writer for each file would cost about as
// much as compressing it.
var gzipWriters sync.Pool

// gzipSize is the size of data under gzip -9.
func gzipSize(data []byte) int {
	var n counter
	zw, _ := gzipWriters.Get().(*gzip.Writer)
	if zw == nil {
		zw, _ = gzip.NewWriterLevel(&n, gzip.BestCompression)
	} else {
		zw.Reset(&n)
	}
	zw.Write(data)
	zw.Close()
	gzipWriters.Put(zw)
	return int(n)
}

func brotliSize(data []byte) int {
	var n counter
	// The brotli command fits its window to a small input; so does this,
	// which gives its byte counts exactly (a 4 MB window, the streaming
	// default, is a byte off on small files) and saves the time of
	// setting up tables for 4 MB.
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
	Pages    int
	Files    int
	Raw      int  // every file, uncompressed
	Critical Size // the home page, its stylesheet and its script
	Home     bool // / was built, so Critical measures it
	Measure  Size // measure.js
	Brotli   bool // the brotli figures were measured
}

// Verdict says whether the critical path fits CriticalBudget: never
// "fits" for a site without /, whose critical path is nothing.
func (r Sizes) Verdict() string {
	switch {
	case !r.Home:
		return "NOT MEASURED: no / was built"
	case r.Critical.Gzip <= CriticalBudget:
		return "fits"
	}
	return "OVER"
}

// CriticalBudget is what fits in the first round trip: ten segments of
// 1,460 bytes.
const CriticalBudget = 14600

// Sizes measures the built files. Only the figures it prints exactly are
// compressed: the critical path of / and measure.js (see measureAll).
func (s *Site) Sizes(withBrotli bool) Sizes {
	r := Sizes{Pages: len(s.Pages), Files: len(s.Files), Brotli: withBrotli}
	for _, data := range s.Files {
		r.Raw += len(data)
	}
	names := []string{"measure.js"}
	for _, p := range s.Pages {
		if p.Out == "index.html" {
			r.Home = true
			names = append(names, p.Out)
			names = append(names, p.Loads...)
		}
	}
	todo := make([][]byte, len(names))
	for i, n := range names {
		todo[i] = s.Files[n]
	}
	sizes := measureAll(todo, withBrotli)
	r.Measure = sizes[0]
	for _, z := range sizes[1:] {
		r.Critical = r.Critical.add(z)
	}
	return r
}
