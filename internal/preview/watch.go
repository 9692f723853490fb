// Watching the site: a save starts a build, and the browsers reload, or
// show the failure, over Server-Sent Events.

package preview

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"

	"errref/internal/output"
	"errref/internal/site"
)

// Watch builds the site, then again on every change to its source folders
// and .toml files until ctx ends. It returns after the first build, with a
// channel closed once the watcher has closed and no build is under way.
func (s *Server) Watch(ctx context.Context) <-chan struct{} {
	closed := make(chan struct{})
	w, err := fsnotify.NewWatcher()
	if err != nil {
		s.logf("watch: %v", err)
		s.rebuild()
		close(closed)
		return closed
	}
	// Adds in flight: the watcher is closed only once none is, as fsnotify on
	// Windows strands an Add that a Close overtakes (the preview never ends).
	var mu sync.Mutex
	var adding sync.WaitGroup
	var stopping atomic.Bool
	track := func(f func()) {
		mu.Lock()
		if stopping.Load() {
			mu.Unlock()
			return
		}
		adding.Add(1)
		mu.Unlock()
		defer adding.Done()
		f()
	}
	// add watches each of dirs, named in the site's root, and its folders.
	add := func(dirs ...string) {
		track(func() {
			for _, dir := range dirs {
				filepath.WalkDir(filepath.Join(s.o.Root, dir), func(p string, d fs.DirEntry, err error) error {
					if stopping.Load() {
						return filepath.SkipAll // the preview is ending: one Add at most to wait for
					}
					if err == nil && d.IsDir() {
						w.Add(p)
					}
					return nil
				})
			}
		})
	}
	// Builds run one at a time apart from the watcher, so that a hung build
	// never hides the next save, which is built after it.
	builds, built := make(chan struct{}, 1), make(chan struct{})
	// The loop takes events from the start and never waits on an Add:
	// fsnotify on Windows answers Add on the goroutine that hands over the
	// events, only between two, so a loop inside Add while events wait
	// would wait for good, and no save would build again.
	go func() {
		defer close(closed)
		defer func() { <-built }() // a build under way still writes the output folder
		defer w.Close()
		defer close(builds)
		var timer <-chan time.Time
		folders := false // a folder was made or moved in since the last build
		for {
			select {
			case <-ctx.Done():
				mu.Lock()
				stopping.Store(true)
				mu.Unlock()
				added := make(chan struct{})
				go func() { adding.Wait(); close(added) }()
				for {
					select { // an Add waits for these to be taken
					case <-w.Events:
					case <-w.Errors:
					case <-added:
						return
					}
				}
			case ev := <-w.Events:
				rel, err := filepath.Rel(s.o.Root, ev.Name)
				if rel = filepath.ToSlash(rel); err != nil || !source(rel) {
					continue // public/ and its swaps (.public.new-*) live in the root
				}
				if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() && ev.Has(fsnotify.Create) {
					folders = true
					go add(rel) // a new folder, a hidden one too: static/.well-known/ is published
				} else if site.Ignored(filepath.Base(rel)) {
					continue // an editor's temp or lock file, which the build skips: the save's rename builds
				}
				s.mu.Lock()
				s.changed[rel] = true
				s.mu.Unlock()
				// Editors write in bursts (a temp file, a rename) a few
				// milliseconds long: wait for quiet. A longer burst costs
				// a second build, never a wrong one: its last event builds.
				timer = time.After(10 * time.Millisecond)
			case err := <-w.Errors:
				s.logf("watch: %v", err)
			case <-timer:
				timer = nil
				if folders {
					// Again, once the burst is over: a folder renamed keeps its
					// watch, which fsnotify drops on the move (IN_MOVE_SELF)
					// after the new name may have taken it.
					go add(site.SourceDirs()...)
					folders = false
				}
				select {
				case builds <- struct{}{}:
				default: // one is waiting already
				}
			}
		}
	}()
	add(site.SourceDirs()...)
	track(func() { w.Add(s.o.Root) }) // site.toml, netlify.toml, and a source folder made later
	s.rebuild()
	go func() {
		for range builds {
			if ctx.Err() == nil { // a save queued before Ctrl-C is not built after it
				s.rebuild()
			}
		}
		close(built)
	}()
	return closed
}

