package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// parseCases is the validator's table. FuzzParse starts from these bodies,
// and the corpus it found is kept under testdata/fuzz/FuzzParse.
var parseCases = []struct {
	name, body string
	err        string // empty: valid
}{
	{"view", `{"name":"view","path":"/","visible_ms":1,"scrolled":false}`, ""},
	{"view, every key", `{"name":"view","path":"/","ref":"a.b","visible_ms":1,"scrolled":true,"campaign":{"utm_source":"x"},"outreach":"y"}`, ""},
	{"human-candidate", `{"name":"human-candidate","path":"/pay/","visible_ms":10001,"scrolled":true}`, ""},
	{"checkout", `{"name":"checkout","checkout":"site"}`, ""},
	{"click", `{"name":"copy-sketch"}`, ""},
	{"200 characters", `{"name":"view","path":"/","visible_ms":1,"scrolled":false,"outreach":"` + strings.Repeat("é", 200) + `"}`, ""},
	{"201 characters", `{"name":"view","path":"/","visible_ms":1,"scrolled":false,"outreach":"` + strings.Repeat("x", 201) + `"}`, "outreach is over 200 characters"},
	{"DEL, kept as U+FFFD, over MaxBody", `{"name":"view","path":"/","visible_ms":1,"scrolled":false,"outreach":"` + strings.Repeat("\x7f", 200) + `","campaign":{"utm_source":"` +
		strings.Repeat("\x7f", 200) + `","utm_medium":"` + strings.Repeat("\x7f", 200) + `","utm_campaign":"` + strings.Repeat("\x7f", 200) + `"}}`, "are over 2048 bytes"},
	{"too large", `{"name":"x","y":"` + strings.Repeat("a", MaxBody) + `"}`, fmt.Sprintf("body over %d bytes", MaxBody)},
	{"not JSON", `name=view`, "not a JSON object"},
	{"an array", `[]`, "not a JSON object"},
	{"two objects", `{"name":"view"}{}`, "more than one JSON object"},
	{"repeated key", `{"name":"x","name":"y"}`, `key "name" is repeated`},
	{"unknown name", `{"name":"Bad Name"}`, "name must be"},
	{"unknown key", `{"name":"checkout","checkout":"site","path":"/"}`, `carries no "path"`},
	{"keys of another kind", `{"name":"checkout","ref":"a.b","checkout":"site","path":"/"}`, `carries no "ref"`},
	{"unknown campaign key", `{"name":"view","path":"/","visible_ms":1,"scrolled":false,"campaign":{"utm_x":"1"}}`, "campaign key"},
	{"wrong type", `{"name":"view","path":"/","visible_ms":1.5,"scrolled":false}`, "whole number"},
	{"string for a bool", `{"name":"view","path":"/","visible_ms":1,"scrolled":"no"}`, "scrolled must be true or false"},
	{"negative time", `{"name":"view","path":"/","visible_ms":-1,"scrolled":false}`, "0 or more"},
	{"control character", `{"name":"view","path":"/","visible_ms":1,"scrolled":false,"ref":"a\u0007b"}`, "control character"},
	{"line separator", `{"name":"view","path":"/","visible_ms":1,"scrolled":false,"ref":"a\u2028b"}`, "control character"},
	{"deep nesting", `{"campaign":` + strings.Repeat(`{"a":`, 50) + `1` + strings.Repeat(`}`, 50) + `}`, "campaign key"},
	{"nested object", `{"campaign":{"a":{}}}`, "campaign key"},
	{"path with a query", `{"name":"view","path":"/?a=1","visible_ms":1,"scrolled":false}`, "without query"},
	{"ref not a host", `{"name":"view","path":"/","ref":"http://x/y","visible_ms":1,"scrolled":false}`, "ref must be a host name"},
	{"ref of 200 characters", `{"name":"view","path":"/","ref":"` + strings.Repeat("a.", 100) + `","visible_ms":1,"scrolled":false}`, ""},
	{"ref in capitals", `{"name":"view","path":"/","ref":"News.YCombinator.com","visible_ms":1,"scrolled":false}`, ""},
	{"empty ref", `{"name":"view","path":"/","ref":"","visible_ms":1,"scrolled":false}`, "ref must be a host name"},
	{"misspelt reading event", `{"name":"vew","path":"/","visible_ms":1,"scrolled":false}`, `unknown event "vew" with "path": the events are view, human-candidate, engaged and checkout`},
	{"click name of 64 characters", `{"name":"` + strings.Repeat("a", 64) + `"}`, ""},
	{"click name of 65 characters", `{"name":"` + strings.Repeat("a", 65) + `"}`, "name must be view"},
	{"checkout word", `{"name":"checkout","checkout":"paypal"}`, "gumroad or site"},
	{"reading without time", `{"name":"engaged","path":"/"}`, "carries name, path, visible_ms and scrolled"},
	{"no name", `{}`, "name is missing"},
	{"invalid UTF-8", "{\"name\":\"view\",\"path\":\"/\",\"visible_ms\":1,\"scrolled\":false,\"outreach\":\"a\xffb\"}", "not UTF-8"},
	{"bidi override", `{"name":"copy-\u202eb"}`, "control character"},
	{"bidi isolate, raw", "{\"name\":\"view\",\"path\":\"/\",\"visible_ms\":1,\"scrolled\":false,\"ref\":\"a\u2066.b\"}", "control character"},
	// The page's URL held them: the view counts, each control character kept as U+FFFD.
	{"bidi mark in a campaign", "{\"name\":\"view\",\"path\":\"/\",\"visible_ms\":1,\"scrolled\":false,\"campaign\":{\"utm_campaign\":\"x\u200fy\"}}", ""},
	{"newline in an outreach code", `{"name":"view","path":"/","visible_ms":1,"scrolled":false,"outreach":"a\nb"}`, ""},
	{"path with a space", `{"name":"view","path":"/ visible_ms=999","visible_ms":1,"scrolled":false}`, "URL path"},
	{"path with a quote", `{"name":"view","path":"/\"x","visible_ms":1,"scrolled":false}`, "URL path"},
	{"path not from the root", `{"name":"view","path":"x/","visible_ms":1,"scrolled":false}`, "URL path"},
	{"path percent-encoded", `{"name":"view","path":"/caf%C3%A9/a%20b","visible_ms":1,"scrolled":false}`, ""},
}

