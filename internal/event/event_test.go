package event

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"name":"view","path":"/","visible_ms":1,"scrolled":false}`,
		`{"name":"view","path":"/","ref":"a.b","visible_ms":1,"scrolled":true,"campaign":{"utm_source":"x"},"outreach":"y"}`,
		`{"name":"checkout","checkout":"site"}`, `{"name":"copy-sketch"}`, `{"name":"x","name":"y"}`, `[]`, `{"campaign":{"a":{}}}`, `{"name":"view"}{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		e, err := Parse(body)
		if err != nil {
			if strings.Contains(err.Error(), string(body)) && len(body) > 50 {
				t.Errorf("the error echoes the body")
			}
			return
		}
		// A valid event survives a round trip, and its line is one line.
		b, _ := json.Marshal(e)
		if _, err := Parse(b); err != nil {
			t.Errorf("Parse(%s) accepted, its own JSON %s refused: %v", body, b, err)
		}
		if strings.ContainsAny(e.Line(time.Now()), "\n\r") {
			t.Errorf("line breaks in %q", e.Line(time.Now()))
		}
	})
}

// TestLoad posts 20,000 events from 50 goroutines over loopback through the
// shared handler: none may fail, and each is written once, whole.
func TestLoad(t *testing.T) {
	var log bytes.Buffer
	srv := httptest.NewServer(&Handler{Sink: JSONLines(&log)})
	defer srv.Close()
	const workers, each = 50, 400
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				body := fmt.Sprintf(`{"name":"view","path":"/w%d/%d","visible_ms":%d,"scrolled":false}`, w, i, i)
				resp, err := http.Post(srv.URL, "text/plain;charset=UTF-8", strings.NewReader(body))
				if err != nil {
					errs <- err
					return
				}
				resp.Body.Close()
				if resp.StatusCode != 204 {
					errs <- fmt.Errorf("status %d", resp.StatusCode)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	seen := map[string]bool{}
	sc := bufio.NewScanner(&log)
	for sc.Scan() {
		var e struct{ Path string }
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("a torn line: %q", sc.Text())
		}
		if seen[e.Path] {
			t.Fatalf("%s written twice", e.Path)
		}
		seen[e.Path] = true
	}
	if len(seen) != workers*each {
		t.Fatalf("%d lines, want %d", len(seen), workers*each)
	}
	t.Logf("%d events in %v: %.0f events/s; live heap %d KB before, %d KB after", workers*each, elapsed, float64(workers*each)/elapsed.Seconds(), before.HeapAlloc/1024, after.HeapAlloc/1024)
}
