package site

import (
	"bytes"
	"compress/gzip"
	"fmt"
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
// 30 KB page, most of a one-page build) and the budget is a gzip figure,
// so it is measured only on request.
func Measure(data []byte, withBrotli bool) Size {
	s := Size{Raw: len(data)}
	var wg sync.WaitGroup
	if withBrotli {
		wg.Go(func() {
			var b bytes.Buffer
			// The brotli command fits its window to a small input; so
			// does this, which gives its byte counts exactly (a 4 MB
			// window, the streaming default, is a byte off on small
			// files) and saves the time of setting up tables for 4 MB.
			lgwin := min(max(10, bits.Len(uint(len(data)))), 24)
			bw := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: lgwin})
			bw.Write(data)
			bw.Close()
			s.Brotli = b.Len()
		})
	}
	var g bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&g, gzip.BestCompression)
	zw.Write(data)
	zw.Close()
	s.Gzip = g.Len()
	wg.Wait()
	return s
}

// Sizes is the build's size summary.
type Sizes struct {
	Pages    int
	Files    int
	Raw      int  // every file, uncompressed
	Critical Size // the home page, its stylesheet and its script
	Measure  Size // measure.js
	Brotli   bool // the brotli figures were measured
}

// CriticalBudget is what fits in the first round trip: ten segments of
// 1,460 bytes.
const CriticalBudget = 14600

// Sizes measures the built files. Only the figures it prints exactly are
// compressed: the critical path of / and measure.js, in parallel, and with
// the build cache on, a file measured before is not measured again.
func (s *Site) Sizes(withBrotli bool) Sizes {
	r := Sizes{Pages: len(s.Pages), Files: len(s.Files), Brotli: withBrotli}
	for _, data := range s.Files {
		r.Raw += len(data)
	}
	names := []string{"measure.js"}
	for _, p := range s.Pages {
		if p.Out == "index.html" {
			names = append(names, p.Out)
			names = append(names, p.Loads...)
		}
	}
	sizes := make([]Size, len(names))
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Go(func() { sizes[i] = s.measure(s.Files[n], withBrotli) })
	}
	wg.Wait()
	r.Measure = sizes[0]
	for _, z := range sizes[1:] {
		r.Critical = r.Critical.add(z)
	}
	return r
}

// measure measures data, or finds its figures in the build cache. An
// entry is "GZIP BROTLI", BROTLI 0 when not measured.
func (s *Site) measure(data []byte, withBrotli bool) Size {
	key := s.sizeCache.Key(data)
	if b, ok := s.sizeCache.Get(key); ok {
		z := Size{Raw: len(data)}
		if _, err := fmt.Sscanf(string(b), "%d %d", &z.Gzip, &z.Brotli); err == nil && z.Gzip > 0 && (z.Brotli > 0 || !withBrotli) {
			if !withBrotli {
				z.Brotli = 0
			}
			return z
		}
	}
	z := Measure(data, withBrotli)
	s.sizeCache.Put(key, fmt.Appendf(nil, "%d %d\n", z.Gzip, z.Brotli))
	return z
}
