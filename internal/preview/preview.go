// Package preview is the local preview: it builds the site, serves it on
// loopback, rebuilds on every save, reloads the browser over Server-Sent
// Events, shows a failed build in the page and the terminal, and prints
// each event the page's counter sends.
package preview

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/fsnotify/fsnotify"

	"errref/internal/event"
	"errref/internal/output"
	"errref/internal/report"
	"errref/internal/site"
	"errref/internal/store"
)

// Options configure the preview.
type Options struct {
	Root, Out, Addr string
	Log             io.Writer
	Debounce        time.Duration // 30 ms when zero
	Cache           bool          // use the build cache (site.Options.Cache)
	Timeout         time.Duration // site.Options.Timeout
	// Events is where the preview keeps the counter's events: a journal
	// of JSON lines (events.jsonl, which go run ./cmd/report takes into
	// events.db), a PostgreSQL URL, or "" for nowhere. Serve prints it at
	// start: a shell whose DATABASE_URL is production's sends it clicks.
	Events string
}

// Server serves one site folder's preview.
type Server struct {
	o       Options
	headers []headerRule
	recv    *event.Handler
	// The event store's writer, and what the report reads (a
	// report.Source: the PostgreSQL store or the journal); nil without
	// Options.Events.
	writer *store.Writer
	store  interface {
		Counts(ctx context.Context, from, to string) ([]store.Count, error)
	}
	keep    []io.Closer // closed after the writer: the store, the journals
	where   string      // the store, for the terminal
	mu      sync.Mutex
	failure string     // the last build's error, or ""
	last    *site.Site // the last good build, as written to Out; nil before one
	warned  []string   // the warnings printed last (rebuild runs one at a time)

	hosts    map[string]bool // the Host values the preview answers: see Listening
	buildMu  sync.Mutex
	building bool // a build runs
	again    bool // a change came in while it ran: build once more
	subs     map[chan string]bool
	logMu    sync.Mutex
}

type headerRule struct {
	For    string            `toml:"for"`
	Values map[string]string `toml:"values"`
}

// New builds the site once and returns its server. A failed first build is
// shown, not fatal: the author fixes it and saves.
func New(o Options) (*Server, error) {
	if o.Debounce == 0 {
		o.Debounce = 30 * time.Millisecond
	}
	s := &Server{o: o, subs: map[chan string]bool{}}
	var cfg struct {
		Headers []headerRule `toml:"headers"`
	}
	if _, err := toml.DecodeFile(filepath.Join(o.Root, "netlify.toml"), &cfg); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("netlify.toml: %w", err)
	}
	s.headers = cfg.Headers
	if err := s.openEvents(); err != nil {
		return nil, err
	}
	s.recv = &event.Handler{Sink: func(e event.Event, t time.Time) error {
		if s.writer != nil {
			if err := s.writer.Receive(e, t); err != nil {
				s.logf("NOT KEPT, answered 503: %s: %v", e.Line(t), err)
				return err
			}
		}
		s.logf("%s", e.Line(t))
		return nil
	}}
	s.rebuild()
	return s, nil
}

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
		s.writer = store.NewWriter(st, fallback, 0, log)
		s.keep = []io.Closer{st, fallback}
		s.store, s.where = st, st.String()
	case strings.HasSuffix(ev, ".db") || strings.HasSuffix(ev, ".sqlite"):
		return fmt.Errorf("-db %s: the preview keeps events in a journal of JSON lines (events.jsonl), which go run ./cmd/report takes into events.db; give a .jsonl file, a PostgreSQL URL, or none", ev)
	default:
		j, err := s.journal(ev)
		if err != nil {
			return err
		}
		s.writer = store.NewWriter(j, nil, 0, log)
		s.keep = []io.Closer{j}
		s.store, s.where = j, j.String()
	}
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

func (s *Server) logf(format string, args ...any) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.o.Log, format+"\n", args...)
}

// rebuild builds and, when the build is good, writes the output and
// reloads the browsers; when it fails, keeps the last good output and
// shows the error. Only what a save changed is rendered and written: the
// pages whose files changed, or every page when something they all share
// changed (site.Options.Prev says which).
func (s *Server) rebuild() {
	start := time.Now()
	b, err := site.Build(site.Options{FS: os.DirFS(s.o.Root), Prev: s.last, Cache: s.o.Cache, Timeout: s.o.Timeout})
	switch {
	case err != nil:
		// The output is as the last good build left it.
	case s.last == nil:
		// Whole, in one swap; a failure leaves the folder as it was.
		if err = output.Write(s.o.Out, b.Files); err == nil {
			s.last = b
		}
	default:
		if err = output.Update(s.o.Out, s.last.Files, b.Files); err != nil {
			// The folder may hold part of each build: next time, write
			// it whole.
			s.last = nil
		} else {
			s.last = b
		}
	}
	// The terminal hears first, then the page: a test or a person reading
	// both sees the line by the time the page changes.
	msg, failure := "reload", ""
	if err != nil {
		failure = err.Error()
		msg = "failed\n" + failure // an event for the page: its kind, a line break, its data
		s.logf("build failed, still serving the last good site:\n%s", err)
	} else {
		s.logf("%s built %d pages (%d rendered) in %v", time.Now().Format("15:04:05"), len(b.Pages), b.Rendered, time.Since(start).Round(time.Millisecond))
		s.warn(b.Warnings)
	}
	s.mu.Lock()
	s.failure = failure
	for ch := range s.subs {
		select {
		case ch <- msg:
		default:
		}
	}
	s.mu.Unlock()
}

