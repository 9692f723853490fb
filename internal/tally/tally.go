// Package tally holds the counts a store gives and a report adds up: the events
// of one kind a day holds, and the sales a day kept, so neither needs the other.
package tally

import (
	"cmp"
	"slices"
	"strings"
)

// Count is how many events of one day agree on every field below.
type Count struct {
	Day, Name, Path, Ref                              string
	Source, Medium, Campaign, Term, Content, Outreach string
	Checkout                                          string
	Scrolled                                          bool
	VisibleS                                          int // engaged events only: see VisibleBucket; 0 for any other event
	N                                                 int
}

// VisibleBucket is the roll-up's key for an engaged event's visible_ms: whole seconds to two
// significant figures (95, 140, 1,200), so quartiles from a small roll-up are within 10%.
func VisibleBucket(ms int64) int {
	s := int(ms / 1000)
	return s / unit(s) * unit(s)
}

// VisibleMiddle is the middle of the bucket VisibleBucket keys as b (145 for
// 140-149 s): read at its floor, a time would read up to a tenth short.
func VisibleMiddle(b int) int { return b + unit(b)/2 }

// unit is the width of the bucket that holds s seconds.
func unit(s int) int {
	u := 1
	for s >= 100*u && u < 1000 {
		u *= 10
	}
	return u
}

// SortCounts orders counts by their fields as bytes, whatever the database's collation.
func SortCounts(cs []Count) {
	slices.SortFunc(cs, func(a, b Count) int {
		return cmp.Or(
			strings.Compare(a.Day, b.Day), strings.Compare(a.Name, b.Name),
			strings.Compare(a.Path, b.Path), strings.Compare(a.Ref, b.Ref),
			strings.Compare(a.Source, b.Source), strings.Compare(a.Medium, b.Medium),
			strings.Compare(a.Campaign, b.Campaign), strings.Compare(a.Term, b.Term),
			strings.Compare(a.Content, b.Content), strings.Compare(a.Outreach, b.Outreach),
			strings.Compare(a.Checkout, b.Checkout), cmp.Compare(rank[a.Scrolled], rank[b.Scrolled]),
			cmp.Compare(a.VisibleS, b.VisibleS))
	})
}

var rank = map[bool]int{true: 1} // false sorts first

// Sale is how many sales of one product through one channel a day kept, and
// their cents after partial refunds: nothing in it tells one buyer from another.
type Sale struct {
	Day     string `json:"day"`
	Channel string `json:"channel"` // gumroad or site, the checkout event's words
	Product string `json:"product"`
	N       int    `json:"sales"`
	Cents   int64  `json:"cents"`
}
