// Serving the preview, on loopback and only to requests addressed to it:
// the output folder (files.go), the receiver, the reload stream, the report.

package preview

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"errref/internal/event"
	"errref/internal/report"
	"errref/internal/store"
)

// Serve runs the preview at o.Addr until ctx ends.
func Serve(ctx context.Context, o Options) error {
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %v", o.Addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		fmt.Fprintf(o.Log, "WARNING: -addr %s is not a loopback address: anyone who can reach this machine can read the preview and post events to it\n", o.Addr)
	}
	// When the process that started the preview ends (go run killed by
	// SIGTERM, which it passes on to no program; an editor that quit), the
	// preview stops as on Ctrl-C rather than hold its port. Watched from
	// the start: go run may be stopped while the first build runs.
	ppid := os.Getppid()
	parentEnded := watchParent(ppid)
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		if parentEnded(ctx) {
			fmt.Fprintf(o.Log, "the process that started the preview (PID %d) ended: stopping\n", ppid)
			stop()
		}
	}()
	// The port before the build: a port that is taken (often by another
	// preview) leaves the output folder and the store as they were.
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return fmt.Errorf("-addr %s: %w (another preview may be running: stop it, or give -addr another port)", o.Addr, err)
	}
	defer ln.Close()
	o.Addr = ln.Addr().String() // the port the system chose for :0
	s, err := New(o)
	if err != nil {
		return err
	}
	defer s.Close()
	// Serve returns only once the watcher has closed: on Windows its
	// handles on the site's folders keep them from being removed.
	watched := s.Watch(ctx)
	defer func() { stop(); <-watched }()
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second}
	fmt.Fprintf(o.Log, "preview at http://%s/ (Ctrl-C stops it)\n", ln.Addr())
	if s.writer != nil {
		fmt.Fprintf(o.Log, "events are kept in %s; the funnel is at http://%s/_preview/report\n", s.store, ln.Addr())
	}
	context.AfterFunc(ctx, func() {
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	})
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	stop()
	<-watched // a build under way prints its lines before this one
	fmt.Fprintln(o.Log, "preview stopped")
	return nil
}

// hostOnly answers only requests whose Host is the preview's address, or
// localhost, 127.0.0.1 or [::1] with its port: a page using DNS rebinding
// sends its own name, and may neither read the preview nor post events.
func hostOnly(addr string, h http.Handler) http.Handler {
	_, port, _ := net.SplitHostPort(addr)
	hosts := []string{strings.ToLower(addr), "localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !slices.Contains(hosts, strings.ToLower(r.Host)) {
			http.Error(w, "this preview answers only at the address it listens on", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// routes are the preview's pages, all but the report under the site's headers.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	// The report has its own policy, in a meta tag.
	mux.HandleFunc("GET /_preview/report", s.report)
	// Any method: the receiver answers the ones it refuses itself.
	mux.Handle("/api/event", s.siteHeaders(&event.Handler{Sink: s.keepEvent}))
	mux.Handle("GET /_preview/reload.js", s.siteHeaders(http.HandlerFunc(reloadScript)))
	mux.Handle("GET /_preview/events", s.siteHeaders(http.HandlerFunc(s.reloads)))
	mux.Handle("/", s.siteHeaders(http.HandlerFunc(s.file)))
	return mux
}

func reloadScript(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	io.WriteString(w, reloadJS)
}

// report serves go run ./cmd/report -html's page of the last 30 days,
// reloaded every 5 s, so that the author sees it move while clicking.
func (s *Server) report(w http.ResponseWriter, r *http.Request) {
	if s.store == nil {
		http.Error(w, "the preview keeps no events: it was started with -db=none", http.StatusNotFound)
		return
	}
	q, _ := report.Period(time.Now(), 30*24*time.Hour, "", "") // no dates given: it cannot fail
	s.mu.Lock()
	// As cmd/report places them, from the site as served.
	clicks, guides := s.clicks, s.guides
	q.Aliases = s.aliases
	s.mu.Unlock()
	rep, err := report.Load(r.Context(), s.store, q)
	if err == nil {
		rep.NotStored, err = store.NotStoredNote(s.o.Root)
		if clicks != nil {
			rep.Place(clicks, guides)
		}
	}
	var b bytes.Buffer
	if err == nil {
		err = report.HTML(&b, rep)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Refresh", "5")
	w.Write(b.Bytes())
}
