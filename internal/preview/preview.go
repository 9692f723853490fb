// Package preview serves the site on loopback, rebuilds it on every save,
// reloads the browser or shows the failure, and prints each counter event.
package preview

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/BurntSushi/toml"

	"errref/internal/event"
	"errref/internal/report"
	"errref/internal/site"
	"errref/internal/store"
)

// Options configure the preview.
type Options struct {
	Root, Out string
	Addr      string // host:port where Serve listens, which the host check answers at
	Log       io.Writer
	Timeout   time.Duration // site.Options.Timeout
	// Events is where the preview keeps the counter's events: a journal
	// of JSON lines, a PostgreSQL URL, or "" for nowhere. Serve prints it
	// at start: a shell whose DATABASE_URL is production's sends it clicks.
	Events string
}

// Server serves one site folder's preview.
type Server struct {
	o Options
	// The event store's writer, and what the report reads (the store or
	// the journal, which print as where they are); nil without Events.
	writer *store.Writer
	store  report.CountReader
	keep   []io.Closer // closed after the writer: the store, the journals
	last   *site.Site  // the last good build, as written to Out; nil before one
	mark   []byte      // Out's marker as last's write left it (output.Marker)
	warned []string    // the warnings printed last (rebuild runs one at a time)

	headers      atomic.Pointer[[]headerRule] // netlify.toml's, read at each build
	http.Handler                              // the routes, behind the host check

	mu      sync.Mutex      // guards the five below, and the log's lines
	failure string          // the last build's error, or ""
	built   chan struct{}   // closed when a build ends, then replaced: see reloads
	changed map[string]bool // the files saved since the last build took them (site.Options.Changed)
	// The last good build's places of clicks, guides and aliases, for the report (site.Places).
	clicks          map[string][]string
	guides, aliases map[string]string
}

// New returns the server of the site at o.Root, which Watch builds. A
// failed build is shown, not fatal: the author fixes it and saves.
func New(o Options) (*Server, error) {
	s := &Server{o: o, built: make(chan struct{}), changed: map[string]bool{}}
	if err := s.readHeaders(); err != nil {
		return nil, err
	}
	if err := s.openEvents(); err != nil {
		return nil, err
	}
	s.Handler = hostOnly(o.Addr, s.routes())
	return s, nil
}

// readHeaders reads the headers netlify.toml sets, which the preview
// serves as Netlify does; a build reads them again, as it reads the site.
func (s *Server) readHeaders() error {
	var n struct{ Headers []headerRule } // toml matches keys in any case: "headers"
	_, err := toml.DecodeFile(filepath.Join(s.o.Root, "netlify.toml"), &n)
	for i := 0; i < 20 && site.Held(err); i++ { // as site.Build waits
		time.Sleep(100 * time.Millisecond)
		_, err = toml.DecodeFile(filepath.Join(s.o.Root, "netlify.toml"), &n)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("netlify.toml: %w", err)
	}
	s.headers.Store(&n.Headers)
	return nil
}

func (s *Server) logf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.o.Log, format+"\n", args...)
}

// Close keeps the events queued and closes the preview's store.
func (s *Server) Close() {
	if s.writer != nil {
		s.writer.Close()
	}
	for _, c := range s.keep {
		c.Close()
	}
}

// openEvents opens where the preview keeps events: PostgreSQL, with
// not-stored.jsonl for what it cannot take, or a journal.
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
		fallback, err := s.journal(filepath.Join(s.o.Root, store.NotStored))
		if err != nil {
			st.Close()
			return err
		}
		s.writer, s.store, s.keep = store.NewWriter(st, fallback, 0, log), st, []io.Closer{st, fallback}
	case strings.EqualFold(filepath.Ext(ev), ".db") || strings.EqualFold(filepath.Ext(ev), ".sqlite"):
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

// keepEvent prints an event the counter sent, and keeps it if the preview does;
// an event it could not keep is printed as such.
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
