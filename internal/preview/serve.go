// Serving the preview: Serve listens on loopback, the host guard answers
// only requests addressed to the preview, ServeHTTP routes each request,
// and the output folder is served with netlify.toml's headers.

package preview

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"strings"
	"time"
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
	// Serve returns only once the watcher has closed: on Windows its
	// handles on the site's folders keep them from being removed.
	watched := make(chan struct{})
	defer func() { stop(nil); <-watched }()
	go func() {
		defer close(watched)
		if err := s.Watch(ctx); err != nil {
			s.logf("watch: %v", err)
		}
	}()
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
		s.reloads(w, r)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	s.file(w, r)
}

type headerRule struct {
	For    string            `toml:"for"`
	Values map[string]string `toml:"values"`
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