// TestLineQuotesValues: no value a page sends can pass for another field
// of the preview's line.
func TestLineQuotesValues(t *testing.T) {
	e, err := Parse([]byte(`{"name":"view","path":"/pay/","ref":"a.b","visible_ms":1,"scrolled":false,"outreach":"x visible_ms=9"}`))
	if err != nil {
		t.Fatal(err)
	}
	got := e.Line(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	want := `03:04:05 view path="/pay/" visible_ms=1 scrolled=false ref="a.b" oc="x visible_ms=9"`
	if got != want {
		t.Errorf("Line = %s\nwant   %s", got, want)
	}
}

func TestParse(t *testing.T) {
	for _, tc := range parseCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.body))
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("Parse(%s): %v, want it accepted", tc.body, err)
			case tc.err != "" && err == nil:
				t.Errorf("Parse(%s) accepted, want %q", tc.body, tc.err)
			case tc.err != "" && !strings.Contains(err.Error(), tc.err):
				t.Errorf("Parse(%s): %v, want %q", tc.body, err, tc.err)
			}
		})
	}
}

// TestTheLargestBodyTheCounterSendsIsTaken: measure.js sends up to five
// campaign values and an outreach code of 200 characters each, and a ref of
// up to 253. A link with long values lost the reader's every event to a
// 400, which the counter drops.
func TestTheLargestBodyTheCounterSendsIsTaken(t *testing.T) {
	v := strings.Repeat("a", MaxValue)
	body := `{"ref":"` + strings.Repeat("a.", 126) + `a","campaign":{"utm_source":"` + v + `","utm_medium":"` + v +
		`","utm_campaign":"` + v + `","utm_term":"` + v + `","utm_content":"` + v + `"},"outreach":"` + v +
		`","name":"human-candidate","path":"/mcp-typescript/keyvalidator-parse/","visible_ms":99999999999,"scrolled":false}`
	if _, err := Parse([]byte(body)); err != nil {
		t.Errorf("a body of %d bytes: %v", len(body), err)
	}
}

