package site

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/andybalholm/brotli"
)

// Size is a file's bytes raw and compressed, as a server sends them.
type Size struct{ Raw, Gzip, Brotli int }

func (a Size) add(b Size) Size { return Size{a.Raw + b.Raw, a.Gzip + b.Gzip, a.Brotli + b.Brotli} }

// Sizes measures data with gzip -9 and brotli -q 11, the two side by side.
func Sizes(data []byte) Size {
	s := Size{Raw: len(data)}
	var wg sync.WaitGroup
	wg.Go(func() {
		var b bytes.Buffer
		bw := brotli.NewWriterLevel(&b, brotli.BestCompression)
		bw.Write(data)
		bw.Close()
		s.Brotli = b.Len()
	})
	var g bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&g, gzip.BestCompression)
	zw.Write(data)
	zw.Close()
	s.Gzip = g.Len()
	wg.Wait()
	return s
}

// Report is the build's summary.
type Report struct {
	Pages    int
	Files    int
	Raw      int  // every file, uncompressed
	Critical Size // the home page, its stylesheet and its script
	Measure  Size // measure.js
}

// CriticalBudget is what fits in the first round trip: ten segments of
// 1,460 bytes.
const CriticalBudget = 14600

// Report measures the built files. Only the figures it prints exactly are
// compressed: the critical path of / and measure.js. Brotli at quality 11
// is slow (50 ms for a 30 KB page), so each file is measured in parallel and
// its figures are kept in the user's cache, keyed by the content's hash: a
// stylesheet or script that did not change is not compressed again.
func (s *Site) Report() Report {
	r := Report{Pages: len(s.Pages), Files: len(s.Files)}
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
	cache := sizeCache()
	sizes := make(map[string]Size, len(names))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, n := range names {
		wg.Go(func() {
			z := cache.sizes(s.Files[n])
			mu.Lock()
			sizes[n] = z
			mu.Unlock()
		})
	}
	wg.Wait()
	r.Measure = sizes["measure.js"]
	for _, n := range names[1:] {
		r.Critical = r.Critical.add(sizes[n])
	}
	return r
}

// sizeDir is a folder of files named by content hash, each holding that
// content's gzip and brotli sizes. The zero value caches nothing.
type sizeDir string

func sizeCache() sizeDir {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return sizeDir(filepath.Join(dir, "errref-build", "sizes"))
}

func (d sizeDir) sizes(data []byte) Size {
	if d == "" {
		return Sizes(data)
	}
	sum := sha256.Sum256(data)
	name := filepath.Join(string(d), hex.EncodeToString(sum[:]))
	if b, err := os.ReadFile(name); err == nil {
		z := Size{Raw: len(data)}
		if _, err := fmt.Sscanf(string(b), "%d %d", &z.Gzip, &z.Brotli); err == nil && z.Gzip > 0 && z.Brotli > 0 {
			return z
		}
	}
	z := Sizes(data)
	// A cache that cannot be written costs the next build time, never a
	// wrong figure: write whole, then rename into place.
	if os.MkdirAll(string(d), 0o755) == nil {
		if f, err := os.CreateTemp(string(d), ".tmp-"); err == nil {
			_, werr := fmt.Fprintf(f, "%d %d\n", z.Gzip, z.Brotli)
			if f.Close() == nil && werr == nil {
				os.Rename(f.Name(), name)
			}
			os.Remove(f.Name())
		}
	}
	return z
}
