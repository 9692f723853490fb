// Parsing a body and holding its event to the contract.

package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// nameRE and hostRE leave the length to IsName and isHost: a counted repeat
// ({1,253}) compiles to as many copies of its class, in every command's start.
var (
	nameRE = regexp.MustCompile(`^[a-z0-9-]+$`)
	// hostRE is a URL's host as a browser writes it, an Android app's in capitals too (com.Slack).
	hostRE = regexp.MustCompile(`^[A-Za-z0-9.:\[\]_-]+$`)
	// pathRE is location.pathname as a browser serializes it: ASCII, with
	// spaces, quotes, < > and anything outside it percent-encoded.
	pathRE = regexp.MustCompile(`^/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$`)
)

// Parse validates one body. Its errors are short, safe to show, and never echo the body.
func Parse(body []byte) (e Event, err error) {
	if len(body) > MaxBody {
		return e, fmt.Errorf("body over %d bytes", MaxBody)
	}
	// encoding/json would replace invalid bytes without a word; a browser sends none.
	if !utf8.Valid(body) {
		return e, errors.New("body is not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	seen, err := object(dec, "body is not a JSON object", "key", func(key string) error { return e.field(dec, key) })
	if err != nil {
		return e, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return e, errors.New("body holds more than one JSON object")
	}
	return e, e.check(seen)
}

// object reads a JSON object, handing each key once to each, which reads its value,
// and returns the keys in order. notObject is the error of a value that is not an
// object; what names a key in the error of a repeated one.
func object(dec *json.Decoder, notObject, what string, each func(key string) error) ([]string, error) {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New(notObject)
	}
	var keys []string
	for {
		tok, err := dec.Token() // a key, or the object's end
		if err != nil {
			return nil, errors.New("body is not valid JSON")
		}
		if tok == json.Delim('}') {
			return keys, nil
		}
		key := tok.(string)
		if slices.Contains(keys, key) {
			return nil, fmt.Errorf("%s %q is repeated", what, safe(key))
		}
		keys = append(keys, key)
		if err := each(key); err != nil {
			return nil, err
		}
	}
}

// field reads the value of key into e.
func (e *Event) field(dec *json.Decoder, key string) error {
	switch key {
	case "name":
		return str(dec, key, &e.Name)
	case "path":
		return str(dec, key, &e.Path)
	case "ref":
		return str(dec, key, &e.Ref)
	case "checkout":
		return str(dec, key, &e.Checkout)
	case "outreach":
		e.Outreach = new(string)
		return str(dec, key, e.Outreach)
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
		e.Campaign = map[string]string{}
		_, err := object(dec, "campaign must be an object of strings", "campaign key", func(k string) error {
			if !slices.Contains(CampaignKeys, k) {
				return fmt.Errorf("campaign key %q is not one of %s", safe(k), strings.Join(CampaignKeys, ", "))
			}
			var v string
			err := str(dec, "campaign."+k, &v)
			e.Campaign[k] = v
			return err
		})
		if err == nil && len(e.Campaign) == 0 {
			err = errors.New("campaign is sent only with at least one key")
		}
		return err
	default:
		return fmt.Errorf("unknown key %q", safe(key))
	}
	return nil
}

// str reads key's string value into dst: at most MaxValue characters, and no
// control character. Bidi controls (U+202E) would reorder what a terminal or
// log viewer shows around them. A campaign or outreach value is the page URL's,
// as a reader followed it (a right-to-left mark in a campaign's name): there
// each is kept as U+FFFD, and the reader's view still counts.
func str(dec *json.Decoder, key string, dst *string) error {
	tok, err := dec.Token()
	s, ok := tok.(string)
	if err != nil || !ok {
		return fmt.Errorf("%s must be a string", key)
	}
	if utf8.RuneCountInString(s) > MaxValue && key != "path" && key != "ref" { // a host may have 253
		return fmt.Errorf("%s is over %d characters", key, MaxValue)
	}
	clean := Marked(s)
	if clean != s && key != "outreach" && !strings.HasPrefix(key, "campaign.") {
		return fmt.Errorf("%s holds a control character", key)
	}
	*dst = clean
	return nil
}

// Marked is s with each control character, line or paragraph separator
// and bidi control as U+FFFD, as a campaign or outreach value is kept.
func Marked(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r) {
			return utf8.RuneError
		}
		return r
	}, s)
}

// check holds the keys of each kind of event to the contract, in the order sent.
func (e *Event) check(seen []string) error {
	var keys []string // the keys besides name that e's kind carries: a click's, none
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
		if slices.Contains(seen, "ref") && !isHost(e.Ref) {
			return errors.New("ref must be a host name, as a browser writes it")
		}
		e.Ref = strings.ToLower(e.Ref)
		// DEL, one byte, is kept as U+FFFD in three: past MaxBody, PostgreSQL's roll-up index refuses the batch.
		kept := len(e.Path) + len(e.Ref)
		for _, v := range e.Campaign {
			kept += len(v)
		}
		if e.Outreach != nil {
			kept += len(*e.Outreach)
		}
		if kept > MaxBody {
			return fmt.Errorf("the values, each control character kept as U+FFFD in three bytes, are over %d bytes", MaxBody)
		}
		keys = []string{"path", "ref", "visible_ms", "scrolled", "campaign", "outreach"}
	case e.Name == Checkout:
		if !slices.Contains(Checkouts, e.Checkout) {
			return errors.New("checkout must be gumroad or site")
		}
		keys = []string{"checkout"}
	case !IsName(e.Name):
		return errors.New("name must be view, human-candidate, engaged, checkout, or a click name of lowercase letters, digits and -")
	}
	i := slices.IndexFunc(seen, func(k string) bool { return !slices.Contains(keys, k) && k != "name" })
	switch {
	case i < 0:
		return nil
	case keys == nil: // any other name is a click's: a misspelt reading event lands here
		return fmt.Errorf("unknown event %q with %q: the events are view, human-candidate, engaged and checkout, and any other name is a click's, which carries only its name", e.Name, seen[i])
	}
	return fmt.Errorf("a %q event carries no %q", e.Name, seen[i])
}

// IsName reports whether s is a click name the receiver takes; the build checks
// each page's against it. IsName and isHost count bytes, which are characters
// in their ASCII classes.
func IsName(s string) bool { return len(s) <= 64 && nameRE.MatchString(s) }
func isHost(s string) bool { return len(s) <= 253 && hostRE.MatchString(s) }

// safe is a key fit to quote in an error: its first 40 bytes, ? for each control character.
func safe(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '?'
		}
		return r
	}, s[:min(len(s), 40)])
}
