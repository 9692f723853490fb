// The counter's events: where the preview keeps them (a journal or
// PostgreSQL), and each one received, kept and printed.

package preview

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"errref/internal/event"
	"errref/internal/store"
)

// openEvents opens where the preview keeps events: PostgreSQL, with the
// journal not-stored.jsonl for what it cannot take, or the journal
// events.jsonl. Every event goes through one writer, which answers each
// only once it is kept.
func (s *Server) openEvents() error {
	ev := s.o.Events
	log := func(msg string) { s.logf("events: %s", msg) }
	switch {
	case ev == "":
		return nil
	case store.IsPostgres(ev):
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		st, err := store.Open(ctx, ev, store.Options{})
		cancel()
		if err != nil {
			return fmt.Errorf("the preview's store: %w", err)
		}
		fallback, err := s.journal(filepath.Join(s.o.Root, "not-stored.jsonl"))
		if err != nil {
			st.Close()
			return err
		}
		s.writer, s.store, s.keep = store.NewWriter(st, fallback, 0, log), st, []io.Closer{st, fallback}
	case strings.HasSuffix(ev, ".db") || strings.HasSuffix(ev, ".sqlite"):
		return fmt.Errorf("-db %s: the preview keeps events in a journal of JSON lines (events.jsonl), which go run ./cmd/report takes into events.db; give a .jsonl file, a PostgreSQL URL, or none", ev)
	default:
		j, err := s.journal(ev)
		if err != nil {
			return err
		}
		s.writer, s.store, s.keep = store.NewWriter(j, nil, 0, log), j, []io.Closer{j}
	}
	return nil
}

// keepEvent keeps one event the counter sent, when the preview keeps
// events, and prints it; an event it could not keep is printed as such.
func (s *Server) keepEvent(e event.Event, t time.Time) error {
	if s.writer != nil {
		if err := s.writer.Receive(e, t); err != nil {
			s.logf("NOT KEPT, answered 503: %s: %v", e.Line(t), err)
			return err
		}
	}
	s.logf("%s", e.Line(t))
	return nil
}

func (s *Server) journal(path string) (*store.Journal, error) {
	j, fixed, err := store.OpenJournal(path)
	if err != nil {
		return nil, fmt.Errorf("the preview's journal of events: %w", err)
	}
	if fixed {
		s.logf("%s: removed a last line cut short by a crash (its event was never acknowledged)", path)
	}
	return j, nil
}
