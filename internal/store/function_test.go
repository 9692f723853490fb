package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"errref/internal/event"
)

var at = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

func TestFunctionWriterStoresOrLogsNotStored(t *testing.T) {
	view := event.Event{Name: "view", Path: "/", VisibleMS: ptr[int64](7), Scrolled: ptr(false)}
	for _, tc := range []struct {
		name    string
		dsn     func(t *testing.T) string
		logged  bool
		errText string
	}{
		{"no store configured", func(*testing.T) string { return "" }, true, ""},
		{"database unreachable", func(*testing.T) string { return "postgres://x:y@127.0.0.1:1/none?connect_timeout=1" }, true, "marked not stored"},
		{"stored", func(t *testing.T) string { dsn := pgSchema(t); open(t, dsn).Close(); return dsn }, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log, errs bytes.Buffer
			dsn := tc.dsn(t)
			if err := FunctionWriter(dsn, &log, &errs).Receive(view, at); err != nil {
				t.Fatal(err)
			}
			if tc.logged != (log.Len() > 0) {
				t.Fatalf("log = %q, want logged=%v", log.String(), tc.logged)
			}
			if tc.logged {
				var rec map[string]any
				if err := json.Unmarshal(log.Bytes(), &rec); err != nil || rec["stored"] != false || rec["ts"] != "2026-03-02T10:00:00Z" || rec["name"] != "view" {
					t.Errorf("log line %q: %v", log.String(), err)
				}
			}
			if !strings.Contains(errs.String(), tc.errText) || strings.Contains(errs.String(), `"view"`) {
				t.Errorf("errors: %q", errs.String())
			}
			if !tc.logged {
				s := open(t, dsn)
				if n, _ := s.Total(context.Background()); n != 1 {
					t.Errorf("%d events stored, want 1", n)
				}
			}
		})
	}
	// Neither the store nor the log took it: the caller hears so, and
	// the handler answers 503.
	var errs bytes.Buffer
	if err := FunctionWriter("postgres://x:y@127.0.0.1:1/none?connect_timeout=1", failing{}, &errs).Receive(view, at); err == nil {
		t.Errorf("an event neither stored nor logged was reported kept; errors: %q", errs.String())
	}
	if !strings.Contains(errs.String(), "NOT KEPT") || !strings.Contains(errs.String(), "no space left") {
		t.Errorf("errors: %q", errs.String())
	}
}

func importResult(r ImportResult) string {
	return fmt.Sprintf("added %d, again %d, stored %d, skipped %d, refused %v", r.Added, r.Again, r.Stored, r.Skipped, r.Refused)
}

func TestImportLogTakesEachNotStoredLineOnce(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		line := string(event.Event{Name: "copy-sketch"}.NotStoredLine(at))
		wrapped, _ := json.Marshal(map[string]string{"message": strings.TrimSpace(line), "function": "event"})
		log := strings.Join([]string{
			line,            // the function's stdout
			string(wrapped), // the same line, as netlify logs --json prints it
			`{"ts":"2026-03-02T10:00:01Z","stored":true,"name":"copy-sketch"}`,
			`{"ts":"2026-03-02T10:00:02Z","name":"checkout","checkout":"site"}`, // from before "stored" existed
			`INIT_START Runtime Version: provided:al2023`,
			``,
		}, "\n")
		res, err := s.ImportLog(context.Background(), strings.NewReader(log))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := importResult(res), "added 2, again 1, stored 1, skipped 1, refused []"; got != want {
			t.Errorf("first import: %s, want %s", got, want)
		}
		res, err = s.ImportLog(context.Background(), strings.NewReader(log))
		if got, want := importResult(res), "added 0, again 3, stored 1, skipped 1, refused []"; err != nil || got != want {
			t.Errorf("second import: %s, %v; want %s", got, err, want)
		}
		if n, _ := s.Total(context.Background()); n != 2 {
			t.Errorf("%d events stored, want 2", n)
		}
	})
}

