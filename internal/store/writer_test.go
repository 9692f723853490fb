package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"errref/internal/event"
)

// mixed is a day of varied events, for the journal and a store to count.
func mixed() []Item {
	var items []Item
	for i := range 300 {
		e := event.Event{Name: []string{"view", "human-candidate", "engaged", "copy-sketch", "checkout"}[i%5]}
		switch e.Name {
		case "checkout":
			e.Checkout = []string{"gumroad", "site"}[i%2]
		case "copy-sketch":
		default:
			e.Path, e.VisibleMS, e.Scrolled = []string{"/", "/pay/"}[i%2], ptr(int64(i*997)), ptr(i%3 == 0)
			if i%4 == 0 {
				e.Ref = "news.ycombinator.com"
			}
			if i%7 == 0 {
				e.Campaign = map[string]string{"utm_source": "hn", "utm_term": fmt.Sprint(i % 3), "utm_content": "c"}
				e.Outreach = ptr("oc")
			}
		}
		items = append(items, Item{Event: e, At: at.Add(time.Duration(i) * 7 * time.Minute)})
	}
	return items
}

// TestJournalCountsAsTheStoreDoes: the preview's journal answers Counts
// with the rows a store gives for the same events.
func TestJournalCountsAsTheStoreDoes(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		j, _, err := OpenJournal(filepath.Join(t.TempDir(), "events.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		items := mixed()
		ctx := context.Background()
		for _, k := range []Keeper{s, j} {
			if _, err := k.Keep(ctx, items); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range [][2]string{{"2026-03-02", "2026-03-02"}, {"2026-03-01", "2026-03-31"}, {"2026-03-03", "2026-03-03"}} {
			want, err := s.Counts(ctx, p[0], p[1])
			if err != nil {
				t.Fatal(err)
			}
			got, err := j.Counts(ctx, p[0], p[1])
			if err != nil {
				t.Fatal(err)
			}
			if len(want) == 0 || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s..%s: the journal counts\n%v\nthe store\n%v", p[0], p[1], got, want)
			}
		}
		// And the report takes the journal into a store with the same
		// counts.
		other := open(t, filepath.Join(t.TempDir(), "taken.db"))
		f, _ := os.Open(j.String())
		defer f.Close()
		if res, err := other.ImportLog(ctx, f); err != nil || res.Added != len(items) {
			t.Fatalf("taking the journal: %s, %v", importResult(res), err)
		}
		a, _ := other.Counts(ctx, "2026-03-01", "2026-03-31")
		b, _ := s.Counts(ctx, "2026-03-01", "2026-03-31")
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("taken from the journal:\n%v\nstored:\n%v", a, b)
		}
	})
}

