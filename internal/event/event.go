// Package event receives the counter's events: it validates a POST to /api/event
// against the counter's contract (docs/counter.md) and hands each valid event to
// a sink. The preview and the production function share this one validation path.
package event

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

const (
	// MaxBody is the largest body accepted, in bytes: above the 1,703 of the
	// largest the counter sends for a link of ASCII letters and digits (six values of 200
	// characters and a ref of 253), and below what PostgreSQL's index of the
	// roll-up, which holds every value, takes in a row (2,704).
	MaxBody  = 2048
	MaxValue = 200 // the longest campaign or outreach value, in characters
)

// The names of the counter's own events: the three reading events, and a click
// on a buy link.
const (
	View           = "view"
	HumanCandidate = "human-candidate"
	Engaged        = "engaged"
	Checkout       = "checkout"
)

// Reading names the three reading events, in the order a reader reaches them.
var Reading = []string{View, HumanCandidate, Engaged}

// The checkout words, where a buy link leads (the storefront, or the site's
// payment page in USDC), name the channels of sales too.
const (
	Gumroad = "gumroad"
	Site    = "site"
)

var Checkouts = []string{Gumroad, Site} // the checkout words, in this order

// CampaignKeys are the campaign parameters the counter picks up.
var CampaignKeys = []string{"utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"}

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

// Line is the event as one readable line, for the preview's terminal:
// `14:03:07 human-candidate path="/" visible_ms=10012 scrolled=true ref="news.ycombinator.com"`.
func (e Event) Line(t time.Time) string {
	// Every value a page sends is quoted, so that none can pass for another field.
	b := []byte(t.Format("15:04:05") + " " + e.Name)
	if e.Path != "" {
		b = fmt.Appendf(b, " path=%q", e.Path)
	}
	if e.VisibleMS != nil {
		b = fmt.Appendf(b, " visible_ms=%d scrolled=%t", *e.VisibleMS, *e.Scrolled)
	}
	if e.Ref != "" {
		b = fmt.Appendf(b, " ref=%q", e.Ref)
	}
	for _, k := range CampaignKeys {
		if v, ok := e.Campaign[k]; ok {
			b = fmt.Appendf(b, " %s=%q", k, v)
		}
	}
	if e.Outreach != nil {
		b = fmt.Appendf(b, " oc=%q", *e.Outreach)
	}
	if e.Checkout != "" {
		b = append(b, " checkout="+e.Checkout...)
	}
	return string(b)
}

// NotStoredLine is the event as one JSON line with the server's UTC time and
// "stored":false, as the function logs and the journal keep it, for -import.
func (e Event) NotStoredLine(t time.Time) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	// & < > as sent: as \u0026, a body of 1,024 bytes the receiver took could not pass it again.
	enc.SetEscapeHTML(false)
	enc.Encode(struct {
		TS     string `json:"ts"`
		Stored bool   `json:"stored"`
		Event
	}{t.UTC().Format(time.RFC3339Nano), false, e}) // and a line break
	return b.Bytes()
}