// warn prints a good build's warnings as go run ./cmd/build does, when
// they differ from those printed last: a save that changes none of them
// adds only its "built" line, and one that fixes the last says so.
func (s *Server) warn(warnings []string) {
	if slices.Equal(warnings, s.warned) {
		return
	}
	s.warned = warnings
	if len(warnings) == 0 {
		s.logf("no warnings now: the ones above are fixed")
		return
	}
	for _, w := range warnings {
		s.logf("warning: %s", w)
	}
	s.logf("%d warnings above: the site built, but read them before you publish", len(warnings))
}

// report serves the page go run ./cmd/report -html writes, of the last 30
// days, from the preview's store, reloaded every 5 s, so that the author
// sees it move while clicking through the page in another tab.
func (s *Server) report(w http.ResponseWriter, r *http.Request) {
	if s.store == nil {
		http.Error(w, "the preview keeps no events: it was started with -db=none", http.StatusNotFound)
		return
	}
	now := time.Now()
	from, to, err := report.Period(now, 30*24*time.Hour, "", "")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	rep, err := report.Load(r.Context(), s.store, report.Query{From: from, To: to, Today: report.Today(now)})
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	var b bytes.Buffer
	if err := report.HTML(&b, rep); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Refresh", "5")
	w.Write(b.Bytes())
}

// Close keeps the events queued and closes the preview's store.
func (s *Server) Close() error {
	if s.writer != nil {
		s.writer.Close()
	}
	var errs []error
	for _, c := range s.keep {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// Listening tells the server the address it listens on, host:port. It
// answers requests whose Host is that address, or localhost, 127.0.0.1 or
// [::1] with its port, and refuses all others.
func (s *Server) Listening(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	s.hosts = map[string]bool{strings.ToLower(addr): true}
	for _, h := range []string{"localhost", "127.0.0.1", "[::1]"} {
		s.hosts[h+":"+port] = true
	}
	return nil
}

// kick starts a build without waiting for it, so that the watcher never
// blocks: a build that hangs until its time limit must not keep the next
// save from being seen. One build runs at a time; changes that come in
// while it runs are built once more after it.
func (s *Server) kick() {
	s.buildMu.Lock()
	defer s.buildMu.Unlock()
	if s.building {
		s.again = true
		return
	}
	s.building = true
	go func() {
		for {
			s.rebuild()
			s.buildMu.Lock()
			if !s.again {
				s.building = false
				s.buildMu.Unlock()
				return
			}
			s.again = false
			s.buildMu.Unlock()
		}
	}()
}

// Watch rebuilds on every change below the site's source folders, new
// folders included, until ctx ends.
func (s *Server) Watch(ctx context.Context) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	defer w.Close()
	add := func(dir string) {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				w.Add(p)
			}
			return nil
		})
	}
	for _, d := range []string{site.ContentDir, site.TemplateDir, site.StaticDir, site.MeasureDir} {
		add(filepath.Join(s.o.Root, d))
	}
	w.Add(s.o.Root) // site.toml and netlify.toml
	var timer <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev := <-w.Events:
			if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() && ev.Has(fsnotify.Create) {
				add(ev.Name)
			}
			if filepath.Dir(ev.Name) == filepath.Clean(s.o.Root) && !strings.HasSuffix(ev.Name, ".toml") {
				continue // public/ and its swaps live here
			}
			// Editors write in bursts (a temp file, a rename): wait for quiet.
			timer = time.After(s.o.Debounce)
		case err := <-w.Errors:
			s.logf("watch: %v", err)
		case <-timer:
			timer = nil
			s.kick()
		}
	}
}

const reloadJS = `(function () {
  var es = new EventSource("/_preview/events"), box;
  es.addEventListener("reload", function () { location.reload(); });
  es.addEventListener("failed", function (e) {
    if (!box) {
      box = document.createElement("pre");
      box.setAttribute("role", "alert");
      var s = box.style;
      s.position = "fixed"; s.inset = "0 0 auto 0"; s.zIndex = "2147483647"; s.margin = "0";
      s.padding = "1rem"; s.background = "#7f1d1d"; s.color = "#fff"; s.whiteSpace = "pre-wrap";
      s.maxHeight = "60vh"; s.overflow = "auto"; s.font = "14px/1.4 monospace";
      document.body.appendChild(box);
    }
    box.textContent = "Build failed; this is the last good page.\n\n" + e.data;
  });
})();
`

