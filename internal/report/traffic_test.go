// Generated traffic for the report's tests and screenshots: what the
// counter would send from a small site's readers over some days, shaped
// like real traffic (a weekly rhythm, a spike, referrers, campaigns,
// outreach codes, readers dropping off at each step, clicks, a last day
// cut short), the same on every run of a seed.

package report

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"errref/internal/event"
	"errref/internal/store"
	"errref/internal/tally"
)

// trafficEvent is one event and the server's time it arrived.
type trafficEvent struct {
	event.Event
	At time.Time
}

// trafficShape says what to make.
type trafficShape struct {
	End   time.Time // traffic stops here: its day is partial unless End is midnight
	Days  int       // days up to and including End's day
	Views int       // views over the Days, before the last day is cut short
	Seed  uint64
}

// trafficMonth is the report's issue month: 60 days (the last 30 against the 30
// before), about 5,000 views in the last 30, ending at 14:00 UTC on end's day.
func trafficMonth(end time.Time) trafficShape {
	day := end.UTC().Truncate(24 * time.Hour)
	return trafficShape{End: day.Add(14 * time.Hour), Days: 60, Views: 9000, Seed: 20}
}

type weighted[T any] struct {
	w float64
	v T
}

func pick[T any](r *rand.Rand, opts []weighted[T]) T {
	total := 0.0
	for _, o := range opts {
		total += o.w
	}
	x := r.Float64() * total
	for _, o := range opts {
		if x -= o.w; x < 0 {
			return o.v
		}
	}
	return opts[len(opts)-1].v
}

// arrival is where a reader came from (each part possibly absent), and how
// likely such a reader is to read on.
type arrival struct {
	ref      string
	campaign map[string]string
	outreach string
	reads    float64 // multiplies the chance of each step after view
}

var arrivals = []weighted[arrival]{
	{20.5, arrival{reads: 0.9}}, // typed or bookmarked, or a referrer the browser withheld
	{28, arrival{ref: "www.google.com", reads: 1.15}},
	{11, arrival{ref: "news.ycombinator.com", reads: 0.7}},
	{10, arrival{ref: "github.com", reads: 1.2}},
	{6, arrival{ref: "old.reddit.com", reads: 0.8}},
	{5, arrival{ref: "stackoverflow.com", reads: 1.1}},
	{4, arrival{ref: "duckduckgo.com", reads: 1.1}},
	{3, arrival{ref: "github.com", campaign: map[string]string{"utm_source": "github", "utm_medium": "readme", "utm_campaign": "sdk-issue", "utm_term": "mcperror"}, reads: 1.3}},
	{2, arrival{ref: "news.ycombinator.com", campaign: map[string]string{"utm_source": "hn", "utm_medium": "social", "utm_campaign": "launch"}, reads: 0.8}},
	{1.5, arrival{campaign: map[string]string{"utm_source": "newsletter", "utm_medium": "email", "utm_campaign": "march-issue", "utm_content": "top-link"}, reads: 1.4}},
	{1, arrival{campaign: map[string]string{"utm_source": "newsletter", "utm_medium": "email", "utm_campaign": "march-issue", "utm_content": "footer"}, reads: 1.4}},
	{0.5, arrival{campaign: map[string]string{"utm_source": "newsletter", "utm_medium": "email", "utm_campaign": "march-issue"}, reads: 1.4}},
	{1.6, arrival{outreach: "fw-0412", reads: 1.5}},
	{0.9, arrival{outreach: "sdk-1873", reads: 1.5}},
}

var trafficPaths = []weighted[string]{{78, "/"}, {14, "/pay/"}, {8, "/why-connection-closed/"}}

