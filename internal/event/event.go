// Package event receives the counter's events: it validates a POST to
// /api/event against the contract (measure-protocol.md §3, §6) and hands
// each valid event to a sink. The local preview and the production
// function share this one handler, so there is one validation path.
package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// MaxBody is the largest body accepted, in bytes.
const MaxBody = 1024

// MaxValue is the longest campaign or outreach value, in characters.
const MaxValue = 200

// Reading is the name of one of the three reading events.
var Reading = []string{"view", "human-candidate", "engaged"}

// CampaignKeys are the campaign parameters the counter picks up.
var CampaignKeys = []string{"utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"}

// nameRE and hostRE leave the length to isName and isHost: a counted
// repeat ({1,253}) compiles to as many copies of its class, and compiling
// them took 0.34 ms at the start of every command that links this
// package (0.02 ms now).
var (
	nameRE = regexp.MustCompile(`^[a-z0-9-]+$`)
	hostRE = regexp.MustCompile(`^[A-Za-z0-9.:\[\]_-]+$`)
	// pathRE is location.pathname as a browser serializes it: ASCII, with
	// spaces, quotes, < > and anything outside it percent-encoded.
	pathRE = regexp.MustCompile(`^/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$`)
)

// Event is one valid event. Only the fields its kind carries are set.
type Event struct {
	Name      string            `json:"name"`
	Path      string            `json:"path,omitempty"`
	Ref       string            `json:"ref,omitempty"`
	VisibleMS *int64            `json:"visible_ms,omitempty"`
	Scrolled  *bool             `json:"scrolled,omitempty"`
	Campaign  map[string]string `json:"campaign,omitempty"`
	Outreach  *string           `json:"outreach,omitempty"`
	Checkout  string            `json:"checkout,omitempty"`
}

// Parse validates one body. Its errors are short, safe to show, and never
// echo the body.
func Parse(body []byte) (Event, error) {
	var e Event
	if len(body) > MaxBody {
		return e, fmt.Errorf("body over %d bytes", MaxBody)
	}
	// encoding/json would replace invalid bytes without a word; a browser
	// never sends them.
	if !utf8.Valid(body) {
		return e, errors.New("body is not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return e, errors.New("body is not a JSON object")
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return e, errors.New("body is not valid JSON")
		}
		key := tok.(string)
		if seen[key] {
			return e, fmt.Errorf("key %q is repeated", safe(key))
		}
		seen[key] = true
		if err := e.field(dec, key); err != nil {
			return e, err
		}
	}
	if _, err := dec.Token(); err != nil {
		return e, errors.New("body is not valid JSON")
	}
	if _, err := dec.Token(); err != io.EOF {
		return e, errors.New("body holds more than one JSON object")
	}
	return e, e.check(seen)
}

func (e *Event) field(dec *json.Decoder, key string) error {
	switch key {
	case "name", "path", "ref", "checkout", "outreach":
		s, err := str(dec, key)
		if err != nil {
			return err
		}
		switch key {
		case "name":
			e.Name = s
		case "path":
			e.Path = s
		case "ref":
			e.Ref = s
		case "checkout":
			e.Checkout = s
		case "outreach":
			e.Outreach = &s
		}
	case "visible_ms":
		tok, err := dec.Token()
		n, ok := tok.(json.Number)
		if err != nil || !ok {
			return errors.New("visible_ms must be a whole number")
		}
		v, err := n.Int64()
		if err != nil || v < 0 || v > 1e11 {
			return errors.New("visible_ms must be a whole number of milliseconds, 0 or more")
		}
		e.VisibleMS = &v
	case "scrolled":
		tok, err := dec.Token()
		b, ok := tok.(bool)
		if err != nil || !ok {
			return errors.New("scrolled must be true or false")
		}
		e.Scrolled = &b
	case "campaign":
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			return errors.New("campaign must be an object of strings")
		}
		e.Campaign = map[string]string{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return errors.New("body is not valid JSON")
			}
			k := tok.(string)
			if !slices.Contains(CampaignKeys, k) {
				return fmt.Errorf("campaign key %q is not one of %s", safe(k), strings.Join(CampaignKeys, ", "))
			}
			if _, dup := e.Campaign[k]; dup {
				return fmt.Errorf("campaign key %q is repeated", k)
			}
			v, err := str(dec, "campaign."+k)
			if err != nil {
				return err
			}
			e.Campaign[k] = v
		}
		if _, err := dec.Token(); err != nil {
			return errors.New("body is not valid JSON")
		}
		if len(e.Campaign) == 0 {
			return errors.New("campaign is sent only with at least one key")
		}
	default:
		return fmt.Errorf("unknown key %q", safe(key))
	}
	return nil
}

// str reads a string value: no control characters, at most MaxValue
// characters.
func str(dec *json.Decoder, key string) (string, error) {
	tok, err := dec.Token()
	s, ok := tok.(string)
	if err != nil || !ok {
		return "", fmt.Errorf("%s must be a string", key)
	}
	if len([]rune(s)) > MaxValue && key != "path" {
		return "", fmt.Errorf("%s is over %d characters", key, MaxValue)
	}
	for _, r := range s {
		// Bidi controls (U+202E and the like) would reorder what the
		// terminal or a log viewer shows around them.
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r) {
			return "", fmt.Errorf("%s holds a control character", key)
		}
	}
	return s, nil
}