// TestJournalDropsALineCutShort: a crash in the middle of a write leaves a
// last line without its end; it was never acknowledged, and the next
// event must not be glued to it.
func TestJournalDropsALineCutShort(t *testing.T) {
	path := filepath.Join(t.TempDir(), "events.jsonl")
	whole := string(event.Event{Name: "copy-sketch"}.NotStoredLine(at))
	os.WriteFile(path, []byte(whole+whole[:20]), 0o644)
	j, fixed, err := OpenJournal(path)
	if err != nil || !fixed {
		t.Fatalf("OpenJournal: fixed %v, %v", fixed, err)
	}
	if _, err := j.Keep(context.Background(), []Item{{Event: event.Event{Name: "checkout", Checkout: "site"}, At: at}}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	cs, err := JournalCounts(path, "2026-03-02", "2026-03-02")
	if err != nil || len(cs) != 2 {
		t.Errorf("counts %v, %v; want one click and one checkout", cs, err)
	}
}

// TestWriterKeepsEveryEventOfAFlood: 10,000 events at once from as many
// goroutines are each kept, in batches, before their callers hear so.
func TestWriterKeepsEveryEventOfAFlood(t *testing.T) {
	each(t, func(t *testing.T, dsn string) {
		s := open(t, dsn)
		// A minute for each batch: on a busy machine one of 2,000 events
		// can take longer than the default 5 s, which this test is not about.
		w := NewWriter(s, nil, time.Minute, func(msg string) { t.Error(msg) })
		var wg sync.WaitGroup
		var mu sync.Mutex
		kept := 0
		for range 10_000 {
			wg.Go(func() {
				if err := w.Receive(event.Event{Name: "copy-sketch"}, at); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				kept++
				mu.Unlock()
			})
		}
		wg.Wait()
		w.Close()
		n, err := s.Total(context.Background())
		if err != nil || n != kept || n != 10_000 {
			t.Errorf("%d stored (%v), %d acknowledged, want 10,000", n, err, kept)
		}
	})
}

type brokenStore struct{}

func (brokenStore) Keep(context.Context, []Item) (int, error) {
	return 0, errors.New("connection refused")
}
func (brokenStore) String() string { return "postgres db:5432/x" }

// TestWriterFallsBackOrRefuses: what the store cannot take goes to the
// not-stored journal; what neither can take is refused, with the reason in
// the log.
func TestWriterFallsBackOrRefuses(t *testing.T) {
	dir := t.TempDir()
	j, _, err := OpenJournal(filepath.Join(dir, "not-stored.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var log []string
	w := NewWriter(brokenStore{}, j, 0, func(m string) { log = append(log, m) })
	if err := w.Receive(event.Event{Name: "copy-sketch"}, at); err != nil {
		t.Errorf("an event the journal kept: %v", err)
	}
	w.Close()
	if cs, _ := JournalCounts(j.String(), "2026-03-02", "2026-03-02"); len(cs) != 1 || cs[0].N != 1 {
		t.Errorf("not-stored journal counts %v, want the event", cs)
	}
	if len(log) != 1 || !strings.Contains(log[0], "connection refused") || !strings.Contains(log[0], "not-stored.jsonl") {
		t.Errorf("log %q", log)
	}

	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full to fill")
	}
	full, _, err := OpenJournal("/dev/full")
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	log = nil
	w = NewWriter(brokenStore{}, full, 0, func(m string) { log = append(log, m) })
	defer w.Close()
	if err := w.Receive(event.Event{Name: "copy-sketch"}, at); err == nil {
		t.Error("an event neither the store nor the journal kept was acknowledged")
	}
	// The write's own error, in the system's words.
	if len(log) != 1 || !strings.Contains(log[0], "NOT KEPT") || !strings.Contains(log[0], "write /dev/full: ") {
		t.Errorf("log %q", log)
	}
}

// TestTakeJournalReadsOnlyNewWholeLines: the report takes the preview's
// journal line by line as it grows, never a line still being written,
// and reads it again from the start when it was replaced.
func TestTakeJournalReadsOnlyNewWholeLines(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "events.db"))
	path := filepath.Join(t.TempDir(), "events.jsonl")
	line := func(sec int) string {
		return string(event.Event{Name: "copy-sketch"}.NotStoredLine(at.Add(time.Duration(sec) * time.Second)))
	}
	ctx := context.Background()
	for _, step := range []struct {
		name, content string
		want          string
	}{
		{"three lines", line(1) + line(2) + line(3), "added 3, again 0"},
		{"nothing new", line(1) + line(2) + line(3), "added 0, again 0"},
		{"two more, one being written", line(1) + line(2) + line(3) + line(4) + line(5) + line(6)[:10], "added 2, again 0"},
		{"the last one whole", line(1) + line(2) + line(3) + line(4) + line(5) + line(6), "added 1, again 0"},
		{"replaced", line(1) + line(7), "added 1, again 1"},
	} {
		if err := os.WriteFile(path, []byte(step.content), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := s.TakeJournal(ctx, path)
		if got := fmt.Sprintf("added %d, again %d", res.Added, res.Again); err != nil || got != step.want || len(res.Refused) > 0 {
			t.Errorf("%s: %s, refused %v, %v; want %s", step.name, got, res.Refused, err, step.want)
		}
	}
	if n, _ := s.Total(ctx); n != 7 {
		t.Errorf("%d events, want 7", n)
	}
}

// TestWriterRefusesAfterClose: an event that arrives while the preview
// stops is refused, not acknowledged, and nothing panics.
func TestWriterRefusesAfterClose(t *testing.T) {
	j, _, err := OpenJournal(filepath.Join(t.TempDir(), "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	w := NewWriter(j, nil, 0, func(string) {})
	w.Close()
	w.Close()
	if err := w.Receive(event.Event{Name: "copy-sketch"}, at); err == nil {
		t.Error("an event added after Close was reported kept")
	}
}

// stuckStore holds every batch until release is closed, whatever its context.
type stuckStore struct{ release chan struct{} }

func (s stuckStore) Keep(context.Context, []Item) (int, error) {
	<-s.release
	return 0, errors.New("released")
}

func (stuckStore) String() string { return "a stuck store" }

// TestWriterRefusesWhenItsQueueStaysFull: with one batch stuck in the store
// and the queue full, Receive gives up after four batch timeouts and says
// why, rather than wait for ever.
func TestWriterRefusesWhenItsQueueStaysFull(t *testing.T) {
	st := stuckStore{release: make(chan struct{})}
	w := NewWriter(st, nil, 10*time.Millisecond, func(string) {})
	// Senders until the queue is full: on a busy machine some give up (after
	// four timeouts) before they are queued, and others take their place.
	var wg sync.WaitGroup
	for len(w.queue) < cap(w.queue) {
		for range cap(w.queue) - len(w.queue) {
			wg.Go(func() { w.Receive(event.Event{Name: "copy-sketch"}, at) })
		}
		time.Sleep(time.Millisecond)
	}
	err := w.Receive(event.Event{Name: "copy-sketch"}, at)
	if !errors.Is(err, context.DeadlineExceeded) || err.Error() != "the event was not kept: context deadline exceeded" {
		t.Errorf("Receive on a full queue: %v", err)
	}
	close(st.release)
	wg.Wait()
	w.Close()
}