// TestAnAndroidAppsRefIsKeptInLowerCase: Chrome on Android gives a page
// opened from an app the referrer android-app://PACKAGE/, whose host, unlike
// a web address's, keeps its case: Slack's is com.Slack. Its reader's events
// count, under the host in lower case, as -ref matches it.
func TestAnAndroidAppsRefIsKeptInLowerCase(t *testing.T) {
	e, err := Parse([]byte(`{"name":"view","path":"/","ref":"com.Slack","visible_ms":1,"scrolled":false}`))
	if err != nil || e.Ref != "com.slack" {
		t.Errorf("ref com.Slack: %q, %v; want it kept as com.slack", e.Ref, err)
	}
}

// TestControlCharactersInAValueAreMarked: a campaign or outreach value keeps
// each control character the page's URL held as U+FFFD, the rest as sent.
func TestControlCharactersInAValueAreMarked(t *testing.T) {
	e, err := Parse([]byte(`{"name":"view","path":"/","visible_ms":1,"scrolled":false,"campaign":{"utm_campaign":"\u05e9\u200f1"},"outreach":"a\nb\u202e"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Campaign["utm_campaign"]; got != "\u05e9\ufffd1" {
		t.Errorf("utm_campaign %q, want %q", got, "\u05e9\ufffd1")
	}
	if *e.Outreach != "a\ufffdb\ufffd" {
		t.Errorf("outreach %q, want %q", *e.Outreach, "a\ufffdb\ufffd")
	}
}

func FuzzParse(f *testing.F) {
	for _, tc := range parseCases {
		f.Add([]byte(tc.body))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		e, err := Parse(body)
		if err != nil {
			// Errors go back to whoever posted and into no log, but even
			// so they stay short and never echo the body.
			if msg := err.Error(); len(msg) > 200 || len(body) > 48 && strings.Contains(msg, string(body)) {
				t.Errorf("error %q echoes the body or runs long", msg)
			}
			return
		}
		if len(body) > MaxBody {
			t.Fatalf("accepted a body of %d bytes", len(body))
		}
		// A valid event survives a round trip through its own log line,
		// and that line is one line.
		line := e.NotStoredLine(time.Unix(0, 0))
		if bytes.Count(line, []byte("\n")) != 1 || line[len(line)-1] != '\n' {
			t.Fatalf("log line %q is not one line", line)
		}
		var back struct {
			TS string `json:"ts"`
			Event
		}
		if err := json.Unmarshal(line, &back); err != nil {
			t.Fatalf("log line %q is not JSON: %v", line, err)
		}
		// Encoded as the log writes it: & < > as themselves, not six bytes each.
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.Encode(back.Event)
		again := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		if _, err := Parse(again); err != nil {
			t.Errorf("Parse(%q) accepted, its own JSON %s refused: %v", body, again, err)
		}
		if strings.ContainsAny(e.Line(time.Now()), "\n\r") {
			t.Errorf("line breaks in %q", e.Line(time.Now()))
		}
	})
}

// checker is a log that holds no lines: it checks each one as it is
// written, whole and once, so that the load test's memory is the
// handler's alone.
type checker struct {
	mu     sync.Mutex
	seen   []bool // by event number
	lines  int
	broken []string
}

func (c *checker) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var e struct{ Path string }
	var n int
	if err := json.Unmarshal(p, &e); err != nil || p[len(p)-1] != '\n' {
		c.broken = append(c.broken, "torn line "+string(p))
	} else if _, err := fmt.Sscanf(e.Path, "/e/%d", &n); err != nil || n < 0 || n >= len(c.seen) {
		c.broken = append(c.broken, "unknown path "+e.Path)
	} else if c.seen[n] {
		c.broken = append(c.broken, e.Path+" written twice")
	} else {
		c.seen[n] = true
	}
	c.lines++
	return len(p), nil
}

// TestLoad posts 100,000 events, 50 goroutines × 2,000, over loopback
// through the shared handler: none may fail, each is written once and
// whole, and the live heap after the last event is no larger than after
// the first tenth, give or take 4 MB.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: 100,000 events through the handler; run without -short")
	}
	const workers, each, warm = 50, 2000, 200
	log := &checker{seen: make([]bool, workers*each)}
	srv := httptest.NewServer(&Handler{Sink: jsonLines(log)})
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
	defer client.CloseIdleConnections()

	post := func(from, to int) {
		var wg sync.WaitGroup
		errs := make(chan error, workers)
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := from; i < to; i++ {
					body := fmt.Sprintf(`{"name":"view","path":"/e/%d","visible_ms":%d,"scrolled":false}`, w*each+i, i)
					resp, err := client.Post(srv.URL, "text/plain;charset=UTF-8", strings.NewReader(body))
					if err != nil {
						errs <- err
						return
					}
					resp.Body.Close()
					if resp.StatusCode != http.StatusNoContent {
						errs <- fmt.Errorf("%s: status %d", body, resp.StatusCode)
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}

	start := time.Now()
	post(0, warm)
	warmHeap := heap()
	post(warm, each)
	elapsed := time.Since(start)
	endHeap := heap()

	for _, b := range log.broken[:min(len(log.broken), 5)] {
		t.Error(b)
	}
	if log.lines != workers*each {
		t.Errorf("%d lines, want %d", log.lines, workers*each)
	}
	if endHeap > warmHeap+4<<20 {
		t.Errorf("live heap grew from %d KB after %d events to %d KB after %d", warmHeap>>10, workers*warm, endHeap>>10, workers*each)
	}
	t.Logf("%d events in %v: %.0f events/s; live heap %d KB after %d events, %d KB after all",
		workers*each, elapsed.Round(time.Millisecond), float64(workers*each)/elapsed.Seconds(), warmHeap>>10, workers*warm, endHeap>>10)
}

// TestNoSilent204: an event the sink did not keep is answered 503, not 204,
// and one it kept is answered only after the sink returned.
func TestNoSilent204(t *testing.T) {
	body := `{"name":"copy-sketch"}`
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"kept", nil, http.StatusNoContent},
		{"not kept", errors.New("disk full"), http.StatusServiceUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			returned := false
			h := &Handler{Sink: func(Event, time.Time) error { returned = true; return tc.err }}
			r := httptest.NewRequest("POST", "/api/event", strings.NewReader(body))
			r.Header.Set("Content-Type", "text/plain")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != tc.want || !returned {
				t.Errorf("status %d (sink returned: %v), want %d", w.Code, returned, tc.want)
			}
			if strings.Contains(w.Body.String(), "disk full") {
				t.Errorf("the page is told the server's reason: %q", w.Body.String())
			}
		})
	}
}

// TestEventsInOneTickGetTwoTimes: on a clock that ticks every 15.6 ms
// (Windows'), two like events in one tick would share a key, and the store
// would keep one; each event is later than the one before.
func TestEventsInOneTickGetTwoTimes(t *testing.T) {
	tick := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	var got []time.Time
	h := &Handler{Sink: func(_ Event, at time.Time) error { got = append(got, at); return nil }, clock: func() time.Time { return tick }}
	for range 3 {
		r := httptest.NewRequest("POST", "/api/event", strings.NewReader(`{"name":"view","path":"/","visible_ms":0,"scrolled":false}`))
		r.Header.Set("Content-Type", "text/plain")
		h.ServeHTTP(httptest.NewRecorder(), r)
	}
	if len(got) != 3 || !got[0].Equal(tick) || !got[1].After(got[0]) || !got[2].After(got[1]) {
		t.Errorf("times %v, want each after the one before, from %v", got, tick)
	}
}

// BenchmarkServeHTTP is the handler's cost for one valid event, without
// the network.
func BenchmarkServeHTTP(b *testing.B) {
	h := &Handler{Sink: func(Event, time.Time) error { return nil }}
	body := `{"name":"view","path":"/","ref":"news.ycombinator.com","visible_ms":10012,"scrolled":true,"campaign":{"utm_source":"hn"}}`
	b.ReportAllocs()
	for b.Loop() {
		r := httptest.NewRequest("POST", "/api/event", strings.NewReader(body))
		r.Header.Set("Content-Type", "text/plain;charset=UTF-8")
		r.Header.Set("Sec-Fetch-Site", "same-origin")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusNoContent {
			b.Fatal(w.Code, w.Body.String())
		}
	}
}

// jsonLines is a sink that writes each event to w as one JSON line, whole,
// even when events arrive at once, and keeps it when the write succeeds.
func jsonLines(w io.Writer) func(Event, time.Time) error {
	var mu sync.Mutex
	return func(e Event, t time.Time) error {
		mu.Lock()
		defer mu.Unlock()
		_, err := w.Write(e.NotStoredLine(t))
		return err
	}
}