// TestImportTakesWhatTheReceiverTook: an event the receiver took comes back
// from its not-stored line, and from the line as netlify logs --json wraps
// it, each body of the largest size the receiver takes. A campaign's & < and
// > (a URL's utm_content="<b>&…" decoded), written as \u0026, 200 of them
// would be over the receiver's MaxBody; so would a campaign's control
// characters (a stray %0A, sent as \n, U+0085, two bytes, or DEL, one),
// each kept as U+FFFD, three bytes. The import must not refuse an event answered 204.
func TestImportTakesWhatTheReceiverTook(t *testing.T) {
	for _, tc := range []struct{ name, value string }{
		{"& < >", strings.Repeat("<&>", 66)},
		{"control characters", strings.Repeat("\\n\u0085", 100)},
		{"DEL", strings.Repeat("\x7f", 200)}, // %7F, one byte as JSON.stringify sends it
	} {
		body := `{"name":"view","path":"/","visible_ms":1,"scrolled":false,"campaign":{"utm_content":"` + tc.value + `"}}`
		// The largest body taken: MaxBody, or less where the path and the value as kept would pass it.
		var value string
		json.Unmarshal([]byte(`"`+tc.value+`"`), &value)
		body = strings.Replace(body, "/", "/"+strings.Repeat("a", min(event.MaxBody-len(body), event.MaxBody-1-len(event.Marked(value)))), 1)
		e, err := event.Parse([]byte(body))
		if err != nil {
			t.Fatalf("%s: the receiver refuses the %d-byte body: %v", tc.name, len(body), err)
		}
		line := string(e.NotStoredLine(at))
		wrapped, _ := json.Marshal(map[string]string{"message": strings.TrimSpace(line), "function": "event"})
		each(t, func(t *testing.T, dsn string) {
			s := open(t, dsn)
			res, err := s.ImportLog(context.Background(), strings.NewReader(line+string(wrapped)+"\n"))
			if got, want := importResult(res), "added 1, again 1, stored 0, skipped 0, refused []"; err != nil || got != want {
				t.Errorf("%s: import: %s, %v; want %s", tc.name, got, err, want)
			}
		})
	}
}

// TestImportTakesTheReleaseBeforesLines: the release before (c390457),
// still deployed while a publisher upgrades, logged & < > as \u0026,
// \u003c, \u003e. testdata/c390457-not-stored.jsonl is its cmd/event's
// stdout for the two bodies below, each answered 204: the first, 931
// bytes, is 2,911 so written, and -import refused it as over the
// receiver's MaxBody. Each is taken as the event sent, under the key of the
// line this release writes for it, so that neither is counted twice.
func TestImportTakesTheReleaseBeforesLines(t *testing.T) {
	v := strings.Repeat("a&b<c>", 33)
	sent := []string{
		`{"name":"view","path":"/amp/","visible_ms":1,"scrolled":false,"campaign":{"utm_source":"` + v + `","utm_medium":"` + v + `","utm_campaign":"` + v + `","utm_term":"` + v + `"}}`,
		`{"name":"view","path":"/amp/","visible_ms":1,"scrolled":false,"campaign":{"utm_content":"\\u0026 is &"}}`, // a backslash, then u0026
	}
	old, err := os.ReadFile(filepath.Join("testdata", "c390457-not-stored.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var now strings.Builder
	for i, line := range strings.SplitAfter(strings.TrimSpace(string(old)), "\n") {
		var rec struct{ TS time.Time }
		e, err := event.Parse([]byte(sent[i]))
		if err := errors.Join(err, json.Unmarshal([]byte(line), &rec)); err != nil {
			t.Fatal(err)
		}
		now.Write(e.NotStoredLine(rec.TS))
	}
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		res, err := s.ImportLog(context.Background(), bytes.NewReader(old))
		if got, want := importResult(res), "added 2, again 0, stored 0, skipped 0, refused []"; err != nil || got != want {
			t.Errorf("the release before's lines: %s, %v; want %s", got, err, want)
		}
		res, err = s.ImportLog(context.Background(), strings.NewReader(now.String()))
		if got, want := importResult(res), "added 0, again 2, stored 0, skipped 0, refused []"; err != nil || got != want {
			t.Errorf("the same events as this release logs them: %s, %v; want %s", got, err, want)
		}
	})
}

