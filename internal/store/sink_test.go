package store

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"errref/internal/event"
)

var at = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

func TestSinkStoresOrLogsNotStored(t *testing.T) {
	view := event.Event{Name: "view", Path: "/", VisibleMS: ptr[int64](7), Scrolled: ptr(false)}
	for _, tc := range []struct {
		name    string
		dsn     func(t *testing.T) string
		logged  bool
		errText string
	}{
		{"no store configured", func(*testing.T) string { return "" }, true, ""},
		{"database unreachable", func(*testing.T) string { return "postgres://x:y@127.0.0.1:1/none?connect_timeout=1" }, true, "marked not stored"},
		{"stored", func(t *testing.T) string { return filepath.Join(t.TempDir(), "events.db") }, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log, errs bytes.Buffer
			dsn := tc.dsn(t)
			Sink(dsn, &log, &errs)(view, at)
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
}

func TestImportLogTakesEachNotStoredLineOnce(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		line := string(event.Event{Name: "copy-sketch"}.JSON(at))
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
		if res != (ImportResult{Added: 2, Again: 1, Stored: 1, Skipped: 1}) {
			t.Errorf("first import: %+v", res)
		}
		res, err = s.ImportLog(context.Background(), strings.NewReader(log))
		if err != nil || res != (ImportResult{Again: 3, Stored: 1, Skipped: 1}) {
			t.Errorf("second import: %+v, %v", res, err)
		}
		if n, _ := s.Total(context.Background()); n != 2 {
			t.Errorf("%d events stored, want 2", n)
		}
		// A line that the receiver would refuse is refused here too.
		if _, err := s.ImportLog(context.Background(), strings.NewReader(`{"ts":"2026-03-02T10:00:00Z","name":"view","path":"/ x"}`)); err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("a bad line: %v", err)
		}
	})
}
