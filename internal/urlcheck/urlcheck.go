// Package urlcheck looks at a URL as a browser does before acting on it:
// the URL standard strips C0 controls and spaces around it and every tab
// and newline in it, so "java\tscript:" runs as javascript:.
package urlcheck

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Normalize returns raw as a browser reads it: leading and trailing C0
// controls and spaces stripped, and every ASCII tab and newline removed.
func Normalize(raw string) string {
	return tabsAndNewlines.Replace(strings.TrimFunc(raw, func(r rune) bool { return r <= 0x20 }))
}

var tabsAndNewlines = strings.NewReplacer("\t", "", "\n", "", "\r", "")

// Scheme returns raw's scheme as a browser parses it, lowercased ("": none).
func Scheme(raw string) string {
	if m := schemeRE.FindStringSubmatch(Normalize(raw)); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

var schemeRE = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*):`)

// Link refuses any scheme but http, https and mailto (javascript:, data:,
// file:, ...), and a control character, which no written link needs.
func Link(raw string) error {
	switch sc := Scheme(raw); {
	case strings.ContainsFunc(raw, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return fmt.Errorf("link %q holds a control character: a browser would drop it and read %q", raw, Normalize(raw))
	case sc != "" && !slices.Contains([]string{"http", "https", "mailto"}, sc):
		return fmt.Errorf("link %q uses the scheme %s: a link may be relative, or use http, https or mailto", raw, sc)
	// Without //, an https page reads https:x as its own path x; the http preview, as https://x.
	case sc != "" && sc != "mailto" &&
		!strings.HasPrefix(strings.ReplaceAll(Normalize(raw)[len(sc)+1:], `\`, "/"), "//"):
		return fmt.Errorf("link %q needs // after %s: write %s://HOST/PATH", raw, sc, sc)
	}
	return nil
}