// TestImportTakesAnOlderReleasesCapitalsOnce: releases before c6f8ccb kept a
// ref as sent, Slack's com.Slack among them, and keyed their import of its
// not-stored line by it. testdata/7dbdfd9-not-stored.jsonl is 7dbdfd9's
// cmd/event's stdout for such a view, and 7dbdfd9-imported.txt the key its
// -import stored for that line: importing the line again takes nothing.
func TestImportTakesAnOlderReleasesCapitalsOnce(t *testing.T) {
	line, err := os.ReadFile(filepath.Join("testdata", "7dbdfd9-not-stored.jsonl"))
	key, kerr := os.ReadFile(filepath.Join("testdata", "7dbdfd9-imported.txt"))
	var rec struct{ TS time.Time }
	if err := errors.Join(err, kerr, json.Unmarshal(line, &rec)); err != nil {
		t.Fatal(err)
	}
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		if err := importDbc78ec(context.Background(), s, strings.TrimSpace(string(key)), event.Event{Name: "view", Path: "/pay/", Ref: "com.Slack"}, rec.TS); err != nil {
			t.Fatal(err)
		}
		res, err := s.ImportLog(context.Background(), bytes.NewReader(line))
		if got, want := importResult(res), "added 0, again 1, stored 0, skipped 0, refused []"; err != nil || got != want {
			t.Errorf("7dbdfd9's line, which 7dbdfd9's -import took: %s, %v; want %s", got, err, want)
		}
	})
}

// TestImportRefusesLinesByNumberAndTakesTheRest: a line that is not UTF-8,
// one over MaxLine, one the receiver would refuse and one of UTF-16 are each
// named by number, and every valid line around them is taken.
func TestImportRefusesLinesByNumberAndTakesTheRest(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		ok := func(sec int) string {
			return fmt.Sprintf(`{"ts":"2026-03-02T10:00:%02dZ","stored":false,"name":"copy-sketch"}`, sec)
		}
		log := strings.Join([]string{
			ok(1),
			"{\"ts\":\"2026-03-02T10:00:00Z\",\"name\":\"view\",\"path\":\"/\",\"visible_ms\":1,\"scrolled\":false,\"outreach\":\"a\xffb\"}",
			ok(2),
			`{"ts":"2026-03-02T10:00:00Z","name":"view","path":"/ x"}`,
			ok(3),
			`{"ts":"2026-03-02T10:00:00Z","name":"x","pad":"` + strings.Repeat("a", MaxLine) + `"}`,
			"\x00{\x00\"\x00t\x00s\x00\"\x00:\x00", // a line of a UTF-16 file, after its first
			ok(4),
		}, "\n")
		res, err := s.ImportLog(context.Background(), strings.NewReader(log))
		if err != nil {
			t.Fatal(err)
		}
		if res.Added != 4 {
			t.Errorf("added %d, want the 4 valid lines", res.Added)
		}
		want := []string{"line 2: not UTF-8", "line 4: a \"view\" event carries", "line 6: over 1048576 bytes", "line 7: holds NUL bytes, as UTF-16 does"}
		if len(res.Refused) != len(want) {
			t.Fatalf("refused %v, want %v", res.Refused, want)
		}
		for i, w := range want {
			if !strings.Contains(res.Refused[i].Error(), w) {
				t.Errorf("refused[%d] = %v, want %q", i, res.Refused[i], w)
			}
		}
		var outreach int
		s.db.QueryRow(`SELECT COUNT(*) FROM events WHERE outreach IS NOT NULL`).Scan(&outreach)
		if outreach != 0 {
			t.Errorf("the line that is not UTF-8 was stored")
		}
	})
}

// TestFunctionWriterAfterALostCommit: the connection drops just after
// COMMIT reaches the server, so the commit takes but its answer is lost.
// The event is stored; logged as not stored too, -import would count it
// twice. When the server cannot be asked after (PgBouncer killed, and down
// for longer than the writer asks), the event's fate is unknown: it is
// answered 503 and not logged.
func TestFunctionWriterAfterALostCommit(t *testing.T) {
	for _, tc := range []struct {
		name string
		down bool   // the server cannot be asked whether the commit took
		want string // in Receive's error, "" for none
	}{
		{"asked", false, ""},
		{"cannot be asked", true, "may be stored"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dsn := pgSchema(t)
			open(t, dsn).Close()
			u, err := url.Parse(dsn)
			if err != nil {
				t.Fatal(err)
			}
			u.Host = cutAfterCommit(t, u.Host, tc.down)
			var log, errs bytes.Buffer
			w := FunctionWriter(u.String(), &log, &errs)
			defer w.Close()
			err = w.Receive(event.Event{Name: "copy-sketch"}, at)
			if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Receive: %v, want %q", err, tc.want)
			}
			if n, err := open(t, dsn).Total(context.Background()); n != 1 || log.Len() > 0 {
				t.Errorf("%d events stored (%v), and the log holds %q; want 1 and none (errors: %q)", n, err, log.String(), errs.String())
			}
		})
	}
}