// check holds the keys of each kind of event to the contract.
func (e *Event) check(seen map[string]bool) error {
	allowed := func(keys ...string) error {
		for k := range seen {
			if !slices.Contains(keys, k) {
				return fmt.Errorf("a %q event carries no %q", e.Name, k)
			}
		}
		return nil
	}
	switch {
	case e.Name == "":
		return errors.New("name is missing")
	case slices.Contains(Reading, e.Name):
		if e.Path == "" || e.VisibleMS == nil || e.Scrolled == nil {
			return fmt.Errorf("a %q event carries name, path, visible_ms and scrolled", e.Name)
		}
		if !pathRE.MatchString(e.Path) {
			return errors.New("path must be a URL path as a browser writes it, without query or fragment")
		}
		if seen["ref"] && !isHost(e.Ref) {
			return errors.New("ref must be a host name")
		}
		return allowed("name", "path", "ref", "visible_ms", "scrolled", "campaign", "outreach")
	case e.Name == "checkout":
		if e.Checkout != "gumroad" && e.Checkout != "site" {
			return errors.New("checkout must be gumroad or site")
		}
		return allowed("name", "checkout")
	case isName(e.Name):
		return allowed("name")
	}
	return errors.New("name must be view, human-candidate, engaged, checkout, or a click name of lowercase letters, digits and -")
}

// isName and isHost count bytes, which are characters in their ASCII
// classes.
func isName(s string) bool { return len(s) <= 64 && nameRE.MatchString(s) }
func isHost(s string) bool { return len(s) <= 253 && hostRE.MatchString(s) }

func safe(s string) string {
	if len(s) > 40 {
		s = s[:40]
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '?'
		}
		return r
	}, s)
}

// Line is the event as one readable line, for the preview's terminal:
// "14:03:07 human-candidate / visible_ms=10012 scrolled=true ref=news.ycombinator.com".
func (e Event) Line(t time.Time) string {
	var b strings.Builder
	// Every value a page sends is quoted, so that none can pass for
	// another field.
	b.WriteString(t.Format("15:04:05") + " " + e.Name)
	if e.Path != "" {
		fmt.Fprintf(&b, " path=%q", e.Path)
	}
	if e.VisibleMS != nil {
		fmt.Fprintf(&b, " visible_ms=%d scrolled=%t", *e.VisibleMS, *e.Scrolled)
	}
	if e.Ref != "" {
		fmt.Fprintf(&b, " ref=%q", e.Ref)
	}
	for _, k := range CampaignKeys {
		if v, ok := e.Campaign[k]; ok {
			fmt.Fprintf(&b, " %s=%q", k, v)
		}
	}
	if e.Outreach != nil {
		fmt.Fprintf(&b, " oc=%q", *e.Outreach)
	}
	if e.Checkout != "" {
		b.WriteString(" checkout=" + e.Checkout)
	}
	return b.String()
}

// JSON is the event as one JSON line with the server's UTC time, marked as
// not stored, for the production log: the function writes there only what
// its store did not take, for go run ./cmd/report -import to take later.
func (e Event) JSON(t time.Time) []byte {
	b, _ := json.Marshal(struct {
		TS     string `json:"ts"`
		Stored bool   `json:"stored"`
		Event
	}{t.UTC().Format(time.RFC3339Nano), false, e})
	return append(b, '\n')
}

// Handler serves POST /api/event. Each valid event goes to Sink, with the
// time it arrived, and is answered 204 only when Sink says it kept it; an
// event Sink could not keep is answered 503. It reads no cookie, sets
// none, and keeps no header.
type Handler struct {
	Sink func(Event, time.Time) error
	Now  func() time.Time // time.Now when nil
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
	// Only this site's pages may post. A browser's fetch with
	// referrerPolicy no-referrer sends Origin: null, so Sec-Fetch-Site,
	// which page script cannot set, is what tells same-origin apart.
	if s := r.Header.Get("Sec-Fetch-Site"); s != "" && s != "same-origin" {
		http.Error(w, "cross-origin events are refused", http.StatusForbidden)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && o != "null" && !sameHost(o, r.Host) {
		http.Error(w, "cross-origin events are refused", http.StatusForbidden)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	if err != nil {
		http.Error(w, "cannot read body", http.StatusBadRequest)
		return
	}
	if len(body) > MaxBody {
		http.Error(w, fmt.Sprintf("body over %d bytes", MaxBody), http.StatusBadRequest)
		return
	}
	e, err := Parse(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	if err := h.Sink(e, now()); err != nil {
		// The reason is the server's (its terminal or log has it); the
		// page is told only that the event was not kept.
		http.Error(w, "the event could not be kept", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func sameHost(origin, host string) bool {
	_, rest, ok := strings.Cut(origin, "://")
	return ok && strings.EqualFold(rest, host)
}

// JSONLines is a sink that writes each event to w as one JSON line, whole,
// even when events arrive at once, and keeps it when the write succeeds.
func JSONLines(w io.Writer) func(Event, time.Time) error {
	var mu sync.Mutex
	return func(e Event, t time.Time) error {
		mu.Lock()
		defer mu.Unlock()
		_, err := w.Write(e.JSON(t))
		return err
	}
}
