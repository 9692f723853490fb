package store

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"errref/internal/event"
)

// TestLoadThroughTheHandler posts 100,000 events from 50 goroutines over
// loopback to the real handler, which stores each before it answers:
// the store holds exactly as many as were answered 204, and the heap does
// not grow with the count.
func TestLoadThroughTheHandler(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: 100,000 events through the handler into SQLite and PostgreSQL; run without -short")
	}
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		w := NewWriter(s, nil, 0, func(msg string) { t.Error(msg) })
		defer w.Close()
		h := &event.Handler{Sink: w.Receive}
		srv := httptest.NewServer(h)
		defer srv.Close()
		const workers, each = 50, 2000
		// A mix of kinds, pages and sources, as readers send them; the
		// roll-up's busiest row is one page's views from one referrer.
		var bodies [][]byte
		for _, path := range []string{"/", "/pay/", "/a/", "/b/"} {
			for _, ref := range []string{"news.ycombinator.com", "google.com", "reddit.com"} {
				for _, name := range []string{"view", "human-candidate", "engaged"} {
					bodies = append(bodies, []byte(`{"name":"`+name+`","path":"`+path+`","visible_ms":1200,"scrolled":true,"ref":"`+ref+`","campaign":{"utm_source":"hn"}}`))
				}
			}
		}
		var ok atomic.Int64
		var heapAt10k uint64
		var once sync.Once
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
		start := time.Now()
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for i := range each {
					req, _ := http.NewRequest("POST", srv.URL, bytes.NewReader(bodies[i%len(bodies)]))
					req.Header.Set("Content-Type", "text/plain")
					resp, err := client.Do(req)
					if err != nil {
						t.Error(err)
						return
					}
					resp.Body.Close()
					if resp.StatusCode == http.StatusNoContent {
						if ok.Add(1) == 10_000 {
							once.Do(func() { heapAt10k = liveHeap() })
						}
					}
				}
			})
		}
		wg.Wait()
		took := time.Since(start)
		n, err := s.Total(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if int64(n) != ok.Load() || n != workers*each {
			t.Errorf("stored %d, answered 204 %d times, posted %d", n, ok.Load(), workers*each)
		}
		day := time.Now().UTC().Format(time.DateOnly)
		rollupAgrees(t, s, day, day)
		heapEnd := liveHeap()
		t.Logf("%d events in %v: %.0f events/s; live heap %d KB after 10,000, %d KB after all", n, took.Round(time.Millisecond), float64(n)/took.Seconds(), heapAt10k/1024, heapEnd/1024)
		if heapEnd > heapAt10k+8<<20 {
			t.Errorf("live heap grew from %d KB to %d KB", heapAt10k/1024, heapEnd/1024)
		}
	})
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkReportAtAMillion times what cmd/report asks of the store, the
// counts of 30 days, over 1,000,000 stored events (made once per backend,
// in batches as the writer stores them, over 100 days, mixed kinds and
// sources, the roll-up kept by the trigger).
//
//	go test ./internal/store -run '^$' -bench ReportAtAMillion -benchtime 5x
func BenchmarkReportAtAMillion(b *testing.B) {
	for _, be := range backends(b) {
		b.Run(be.name, func(b *testing.B) {
			s := open(b, be.dsn(b))
			ctx := context.Background()
			var batch []Item
			names := []string{"view", "view", "view", "view", "human-candidate", "human-candidate", "engaged", "copy-sketch", "checkout"}
			start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			for i := range 1_000_000 {
				e := event.Event{Name: names[i%len(names)]}
				switch e.Name {
				case "checkout":
					e.Checkout = []string{"gumroad", "site"}[i%2]
				case "copy-sketch":
				default:
					e.Path, e.VisibleMS, e.Scrolled = []string{"/", "/pay/", "/a/"}[i%3], ptr(int64(i%100000)), ptr(i%2 == 0)
					e.Ref = []string{"", "news.ycombinator.com", "google.com", "reddit.com"}[i%4]
					if i%5 == 0 {
						e.Campaign = map[string]string{"utm_source": "s" + string(rune('a'+i%7)), "utm_medium": "m", "utm_campaign": "c" + string(rune('a'+i%3))}
					}
				}
				batch = append(batch, Item{Event: e, At: start.Add(time.Duration(i) * 8640 * time.Millisecond)})
				if len(batch) == 20_000 {
					if _, err := s.Keep(ctx, batch); err != nil {
						b.Fatal(err)
					}
					batch = batch[:0]
				}
			}
			rollupAgrees(b, s, "2026-01-01", "2026-04-10")
			b.ResetTimer()
			for b.Loop() {
				if _, err := s.Counts(ctx, "2026-02-01", "2026-03-02"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkInsertThroughTheHandler is events per second into each
// backend, posted over loopback to the real handler.
func BenchmarkInsertThroughTheHandler(b *testing.B) {
	for _, be := range backends(b) {
		b.Run(be.name, func(b *testing.B) {
			s := open(b, be.dsn(b))
			w := NewWriter(s, nil, 0, func(msg string) { b.Error(msg) })
			defer w.Close()
			srv := httptest.NewServer(&event.Handler{Sink: w.Receive})
			defer srv.Close()
			body := []byte(`{"name":"view","path":"/","visible_ms":1200,"scrolled":true}`)
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					resp, err := http.Post(srv.URL, "text/plain", bytes.NewReader(body))
					if err != nil {
						b.Error(err)
						return
					}
					resp.Body.Close()
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkTenThousandAtOnce is events per second kept through the
// receiver's handler and the one writer when 10,000 POSTs arrive at once:
// into the preview's journal, SQLite and PostgreSQL (through PgBouncer
// when TEST_DATABASE_URL points at it). Each iteration posts 10,000.
//
//	go test ./internal/store -run '^$' -bench TenThousandAtOnce -benchtime 5x
func BenchmarkTenThousandAtOnce(b *testing.B) {
	kinds := []struct {
		name string
		open func(b *testing.B) Keeper
	}{
		{"journal", func(b *testing.B) Keeper {
			j, _, err := OpenJournal(b.TempDir() + "/events.jsonl")
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { j.Close() })
			return j
		}},
	}
	for _, be := range backends(b) {
		kinds = append(kinds, struct {
			name string
			open func(b *testing.B) Keeper
		}{be.name, func(b *testing.B) Keeper { return open(b, be.dsn(b)) }})
	}
	for _, k := range kinds {
		b.Run(k.name, func(b *testing.B) {
			w := NewWriter(k.open(b), nil, 0, func(msg string) { b.Error(msg) })
			defer w.Close()
			srv := httptest.NewServer(&event.Handler{Sink: w.Receive})
			defer srv.Close()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1000, MaxConnsPerHost: 1000}}
			defer client.CloseIdleConnections()
			body := []byte(`{"name":"view","path":"/","visible_ms":1200,"scrolled":true}`)
			var took time.Duration
			for b.Loop() {
				start := time.Now()
				var wg sync.WaitGroup
				var ok atomic.Int64
				for range 10_000 {
					wg.Go(func() {
						resp, err := client.Post(srv.URL, "text/plain", bytes.NewReader(body))
						if err != nil {
							b.Error(err)
							return
						}
						resp.Body.Close()
						if resp.StatusCode == http.StatusNoContent {
							ok.Add(1)
						}
					})
				}
				wg.Wait()
				took += time.Since(start)
				if ok.Load() != 10_000 {
					b.Errorf("%d of 10,000 answered 204", ok.Load())
				}
			}
			b.ReportMetric(float64(10_000*b.N)/took.Seconds(), "events/s")
		})
	}
}

// BenchmarkImport is log lines per second taken by -import, 100,000 lines
// an iteration, into a new store each time.
//
//	go test ./internal/store -run '^$' -bench Import -benchtime 3x
func BenchmarkImport(b *testing.B) {
	var log bytes.Buffer
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 100_000 {
		e := event.Event{Name: "view", Path: []string{"/", "/pay/", "/a/"}[i%3], VisibleMS: ptr(int64(i)), Scrolled: ptr(i%2 == 0)}
		log.Write(e.NotStoredLine(start.Add(time.Duration(i) * 86 * time.Second)))
	}
	for _, be := range backends(b) {
		b.Run(be.name, func(b *testing.B) {
			var took time.Duration
			for b.Loop() {
				s := open(b, be.dsn(b))
				t0 := time.Now()
				res, err := s.ImportLog(context.Background(), bytes.NewReader(log.Bytes()))
				took += time.Since(t0)
				if err != nil || res.Added != 100_000 {
					b.Fatalf("%s, %v", importResult(res), err)
				}
				s.Close()
			}
			b.ReportMetric(float64(100_000*b.N)/took.Seconds(), "lines/s")
		})
	}
}
