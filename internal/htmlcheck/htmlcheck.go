// Package htmlcheck refuses markup in a rendered page that would break a
// promise of the page (a script but the counter, a click control that does
// not say so): in the final HTML, so it holds for templates too.
package htmlcheck

import (
	"bytes"
	"fmt"
	"html"
	"net/url"
	"slices"
	"strings"

	"github.com/tdewolff/parse/v2"
	phtml "github.com/tdewolff/parse/v2/html"
	"github.com/tdewolff/parse/v2/xml"

	"errref/internal/event"
	"errref/internal/urlcheck"
)

const (
	CounterSrc = "/measure.js" // the one script a page may load
	// FilterSrc is the index's filter, the one other script the build
	// makes; the caller says which page may load it.
	FilterSrc = "/filter.js"
	ClickText = "records a click" // what a click control's visible text must say
)

var (
	// Reserved names are the counter's own events; a click control may not use them.
	Reserved = []string{event.View, event.HumanCandidate, event.Engaged, event.Checkout}
	// urlAttrs are the attributes whose value a browser follows or loads.
	urlAttrs = []string{"href", "src", "action", "formaction", "xlink:href", "poster", "data", "cite", "background"}
)

// A Problem is one refusal. Needle is a string the author wrote that leads
// back to the source line, for the caller to find.
type Problem struct {
	Msg    string
	Needle string
	ID     string // for an id used twice: the id
}

// Findings is what the check learned of a page.
type Findings struct {
	Counter   bool // loads /measure.js
	Filter    bool // loads /filter.js
	Markers   int
	Checkouts int // buy links (data-checkout), each sending the event the notice names
	Problems  []Problem
	// IDs are the ids the page makes; Links its <a href> to other pages of
	// the site, Clicks its click names, for the caller to check across pages.
	IDs    map[string]bool
	Links  []string
	Clicks []string
	Loads  []string // the stylesheets (but in <noscript>) and scripts the page loads, as written
}

type element struct {
	name  string
	attrs map[string]string
	text  strings.Builder // visible text, for click controls
}

// checker is a check under way: the #id links wait for every id.
type checker struct {
	Findings
	frags    []string
	noscript int // the <noscript> elements open
}

func (p *checker) add(needle, format string, args ...any) {
	p.Problems = append(p.Problems, Problem{Msg: fmt.Sprintf(format, args...), Needle: needle})
}

// Check scans one HTML document.
func Check(doc []byte) Findings {
	p := &checker{Findings: Findings{IDs: map[string]bool{}}}
	var open *element   // the element whose start tag is being read (the lexer gives attributes only in one)
	var button *element // the click control whose text is being read
	// One element is read after the other: their map is made once (a
	// highlighted block is thousands of spans), but a click control's.
	spare := &element{attrs: map[string]string{}}
	l := phtml.NewLexer(parse.NewInputBytes(doc))
	for tt, data := l.Next(); tt != phtml.ErrorToken; tt, data = l.Next() {
		switch tt {
		case phtml.StartTagToken:
			open = spare
			open.name = strings.ToLower(string(l.Text()))
			clear(open.attrs)
			if open.name == "noscript" {
				p.noscript++
			}
		case phtml.AttributeToken:
			open.attrs[strings.ToLower(string(l.AttrKey()))] = attrVal(l.AttrVal())
		case phtml.StartTagCloseToken, phtml.StartTagVoidToken:
			p.element(open)
			if _, ok := open.attrs["data-measure-click"]; ok && open.name == "button" {
				button, spare = open, &element{attrs: map[string]string{}}
			}
		case phtml.SVGToken, phtml.MathToken, phtml.XMLToken:
			// The HTML lexer hands an <svg>, <math> or <xml> island back
			// whole; its elements go through the same checks, read as XML.
			p.xml(data)
		case phtml.TextToken:
			if button != nil {
				button.text.Write(data)
			}
		case phtml.EndTagToken:
			if strings.EqualFold(string(l.Text()), "noscript") {
				p.noscript--
			}
			if button != nil && strings.EqualFold(string(l.Text()), "button") {
				text := strings.Join(strings.Fields(html.UnescapeString(button.text.String())), " ")
				if !strings.Contains(strings.ToLower(text), ClickText) {
					p.add(button.attrs["data-measure-click"], "the click control %q reads %q: its visible text must say that it %s", button.attrs["data-measure-click"], text, ClickText)
				}
				button = nil
			}
		}
	}
	for _, f := range p.frags {
		if !p.IDs[f] {
			p.add("#"+f, "the link to #%s names no id on the page", f)
		}
	}
	if p.Counter && p.Markers != 1 {
		p.add("{{< marker >}}", "the page loads %s and has %d elements with data-measure-marker: it needs exactly one, where the explaining part ends ({{< marker >}} in Markdown)", CounterSrc, p.Markers)
	}
	return p.Findings
}