// cutAfterCommit is the address of a proxy to server that closes the first
// connection whose client sends a COMMIT, once it has passed it on, and
// then, when down, takes no connection more (a pooler killed).
func cutAfterCommit(t *testing.T, server string, down bool) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var cut atomic.Bool
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", server)
			if err != nil {
				c.Close()
				continue
			}
			go func() { io.Copy(c, s); c.Close() }()
			go func() {
				defer s.Close()
				defer c.Close()
				buf := make([]byte, 64<<10)
				for {
					n, err := c.Read(buf)
					if _, werr := s.Write(buf[:n]); err != nil || werr != nil {
						return
					}
					if bytes.Contains(bytes.ToLower(buf[:n]), []byte("commit")) && cut.CompareAndSwap(false, true) {
						if down {
							ln.Close()
						}
						return
					}
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// TestImportRefusesALineCutMidFile: netlify logs --json >> log.jsonl run again
// after a full disk cut a line joins the next line to the cut one: it was
// counted as a line without an event, both events lost with exit 0.
func TestImportRefusesALineCutMidFile(t *testing.T) {
	var lines []string
	for i := range 3 {
		b, _ := json.Marshal(map[string]string{"message": strings.TrimSpace(string(event.Event{Name: "copy-sketch"}.NotStoredLine(at.Add(time.Duration(i) * time.Second))))})
		lines = append(lines, string(b)+"\n")
	}
	each(t, func(t *testing.T, dsn string) {
		res, err := open(t, dsn).ImportLog(context.Background(), strings.NewReader(lines[0]+lines[1][:30]+lines[2]))
		if err != nil || res.Added != 1 || res.Skipped != 0 || len(res.Refused) != 1 || res.Refused[0].Line != 2 || !strings.Contains(res.Refused[0].Error(), "cut short") {
			t.Errorf("%s, %v; want line 1 added, line 2 refused as cut short", importResult(res), err)
		}
	})
}

// TestImportRefusesALineWithTextBeforeTheEvent: netlify logs without --json
// prints each line after its level ("INFO {...}"): every event was counted as
// a line without an event, 0 added with exit 0. Each is refused by number.
func TestImportRefusesALineWithTextBeforeTheEvent(t *testing.T) {
	line := string(event.Event{Name: "copy-sketch"}.NotStoredLine(at))
	each(t, func(t *testing.T, dsn string) {
		res, err := open(t, dsn).ImportLog(context.Background(), strings.NewReader("INFO "+line+"INIT_START Runtime Version: provided:al2023\n"))
		if err != nil || res.Added != 0 || res.Skipped != 1 || len(res.Refused) != 1 || res.Refused[0].Line != 1 || !strings.Contains(res.Refused[0].Error(), "--json") {
			t.Errorf("%s, %v; want line 1 refused, naming --json, and line 2 without an event", importResult(res), err)
		}
	})
}

// TestImportRefusesALastLineCutShort: netlify logs --json > log.jsonl on a
// full disk leaves its last line cut, neither an event nor JSON; it was
// counted as a line without an event, its event lost with exit 0. It is
// refused by number, and the whole file, written again, adds just it.
func TestImportRefusesALastLineCutShort(t *testing.T) {
	line := string(event.Event{Name: "copy-sketch"}.NotStoredLine(at))
	last := string(event.Event{Name: "checkout", Checkout: "site"}.NotStoredLine(at.Add(time.Second)))
	wrapped, _ := json.Marshal(map[string]string{"message": strings.TrimSpace(last), "function": "event"})
	for name, whole := range map[string]string{
		"stdout":              line + last,
		"netlify logs --json": line + string(wrapped) + "\n",
	} {
		for _, cut := range []int{len(line) + 9, len(whole) - 3} {
			each(t, func(t *testing.T, dsn string) {
				s := open(t, dsn)
				res, err := s.ImportLog(context.Background(), strings.NewReader(whole[:cut]))
				if err != nil || res.Added != 1 || res.Skipped != 0 || len(res.Refused) != 1 || res.Refused[0].Line != 2 || !strings.Contains(res.Refused[0].Error(), "cut short") {
					t.Errorf("%s cut at %d: %s, %v; want line 1 added, line 2 refused as cut short", name, cut, importResult(res), err)
				}
				res, err = s.ImportLog(context.Background(), strings.NewReader(whole))
				if got, want := importResult(res), "added 1, again 1, stored 0, skipped 0, refused []"; err != nil || got != want {
					t.Errorf("%s whole again: %s, %v; want %s", name, got, err, want)
				}
			})
		}
	}
}
