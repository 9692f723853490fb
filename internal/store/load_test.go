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
		t.Skip("100,000 events: not with -short")
	}
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		h := &event.Handler{Sink: func(e event.Event, at time.Time) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := s.Insert(ctx, e, at); err != nil {
				t.Error(err)
			}
		}}
		srv := httptest.NewServer(h)
		defer srv.Close()
		const workers, each = 50, 2000
		body := []byte(`{"name":"view","path":"/","visible_ms":1200,"scrolled":true,"ref":"news.ycombinator.com","campaign":{"utm_source":"hn"}}`)
		var ok atomic.Int64
		var heapAt10k uint64
		var once sync.Once
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
		start := time.Now()
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for range each {
					req, _ := http.NewRequest("POST", srv.URL, bytes.NewReader(body))
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
