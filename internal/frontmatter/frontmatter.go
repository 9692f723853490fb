// Package frontmatter splits a content file into its TOML front matter and its
// Markdown body, and decodes the front matter strictly: a typo in a key is an
// error, not a silently ignored setting.
package frontmatter

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// Meta is the front matter of one page. Keys lists its TOML names.
type Meta struct {
	Title       string    `toml:"title"`
	Description string    `toml:"description"`
	Date        time.Time `toml:"date"`
	Updated     time.Time `toml:"updated"`
	URL         string    `toml:"url"`
	Counter     *bool     `toml:"counter"`
	NoIndex     bool      `toml:"noindex"`
	// History names releases (OWNER/REPO@VERSION) whose quotes show what
	// an old release did: -drift checks them there only, -repin leaves them.
	History []string `toml:"history"`
	Library string   `toml:"library"` // the erring library, as the index shows it; unset: the section's
	Tags    []string `toml:"tags"`
	Related []string `toml:"related"` // URLs of other pages
	Guide   string   `toml:"guide"`   // the guide <setting:guide> names; unset: site.toml's
	Aliases []string `toml:"aliases"` // earlier paths, a 301 to this one (_redirects)
	// Messages are the lines the error prints, {name} marking the reader's
	// own parts; the build holds each to the page's quotes (internal/message).
	Messages []string `toml:"messages"`
	// OlderVersions says that earlier versions of the page ran an older
	// counter (llab_attr, Vercel's script): only such a page's notice says so.
	OlderVersions bool `toml:"older_versions"`

	URLLine      int `toml:"-"` // the line of the file that sets url (1 when unset), for errors
	HistoryLine  int `toml:"-"` // the line that sets history, read only when it is set
	MessagesLine int `toml:"-"` // the line that sets messages, likewise
	AliasesLine  int `toml:"-"` // the line that sets aliases, read only when it is set
	RelatedLine  int `toml:"-"` // the line that sets related, likewise
}