// source reports whether rel, a path in the site's root, is the author's.
func source(rel string) bool {
	top, _, _ := strings.Cut(rel, "/")
	return slices.Contains(site.SourceDirs(), top) || top == rel && strings.HasSuffix(rel, ".toml")
}

// rebuild builds what the saves changed (site.Options.Prev) and reloads
// the browsers; a failed build's error is shown over the last good output.
func (s *Server) rebuild() {
	start := time.Now()
	s.mu.Lock()
	changed := s.changed
	s.changed = map[string]bool{}
	s.mu.Unlock()
	b, err := site.Build(site.Options{FS: os.DirFS(s.o.Root), Prev: s.last, Changed: changed, Timeout: s.o.Timeout})
	if err == nil {
		err = s.readHeaders()
	}
	kept := ", still serving the last good site"
	if s.last == nil { // none yet, or a write cut short (said below)
		kept = ""
	}
	if _, serr := os.Stat(s.o.Root); serr != nil { // the output folder gone with it: no file of it is to blame
		kept, err = "", fmt.Errorf("%s: no site folder now: was it renamed or removed? Stop the preview (Ctrl-C) and start it where the site is now", s.o.Root)
	}
	if err != nil {
		// Still changed since s.last, which the next build starts from.
		s.mu.Lock()
		maps.Copy(s.changed, changed)
		s.mu.Unlock()
	} else {
		// Whole, in one swap, the first time and when another build
		// (go run ./cmd/build beside the preview) has replaced the folder
		// since; a failure leaves the folder as it was.
		if m, _ := os.ReadFile(filepath.Join(s.o.Out, output.Marker)); s.last == nil || len(m) == 0 || !bytes.Equal(m, s.mark) {
			err = output.Write(s.o.Out, b.Files)
		} else if err = output.Update(s.o.Out, s.last.Files, b.Files); err != nil {
			kept = ""
			err = fmt.Errorf("%w\n%s may hold part of this build beside the last: the next save writes it whole", err, s.o.Out)
		}
		// After a failure the folder may hold part of each build: next time, write it whole.
		s.last = nil
		if err == nil {
			s.last = b
			s.mark, _ = os.ReadFile(filepath.Join(s.o.Out, output.Marker))
		}
	}
	// The terminal hears first, then the page: a test or a person reading
	// both sees the line by the time the page changes.
	failure := ""
	if err != nil {
		failure = err.Error()
		s.logf("build failed%s:\n%s", kept, err)
	} else {
		s.logf("%s built %d pages (%d rendered) in %v", time.Now().Format("15:04:05"), len(b.Pages), b.Rendered, time.Since(start).Round(time.Millisecond))
		s.warn(b.Warnings)
	}
	s.mu.Lock()
	s.failure = failure
	if err == nil {
		s.clicks, s.guides, s.aliases = b.Places()
	}
	close(s.built)
	s.built = make(chan struct{})
	s.mu.Unlock()
}

// warn prints a good build's warnings as go run ./cmd/build does, when changed.
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

//go:embed reload.js
var reloadJS string // reloads the page on a good build, shows a failed one's error

// reloads streams each build's outcome to a page as Server-Sent Events:
// reload, or failed with the error, told at once to a page connecting after.
func (s *Server) reloads(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprint(w, ": connected\n\n")
	for first := true; ; first = false {
		s.mu.Lock()
		failure, built := s.failure, s.built
		s.mu.Unlock()
		if !first || failure != "" {
			if failure == "" {
				fmt.Fprint(w, "event: reload\n")
			} else {
				fmt.Fprint(w, "event: failed\n")
			}
			for _, line := range strings.Split(failure, "\n") {
				fmt.Fprintf(w, "data: %s\n", line)
			}
			fmt.Fprint(w, "\n")
		}
		rc.Flush()
		select {
		case <-r.Context().Done():
			return
		case <-built:
		}
	}
}
