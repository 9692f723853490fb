package store

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"errref/internal/event"
)

// Sink is the production receiver's: it stores each event in the store at
// dsn, opened on first use and kept for the life of the process (one pool
// per function container), each insert under a short timeout. An event
// the store does not take, because there is no dsn, the database cannot
// be reached or the insert fails, goes to log as a JSON line marked not
// stored, so nothing is lost that the log still holds. Errors go to errs,
// without the event.
func Sink(dsn string, log, errs io.Writer) func(event.Event, time.Time) {
	var mu sync.Mutex
	var st *Store
	var tried time.Time
	get := func() *Store {
		mu.Lock()
		defer mu.Unlock()
		// A database that could not be opened is tried again, at most
		// every 30 s: an outage at a cold start does not last the
		// container's life.
		if st != nil || dsn == "" || time.Since(tried) < 30*time.Second {
			return st
		}
		tried = time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s, err := Open(ctx, dsn, Options{MaxConns: 2})
		if err != nil {
			fmt.Fprintf(errs, "store: %v: events go to the log, marked not stored\n", err)
			return nil
		}
		st = s
		return st
	}
	notStored := event.JSONLines(log)
	return func(e event.Event, at time.Time) {
		if s := get(); s != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			err := s.Insert(ctx, e, at)
			cancel()
			if err == nil {
				return
			}
			fmt.Fprintf(errs, "store: %v: the event goes to the log, marked not stored\n", err)
		}
		notStored(e, at)
	}
}