var (
	// urlRE: segments of letters, digits and - _ . ~, none starting or ending
	// with a dot, each ending in /; nothing a browser or file system reads
	// otherwise (%, ?, #, \; Windows drops a last dot).
	urlRE = regexp.MustCompile(`^/(?:[A-Za-z0-9_~-](?:[A-Za-z0-9._~-]*[A-Za-z0-9_~-])?/)*$`)
	// wrongKindRE is toml's error for a value of the wrong kind: the key, what it is, what it takes.
	wrongKindRE = regexp.MustCompile(`last key "([^"]+)"\): incompatible types: TOML value has type ([^;]+); destination has type ([\w.]+)`)
	// releaseRE is a release of a repository, as a citation names it.
	releaseRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+@(?:@[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+@)?[A-Za-z0-9_.+-]+$`)
	// Keys are the front-matter keys a page may set; Required, those it must.
	Keys     = []string{"title", "description", "date", "updated", "url", "counter", "noindex", "history", "older_versions", "library", "tags", "related", "guide", "aliases", "messages"}
	Required = []string{"title", "description"}
)

const delim = "+++"

// Hint is toml's message, with what to write instead where the mistake is a
// writer's usual one: a date in quotes or in another form, text without quotes.
func Hint(perr toml.ParseError) string {
	// Followed, the hint must build: counter = "False" would be text, which counter does not take.
	date, bare, other := " such as "+cmp.Or(perr.LastKey, "updated")+" = 2026-12-05", ": write text in double quotes", ""
	switch typeOf(perr.LastKey) {
	case "bool":
		bare = ": write true or false"
	case "[]string":
		bare = ": write a list of text, such as " + perr.LastKey + ` = ["…"]`
	case "time.Time":
		bare = ": write a date as year-month-day," + date
		other = bare // 2026/12/05, 05.12.2026: toml read a number, then more
	}
	for prefix, hint := range map[string]string{"parsing time ": ": write a date without quotes," + date, "expected value but found": bare} {
		if strings.HasPrefix(perr.Message, prefix) {
			return perr.Message + hint
		}
	}
	return perr.Message + other
}

// NotUTF8 refuses src, the file at path, at its first byte not UTF-8 (Windows-1252's é).
func NotUTF8(path string, src []byte) error {
	if utf8.Valid(src) {
		return nil
	}
	off := 0
	for r, size := utf8.DecodeRune(src); r != utf8.RuneError || size != 1; r, size = utf8.DecodeRune(src[off:]) {
		off += size
	}
	return fmt.Errorf("%s:%d: not UTF-8 at byte %d: save the file as UTF-8", path, bytes.Count(src[:off], []byte("\n"))+1, off)
}

// Parse decodes the front matter of src (the file at path); it returns the body
// and its first line.
func Parse(path string, src []byte) (meta Meta, body []byte, bodyLine int, err error) {
	if err := NotUTF8(path, src); err != nil {
		return meta, nil, 0, err
	}
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	first, _, _ := bytes.Cut(src, []byte("\n"))
	if first := strings.TrimRight(string(first), "\r\n"); first != delim {
		return meta, nil, 0, fmt.Errorf("%s:1: no front matter: the first line is %q; start the file with a line %q, the TOML keys, and another %q line", path, first, delim, delim)
	}
	// The closing line is line end, at byte at; the body starts at byte from.
	end, at, from := 0, 0, -1
	for line := range bytes.Lines(src) {
		if end++; end > 1 && string(bytes.TrimRight(line, "\r\n")) == delim {
			from = at + len(line)
			break
		}
		at += len(line)
	}
	if from < 0 {
		return meta, nil, 0, fmt.Errorf("%s:1: front matter is not closed: add a line %q, with nothing after it, after the last key", path, delim)
	}
	// A string over lines keeps its line ends: a CRLF checkout's must be Linux's.
	fm := bytes.ReplaceAll(src[len(first)+1:at], []byte("\r\n"), []byte("\n"))
	md, err := toml.Decode(string(fm), &meta)
	if err != nil {
		if perr, ok := errors.AsType[toml.ParseError](err); ok {
			// The line of the byte toml stopped at: its own Line is one off at a
			// CRLF. At a control character it stops a byte before it, even before
			// the first (BurntSushi/toml v1.6.0, lex.go:288).
			start := perr.Position.Start
			if strings.HasPrefix(perr.Message, "TOML files cannot contain control characters") {
				start++
			}
			line := bytes.Count(fm[:min(start, len(fm))], []byte("\n"))
			if perr.LastKey == "" { // toml names none once it has read a value (updated = 2026/12/05): the line's
				key, _, _ := strings.Cut(strings.Split(string(fm), "\n")[line], "=")
				perr.LastKey = strings.Trim(key, " \t\"'")
			}
			return meta, nil, 0, fmt.Errorf("%s:%d: front matter is not valid TOML: %s", path, line+2, Hint(perr))
		}
		// A value of the wrong kind: toml names the key, not its line.
		if m := wrongKindRE.FindStringSubmatch(err.Error()); m != nil {
			if strings.HasPrefix(typeOf(m[1]), "[]") && m[3] == "string" { // toml names the item's type, not the list's
				return meta, nil, 0, fmt.Errorf("%s:%d: an item of %s is %s, but each takes %s", path, keyLine(fm, m[1]), m[1], kind(m[2]), kind(m[3]))
			}
			return meta, nil, 0, fmt.Errorf("%s:%d: %s is %s, but it takes %s", path, keyLine(fm, m[1]), m[1], kind(m[2]), kind(m[3]))
		}
		return meta, nil, 0, fmt.Errorf("%s:2: front matter: %v", path, err)
	}
	// Exactly: toml matches a key to its field whatever the case.
	for _, k := range md.Keys() {
		if key := k.String(); !slices.Contains(Keys, key) {
			return meta, nil, 0, fmt.Errorf("%s:%d: unknown front-matter key %q: the keys are %s", path, keyLine(fm, key), key, strings.Join(Keys, ", "))
		}
	}
	if i := slices.IndexFunc(Required, func(k string) bool { return !md.IsDefined(k) }); i >= 0 {
		return meta, nil, 0, fmt.Errorf("%s:%d: front matter lacks the required key %q (required: %s)", path, end, Required[i], strings.Join(Required, ", "))
	}
	if strings.TrimSpace(meta.Title) == "" || strings.TrimSpace(meta.Description) == "" {
		return meta, nil, 0, fmt.Errorf("%s:%d: title and description must not be empty", path, keyLine(fm, "title"))
	}
	// A TOML local time (07:32:00) is that time on 0000-01-01: no day to show.
	// Unset is year 1.
	for i, t := range []time.Time{meta.Date, meta.Updated} {
		if key := []string{"date", "updated"}[i]; t.Year() == 0 {
			return meta, nil, 0, fmt.Errorf("%s:%d: %s is a time of day: write the day, such as %s = 2026-12-05", path, keyLine(fm, key), key, key)
		}
	}
	if day, upd := meta.Date.Format(time.DateOnly), meta.Updated.Format(time.DateOnly); md.IsDefined("updated") && day > upd {
		return meta, nil, 0, fmt.Errorf("%s:%d: date %s is after updated %s: date is the day the page was first published, updated the last day it was checked", path, keyLine(fm, "date"), day, upd)
	}
	meta.URLLine, meta.AliasesLine, meta.HistoryLine = 1, keyLine(fm, "aliases"), keyLine(fm, "history")
	meta.MessagesLine, meta.RelatedLine = keyLine(fm, "messages"), keyLine(fm, "related")
	if md.IsDefined("url") {
		meta.URLLine = keyLine(fm, "url")
		if !urlRE.MatchString(meta.URL) {
			return meta, nil, 0, fmt.Errorf("%s:%d: url %q must be a path that starts and ends with /, of letters, digits and - _ . ~, and no dot last, which Windows drops, such as \"/pay/\"", path, meta.URLLine, meta.URL)
		}
	}
	if i := slices.IndexFunc(meta.Aliases, func(a string) bool { return !IsPath(a) }); i >= 0 {
		return meta, nil, 0, fmt.Errorf("%s:%d: alias %q must be a path that starts and ends with /, of letters, digits and - _ . ~, such as \"/old-name/\"", path, meta.AliasesLine, meta.Aliases[i])
	}
	if i := slices.IndexFunc(meta.History, func(h string) bool { return !releaseRE.MatchString(h) }); i >= 0 {
		return meta, nil, 0, fmt.Errorf("%s:%d: history %q: name a release as OWNER/REPO@VERSION, such as \"modelcontextprotocol/python-sdk@v1.6.0\"", path, meta.HistoryLine, meta.History[i])
	}
	if slices.ContainsFunc(meta.Tags, func(t string) bool { return strings.TrimSpace(t) == "" }) {
		return meta, nil, 0, fmt.Errorf("%s:%d: tags holds an empty tag, which would relate the page to every page with one: remove it", path, keyLine(fm, "tags"))
	}
	return meta, src[from:], end + 1, nil
}

// kind names a type toml reports, the value's (Go) or the key's (TOML), as a writer writes it.
func kind(t string) string {
	words := map[string]string{"string": "a string in quotes", "bool": "true or false", "boolean": "true or false", "int64": "a number", "float64": "a number",
		"slice": `a list, such as ["a", "b"]`, "[]any": "a list", "map[string]any": "a table", "time.Time": "a date without quotes, such as 2026-12-05"}
	return cmp.Or(words[t], t)
}

// typeOf is the Go type of Meta's key, a pointer's element's ([]string, bool), or "<nil>".
func typeOf(key string) string {
	t := reflect.TypeFor[Meta]()
	f, _ := t.FieldByNameFunc(func(name string) bool { f, _ := t.FieldByName(name); return f.Tag.Get("toml") == key })
	return strings.TrimPrefix(fmt.Sprint(f.Type), "*")
}

// KeyLine is the line of src setting key, or opening its [table], else 1.
func KeyLine(src []byte, key string) int { return keyLine(src, key) - 1 }

// keyLine is the line setting key, bare or quoted, or opening its [table], in fm, else 2: TOML gives no position for key errors.
func keyLine(fm []byte, key string) int {
	for i, l := range strings.Split(string(fm), "\n") {
		if name, _, ok := strings.Cut(l, "="); ok && strings.Trim(name, " \t\"'") == key || strings.Trim(l, " \t[]\r") == key {
			return i + 2
		}
	}
	return 2
}

// IsPath reports whether u is a path a page's url may set.
func IsPath(u string) bool { return urlRE.MatchString(u) }

// CounterOn reports whether the page loads the counter: unless counter = false.
func (m Meta) CounterOn() bool { return m.Counter == nil || *m.Counter }

// PageURL is the URL of content/NAME.md (name without .md) whose url key
// is url; the build and the report both place pages by it.
func PageURL(name, url string) string {
	switch {
	case url != "":
		return url
	case name == "index":
		return "/"
	case name == "404":
		return "/404.html"
	}
	return "/" + strings.TrimSuffix(name, "/index") + "/"
}