// makeTraffic makes the events of s, in the order they arrived.
func makeTraffic(s trafficShape) []trafficEvent {
	r := rand.New(rand.NewPCG(s.Seed, 0x7e11))
	end := s.End.UTC()
	first := end.Truncate(24*time.Hour).AddDate(0, 0, 1-s.Days)
	// A weekly rhythm, slow growth, and one day when a link went round.
	weights := make([]float64, s.Days)
	total := 0.0
	for i := range weights {
		w := 1 + 0.4*float64(i)/float64(s.Days)
		if wd := first.AddDate(0, 0, i).Weekday(); wd == time.Saturday || wd == time.Sunday {
			w *= 0.55
		}
		if i == s.Days-18 {
			w *= 3.5
		}
		weights[i] = w
		total += w
	}
	var out []trafficEvent
	for i, w := range weights {
		day := first.AddDate(0, 0, i)
		n := int(math.Round(float64(s.Views) * w / total * (0.8 + 0.4*r.Float64())))
		for range n {
			at := day.Add(time.Duration(r.Int64N(int64(24 * time.Hour))))
			if at.After(end) {
				continue // the last day is not over
			}
			out = append(out, reader(r, at, i == s.Days-18)...)
		}
	}
	slices.SortStableFunc(out, func(a, b trafficEvent) int { return a.At.Compare(b.At) })
	return out
}

// reader is one page load: its view and whatever followed.
func reader(r *rand.Rand, at time.Time, spike bool) []trafficEvent {
	a := pick(r, arrivals)
	if spike && r.Float64() < 0.6 {
		a = arrival{ref: "news.ycombinator.com", reads: 0.7}
	}
	base := event.Event{Path: pick(r, trafficPaths), Ref: a.ref, Campaign: a.campaign}
	if a.outreach != "" {
		base.Outreach = &a.outreach
	}
	step := func(name string, ms int64, scrolled bool, after time.Duration) trafficEvent {
		e := base
		e.Name, e.VisibleMS, e.Scrolled = name, &ms, &scrolled
		return trafficEvent{e, at.Add(after)}
	}
	// The view goes at load, before anyone can scroll, but for a reload
	// that restores the scroll position.
	out := []trafficEvent{step(event.View, 200+r.Int64N(900), r.Float64() < 0.022, 0)}
	if r.Float64() >= 0.40*a.reads {
		if r.Float64() < 0.04 {
			out = append(out, trafficEvent{event.Event{Name: "copy-sketch"}, at.Add(5 * time.Second)})
		}
		return out
	}
	scrolled := r.Float64() < 0.71
	hc := 10_000 + int64(r.ExpFloat64()*6000)
	out = append(out, step(event.HumanCandidate, hc, scrolled, time.Duration(hc)*time.Millisecond))
	if r.Float64() < 0.2 {
		out = append(out, trafficEvent{event.Event{Name: pick(r, []weighted[string]{{3, "copy-sketch"}, {1, "copy-sketch-v"}})}, at.Add(20 * time.Second)})
	}
	if r.Float64() >= 0.25*a.reads {
		return out
	}
	// Engaged after 90 s and the marker seen: the time runs on from 90 s
	// with a long tail, a median near two and a half minutes.
	ms := 90_000 + int64(math.Exp(r.NormFloat64()*0.9+math.Log(55_000)))
	out = append(out, step(event.Engaged, ms, scrolled || r.Float64() < 0.8, time.Duration(ms)*time.Millisecond))
	if x := r.Float64(); x < 0.05 {
		c := pick(r, []weighted[string]{{2, "gumroad"}, {1, "site"}})
		out = append(out, trafficEvent{event.Event{Name: event.Checkout, Checkout: c}, at.Add(time.Duration(ms+5000) * time.Millisecond)})
	}
	return out
}

// trafficCounts adds events up as the store's roll-up does: one Count for each
// day and set of fields, engaged events by their visible-time bucket.
func trafficCounts(events []trafficEvent) []tally.Count {
	m := map[tally.Count]int{}
	for _, e := range events {
		m[store.CountOf(store.Item{Event: e.Event, At: e.At})]++
	}
	out := make([]tally.Count, 0, len(m))
	for k, n := range m {
		k.N = n
		out = append(out, k)
	}
	tally.SortCounts(out)
	return out
}
