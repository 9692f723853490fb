// The one write path of the preview and the function: events from any
// number of goroutines, kept in batches, each answered once kept.

package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"errref/internal/event"
)

// Keeper keeps batches of events, all or none of each: a Store, a Journal, or the log.
type Keeper interface {
	Keep(ctx context.Context, items []Item) (int, error)
}

// Writer keeps events from any number of goroutines, one transaction (or fsync)
// a batch, answering each once kept; a batch the store refuses goes to the
// fallback, not-stored lines -import reads: no event is acknowledged that
// nothing kept.
type Writer struct {
	to, fallback Keeper // fallback may be nil; messages name it by its String method
	log          func(string)
	timeout      time.Duration
	queue        chan request
	done         chan struct{}
	mu           sync.RWMutex // read-held by each caller until answered, held to close queue
	closed       bool
}

type request struct {
	item Item
	kept chan error
}

// MaxBatch is the most events one batch holds.
const MaxBatch = 2000

// NewWriter starts a writer that keeps events in to, else in fallback; log hears each failure,
// without the events. Each batch has timeout to be kept (5 s when zero).
func NewWriter(to, fallback Keeper, timeout time.Duration, log func(string)) *Writer {
	w := &Writer{to: to, fallback: fallback, log: log, timeout: cmp.Or(timeout, 5*time.Second),
		queue: make(chan request, 4*MaxBatch), done: make(chan struct{})}
	go w.run()
	return w
}

// Receive keeps e, received at at, and returns once the store or the fallback holds it, else
// why neither does. It waits at most four batch timeouts to queue e (Sink takes no context).
func (w *Writer) Receive(e event.Event, at time.Time) error {
	r := request{item: Item{Event: e, At: at}, kept: make(chan error, 1)}
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.closed {
		return errors.New("the event was not kept: the writer is closed")
	}
	select {
	case w.queue <- r:
		// Once queued, the writer answers whatever the caller does.
		return <-r.kept
	case <-time.After(4 * w.timeout):
		return fmt.Errorf("the event was not kept: %w", context.DeadlineExceeded)
	}
}

// Close keeps what is queued and stops the writer; an event added after it is refused.
func (w *Writer) Close() {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		close(w.queue)
	}
	w.mu.Unlock()
	<-w.done
}

func (w *Writer) run() {
	defer close(w.done)
	batch := make([]request, 0, MaxBatch)
	for r := range w.queue {
		batch = append(batch[:0], r)
		// run is the queue's one reader: what len counts is there to take.
		for len(batch) < MaxBatch && len(w.queue) > 0 {
			batch = append(batch, <-w.queue)
		}
		err := w.keep(batch)
		for _, r := range batch {
			r.kept <- err
		}
	}
}

func (w *Writer) keep(batch []request) error {
	items := make([]Item, len(batch))
	for i, r := range batch {
		items[i] = r.item
	}
	ctx, cancel := context.WithTimeout(context.Background(), w.timeout)
	_, err := w.to.Keep(ctx, items)
	cancel()
	if err == nil {
		return nil
	}
	if w.fallback == nil || errors.Is(err, errFateUnknown) {
		w.log(fmt.Sprintf("NOT KEPT: %d events: %v", len(items), err))
		return err
	}
	ctx, cancel = context.WithTimeout(context.Background(), w.timeout)
	defer cancel()
	if _, ferr := w.fallback.Keep(ctx, items); ferr != nil {
		w.log(fmt.Sprintf("NOT KEPT: %d events: %v; and %s: %v", len(items), err, w.fallback, ferr))
		return errors.Join(err, ferr)
	}
	w.log(fmt.Sprintf("%v: %d events went to %s, marked not stored", err, len(items), w.fallback))
	return nil
}

// logLines keeps events as not-stored JSON lines on w, the function's log
// (Netlify keeps its stdout), which -import reads; only its writer's goroutine calls it.
type logLines struct{ w io.Writer }

func (l logLines) String() string { return "the log" }

func (l logLines) Keep(_ context.Context, items []Item) (int, error) {
	if _, err := l.w.Write(jsonLines(items)); err != nil {
		return 0, err
	}
	return len(items), nil
}

// jsonLines is items as not-stored lines, one each.
func jsonLines(items []Item) []byte {
	var b []byte
	for _, it := range items {
		b = append(b, it.Event.NotStoredLine(it.At)...)
	}
	return b
}

// FunctionWriter is the production receiver's Writer: each event goes to the
// store at dsn, opened on first use (one pool a container), else to log as a
// not-stored line (503 if both fail). Errors go to errs, without the event.
func FunctionWriter(dsn string, log, errs io.Writer) *Writer {
	say := func(s string) { fmt.Fprintln(errs, "store:", s) }
	lines := logLines{log}
	if dsn == "" {
		return NewWriter(lines, nil, 2*time.Second, say)
	}
	return NewWriter(&lazy{dsn: dsn}, lines, 2*time.Second, say)
}

// lazy is a store opened on its first batch, and again at most every 30 s after a failed open:
// an outage at a cold start does not last the container's life. Only its writer calls it.
type lazy struct {
	dsn   string
	st    *Store
	tried time.Time
	err   error
}

func (l *lazy) Keep(ctx context.Context, items []Item) (int, error) {
	if l.st == nil && time.Since(l.tried) >= 30*time.Second {
		l.tried = time.Now()
		octx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		l.st, l.err = Open(octx, l.dsn, Options{MaxConns: 2, Timeout: 3 * time.Second})
		cancel()
	}
	if l.st == nil {
		return 0, l.err
	}
	return l.st.Keep(ctx, items)
}
