package site

import (
	"bytes"
	"compress/gzip"
	"sort"

	"github.com/andybalholm/brotli"
)

// Size is a file's bytes raw and compressed, as a server sends them.
type Size struct{ Raw, Gzip, Brotli int }

// Sizes measures data with gzip -9 and brotli -q 11.
func Sizes(data []byte) Size {
	var g, b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&g, gzip.BestCompression)
	zw.Write(data)
	zw.Close()
	bw := brotli.NewWriterLevel(&b, brotli.BestCompression)
	bw.Write(data)
	bw.Close()
	return Size{Raw: len(data), Gzip: g.Len(), Brotli: b.Len()}
}

func (a Size) add(b Size) Size { return Size{a.Raw + b.Raw, a.Gzip + b.Gzip, a.Brotli + b.Brotli} }

// Report is the build's summary.
type Report struct {
	Pages    int
	Total    Size // every file
	Critical Size // the home page, its stylesheet and its script
	Measure  Size // measure.js
}

// CriticalBudget is what fits in the first round trip: ten segments of
// 1,460 bytes.
const CriticalBudget = 14600

// Report measures the built files.
func (s *Site) Report() Report {
	r := Report{Pages: len(s.Pages)}
	names := make([]string, 0, len(s.Files))
	for n := range s.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		r.Total = r.Total.add(Sizes(s.Files[n]))
	}
	for _, p := range s.Pages {
		if p.Out != "index.html" {
			continue
		}
		r.Critical = Sizes(s.Files[p.Out])
		for _, f := range p.Loads {
			r.Critical = r.Critical.add(Sizes(s.Files[f]))
		}
	}
	r.Measure = Sizes(s.Files["measure.js"])
	return r
}