// ServeHTTP serves the preview: the output folder, the counter's
// receiver, the reload script and its event stream.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.hosts[strings.ToLower(r.Host)] {
		// A page on another site whose name was made to resolve to
		// 127.0.0.1 (DNS rebinding) sends its own name as Host: it may
		// neither read the preview nor post events to it.
		http.Error(w, "this preview answers only at the address it listens on", http.StatusForbidden)
		return
	}
	if r.URL.Path == "/_preview/report" {
		// Not under the site's headers: the report is its own page, with
		// its own policy in a meta tag.
		s.report(w, r)
		return
	}
	s.setHeaders(w, r.URL.Path)
	switch r.URL.Path {
	case "/api/event":
		s.recv.ServeHTTP(w, r)
		return
	case "/_preview/reload.js":
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		io.WriteString(w, reloadJS)
		return
	case "/_preview/events":
		s.events(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	s.file(w, r)
}

func (s *Server) setHeaders(w http.ResponseWriter, p string) {
	for _, h := range s.headers {
		if match(h.For, p) {
			for k, v := range h.Values {
				w.Header().Set(k, v)
			}
		}
	}
}

// match is Netlify's path pattern, as far as netlify.toml uses it: an exact
// path, or * standing for any run of characters.
func match(pattern, p string) bool {
	prefix, suffix, star := strings.Cut(pattern, "*")
	if !star {
		return p == pattern
	}
	return len(p) >= len(prefix)+len(suffix) && strings.HasPrefix(p, prefix) && strings.HasSuffix(p, suffix)
}

// file serves from the output folder through os.Root, which refuses ..
// and links that lead outside it.
func (s *Server) file(w http.ResponseWriter, r *http.Request) {
	name := path.Clean("/" + r.URL.Path)
	if strings.HasSuffix(r.URL.Path, "/") {
		name = path.Join(name, "index.html")
	}
	root, err := os.OpenRoot(s.o.Out)
	if err != nil {
		http.Error(w, "no build yet", http.StatusServiceUnavailable)
		return
	}
	defer root.Close()
	rel := strings.TrimPrefix(name, "/")
	status := http.StatusOK
	data, err := root.ReadFile(rel)
	if err != nil {
		if fi, serr := root.Stat(rel); serr == nil && fi.IsDir() {
			// To the cleaned path: /%2fevil.example/..%2fpay is /pay, and
			// a Location of //evil.example/../pay/ would leave the site.
			http.Redirect(w, r, name+"/", http.StatusMovedPermanently)
			return
		}
		status, rel = http.StatusNotFound, "404.html"
		if data, err = root.ReadFile(rel); err != nil {
			http.NotFound(w, r)
			return
		}
	}
	ct := mime.TypeByExtension(path.Ext(rel))
	if strings.HasSuffix(rel, ".html") {
		ct = "text/html; charset=utf-8"
		// The reload script goes in at serving time, as an external file:
		// the build's output never holds it, and the CSP still holds.
		data = bytes.Replace(data, []byte("</head>"), []byte(`<script src="/_preview/reload.js" defer></script></head>`), 1)
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(data)
	}
}

func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ch := make(chan string, 4)
	s.mu.Lock()
	s.subs[ch] = true
	failure := s.failure
	s.mu.Unlock()
	defer func() { s.mu.Lock(); delete(s.subs, ch); s.mu.Unlock() }()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	send := func(msg string) {
		kind, data, _ := strings.Cut(msg, "\n")
		fmt.Fprintf(w, "event: %s\n", kind)
		for _, line := range strings.Split(data, "\n") {
			fmt.Fprintf(w, "data: %s\n", line)
		}
		fmt.Fprint(w, "\n")
		fl.Flush()
	}
	fmt.Fprint(w, ": connected\n\n")
	fl.Flush()
	if failure != "" {
		send("failed\n" + failure)
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case msg := <-ch:
			send(msg)
		}
	}
}

// Serve runs the preview at o.Addr until ctx ends.
func Serve(ctx context.Context, o Options) error {
	host, _, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %v", o.Addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		fmt.Fprintf(o.Log, "WARNING: -addr %s is not a loopback address: anyone who can reach this machine can read the preview and post events to it\n", o.Addr)
	}
	// Watched from the start: go run may be stopped while the first
	// build runs.
	parentEnded := watchParent()
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	go func() {
		if err := parentEnded(ctx); err != nil {
			stop(err)
		}
	}()
	// The port before the build: a port that is taken (often by another
	// preview) leaves the output folder and the store as they were.
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return fmt.Errorf("-addr %s: %w (another preview may be running: stop it, or give -addr another port)", o.Addr, err)
	}
	defer ln.Close()
	s, err := New(o)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := s.Listening(ln.Addr().String()); err != nil {
		return err
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second}
	fmt.Fprintf(o.Log, "preview at http://%s/ (Ctrl-C stops it)\n", ln.Addr())
	if s.writer != nil {
		fmt.Fprintf(o.Log, "events are kept in %s; the funnel is at http://%s/_preview/report\n", s.where, ln.Addr())
	}
	go s.Watch(ctx)
	go func() {
		<-ctx.Done()
		if err := context.Cause(ctx); errors.As(err, new(*parentEndedError)) {
			fmt.Fprintf(o.Log, "%v: stopping\n", err)
		}
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(o.Log, "preview stopped")
	return nil
}