func (p *checker) xml(data []byte) {
	l := xml.NewLexer(parse.NewInputBytes(data))
	var open *element
	for tt, _ := l.Next(); tt != xml.ErrorToken; tt, _ = l.Next() {
		switch tt {
		case xml.StartTagToken:
			open = &element{name: strings.ToLower(string(l.Text())), attrs: map[string]string{}}
		case xml.AttributeToken:
			if open != nil {
				open.attrs[strings.ToLower(string(l.Text()))] = attrVal(l.AttrVal())
			}
		case xml.StartTagCloseToken, xml.StartTagCloseVoidToken:
			if open != nil {
				p.element(open)
				open = nil
			}
		}
	}
}

func attrVal(v []byte) string {
	v = bytes.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		v = v[1 : len(v)-1]
	}
	return html.UnescapeString(string(v))
}

func (p *checker) element(e *element) {
	a, add := e.attrs, p.add
	if id, ok := a["id"]; ok {
		if p.IDs[id] {
			p.Problems = append(p.Problems, Problem{Msg: fmt.Sprintf("the id %q is used twice", id), Needle: id, ID: id})
		}
		p.IDs[id] = true
	}
	if href, ok := a["href"]; ok && strings.HasPrefix(href, "#") {
		p.frags = append(p.frags, strings.TrimPrefix(href, "#"))
	} else if ok && e.name == "a" && sameSite(href) {
		p.Links = append(p.Links, href)
	}
	for k, v := range a {
		if strings.HasPrefix(k, "on") {
			add(k, "<%s %s=...>: inline event handlers are not allowed; the CSP blocks them", e.name, k)
		}
		if k == "style" {
			add(`style=`, "<%s style=...>: inline styles are not allowed; the CSP blocks them, use the stylesheet", e.name)
		}
		if slices.Contains(urlAttrs, k) {
			if err := urlcheck.Link(v); err != nil {
				add(v, "<%s %s=...>: %v", e.name, k, err)
			} else if (k == "src" || k == "poster" || e.name == "image") && !sameSite(v) { // an SVG image's is its href
				add(v, "<%s %s=%q>: loads from another site, which the CSP (each source 'self') blocks, so readers get it broken: put the file in static/", e.name, k, v)
			}
		}
	}
	switch e.name {
	case "link":
		rel := strings.Fields(strings.ToLower(a["rel"]))
		if slices.Contains(rel, "stylesheet") && p.noscript == 0 {
			p.Loads = append(p.Loads, a["href"])
		}
		// The CSP governs no resource hint: Chromium connects under it, telling that site who reads the page.
		if (slices.Contains(rel, "preconnect") || slices.Contains(rel, "dns-prefetch")) && !sameSite(a["href"]) {
			add(a["href"], "<link rel=%q href=%q>: a browser connects to that site as the page opens, whatever the CSP says, and so tells it each reader's address: remove it, as the pages load nothing from another site", a["rel"], a["href"])
		}
	case "script":
		src, hasSrc := a["src"]
		if hasSrc {
			p.Loads = append(p.Loads, src)
		}
		plain := has(a, "defer") && a["type"] == "" && !has(a, "async")
		switch {
		case hasSrc && src == CounterSrc && plain:
			if p.Counter {
				add(CounterSrc, "the page loads %s twice", CounterSrc)
			}
			p.Counter = true
		case hasSrc && src == FilterSrc && plain:
			p.Filter = true
		case !hasSrc && a["type"] == "application/ld+json":
			// Structured data: a data block, never run.
		default:
			add("<script", "a <script> other than <script src=%q defer>: the counter is the only script a page loads", CounterSrc)
		}
	case "iframe", "object", "embed", "form":
		add("<"+e.name, "<%s> is not allowed on these pages", e.name)
	}
	if _, ok := a["data-measure-marker"]; ok {
		p.Markers++
	}
	if name, ok := a["data-measure-click"]; ok {
		p.Clicks = append(p.Clicks, name)
		switch {
		case e.name != "button" || a["type"] != "button":
			add(name, "data-measure-click=%q belongs on a <button type=\"button\">", name)
		case !event.IsName(name):
			add(name, "the click name %q must be at most 64 lowercase letters, digits and -", name)
		case slices.Contains(Reserved, name):
			add(name, "the click name %q is reserved for the counter's own events (%s)", name, strings.Join(Reserved, ", "))
		}
	}
	if word, ok := a["data-checkout"]; ok {
		switch {
		case e.name != "a" || a["href"] == "":
			add(word, "data-checkout=%q belongs on a link, <a href=...>", word)
		case !slices.Contains(event.Checkouts, word):
			add(word, "the checkout word %q must be gumroad or site", word)
		default:
			p.Checkouts++
		}
	}
}

// sameSite reports whether href leads to another page of this site: no
// scheme (http:, mailto:) and no host (//host/, or /\host/, as a browser reads \ in an https page's URL).
func sameSite(href string) bool {
	href = strings.ReplaceAll(urlcheck.Normalize(href), `\`, "/")
	u, err := url.Parse(href)
	return err == nil && u.Scheme == "" && u.Host == "" && !strings.HasPrefix(href, "//") && href != ""
}

func has(a map[string]string, k string) bool { _, ok := a[k]; return ok }
