// Receiving events over HTTP.

package event

import (
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Handler serves POST /api/event. Each valid event goes to Sink with the time
// it arrived, and is answered 204 once Sink kept it, else 503. It reads no
// cookie, sets none, and keeps no header.
type Handler struct {
	Sink func(Event, time.Time) error

	mu    sync.Mutex
	last  time.Time        // the last event's time: see now
	clock func() time.Time // time.Now, or a test's
}

// now is the time an event arrived, after the last one's by a nanosecond at
// least: a stored event's key is its time and fields, and on Windows Go's wall
// clock moves only at the system's timer tick (runtime/time_windows_amd64.s at
// go1.26.8 reads KUSER_SHARED_DATA's SystemTime), within which two tabs one
// save reloads send the same view.
func (h *Handler) now() time.Time {
	clock := time.Now
	if h.clock != nil {
		clock = h.clock
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	t := clock().Round(0) // the wall clock's, which the key holds
	if !t.After(h.last) {
		t = h.last.Add(time.Nanosecond)
	}
	h.last = t
	return t
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		http.Error(w, "only POST", http.StatusMethodNotAllowed)
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || (mt != "text/plain" && mt != "application/json") {
		http.Error(w, "content type must be text/plain or application/json", http.StatusUnsupportedMediaType)
		return
	}
	// Only this site's pages may post. A fetch with referrerPolicy no-referrer
	// sends Origin: null; Sec-Fetch-Site, which script cannot set, tells same-origin apart.
	s, o := r.Header.Get("Sec-Fetch-Site"), r.Header.Get("Origin")
	if s != "" && s != "same-origin" || o != "" && o != "null" && !sameHost(o, r.Host) {
		http.Error(w, "cross-origin events are refused", http.StatusForbidden)
		return
	}
	// Parse refuses a body over MaxBody, so one byte more is enough to read.
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	if err != nil {
		http.Error(w, "cannot read body", http.StatusBadRequest)
		return
	}
	e, err := Parse(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := h.Sink(e, h.now()); err != nil {
		// The reason is the server's (its log has it): the page is told only that.
		http.Error(w, "the event could not be kept", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func sameHost(origin, host string) bool {
	_, rest, ok := strings.Cut(origin, "://")
	return ok && strings.EqualFold(rest, host)
}
