// The Netlify function's write path: a database, else the function's log.

package store

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"
)

// FunctionWriter is the production receiver's Writer: it stores each
// event in the store at dsn, opened on first use, one pool per container.
// An event it cannot store (no dsn, no database, a failed insert) goes to
// log as a not-stored JSON line; only when that fails too is it refused
// (503). Errors go to errs, without the event.
func FunctionWriter(dsn string, log, errs io.Writer) *Writer {
	say := func(s string) { fmt.Fprintln(errs, "store:", s) }
	lines := &LogLines{W: log, Name: "the log"}
	if dsn == "" {
		return NewWriter(lines, nil, 2*time.Second, say)
	}
	return NewWriter(&lazy{dsn: dsn}, lines, 2*time.Second, say)
}

// lazy is a store opened on its first batch, and again at most every 30 s
// after a failed open: an outage at a cold start does not last the
// container's life.
type lazy struct {
	dsn   string
	mu    sync.Mutex
	st    *Store
	tried time.Time
	err   error
}

func (l *lazy) String() string {
	if l.st != nil {
		return l.st.String()
	}
	return "the store"
}

func (l *lazy) get() (*Store, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.st != nil {
		return l.st, nil
	}
	if time.Since(l.tried) < 30*time.Second {
		return nil, l.err
	}
	l.tried = time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l.st, l.err = Open(ctx, l.dsn, Options{MaxConns: 2, Timeout: 3 * time.Second})
	return l.st, l.err
}

func (l *lazy) Keep(ctx context.Context, items []Item) (int, error) {
	st, err := l.get()
	if err != nil {
		return 0, err
	}
	return st.Keep(ctx, items)
}
