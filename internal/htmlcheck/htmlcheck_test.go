package htmlcheck

import (
	"strings"
	"testing"
)

// TestIslands: what the HTML lexer hands back whole (<svg>, <math>) is
// checked element by element, like the rest of the page.
func TestIslands(t *testing.T) {
	for _, tc := range []struct {
		doc, want string // want: in one problem; "" for none
	}{
		{`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><path d="M0 0"/></svg>`, ""},
		{`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>`, "<svg onload=...>: inline event handlers"},
		{`<p>x</p><svg><g><circle onclick="x()"/></g></svg>`, "<circle onclick=...>"},
		{`<svg><script>alert(1)</script></svg>`, "a <script> other than"},
		{`<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>`, "uses the scheme javascript"},
		{`<svg><a href="java&#9;script:alert(1)">x</a></svg>`, "control character"},
		{`<svg><foreignObject><iframe src="/x"></iframe></foreignObject></svg>`, "<iframe> is not allowed"},
		{`<math><mi style="color:red">x</mi></math>`, "inline styles are not allowed"},
		{`<a href="jav&#x09;ascript:alert(1)">x</a>`, "control character"},
		{`<a href=" javascript:alert(1)">x</a>`, "uses the scheme javascript"},
		{`<img src="/favicon.svg" alt="">`, ""},
		{`<img src="https://evil.example/pixel.png" alt="">`, "loads from another site"},
		{`<svg><image src="//evil.example/pixel.png"/></svg>`, "loads from another site"},
		// A browser reads \ as / in an http(s) URL: each of these is //evil.example/.
		{`<img src="/\evil.example/pixel.png" alt="">`, "loads from another site"},
		{`<video poster="\\evil.example/x.png"></video>`, "loads from another site"},
		{`<img src="\/evil.example/pixel.png" alt="">`, "loads from another site"},
		// An SVG image loads its href, as <img> its src.
		{`<svg><image href="https://evil.example/pixel.png"/></svg>`, "loads from another site"},
		{`<svg><image xlink:href="//evil.example/pixel.png"/></svg>`, "loads from another site"},
		{`<svg><image href="/favicon.svg"/><a href="https://example.org/"><text>x</text></a></svg>`, ""},
		// The CSP governs no resource hint: Chromium opens this connection under it.
		{`<link rel="preconnect" href="https://fonts.gstatic.example" crossorigin>`, "connects to that site"},
		{`<link rel="DNS-Prefetch" href="//cdn.example">`, "connects to that site"},
	} {
		ps := Check([]byte(tc.doc)).Problems
		var msgs []string
		for _, p := range ps {
			msgs = append(msgs, p.Msg)
		}
		got := strings.Join(msgs, "\n")
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("Check(%s) = %q, want %q", tc.doc, got, tc.want)
		}
	}
}

// counter is the one script a page may load, as the templates write it.
const counter = `<script src="/measure.js" defer></script>`

// want is one expected problem: words in its message, and the needle the
// site searches the page's source and templates for to name the line.
type want struct {
	words  string
	needle string
	id     string
}

// TestCheck: a page that keeps every rule passes and says what it loads;
// each page that breaks one gets that problem, with a needle that leads
// back to what the author wrote.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name    string
		doc     string
		counter bool // the page loads /measure.js
		markers int
		want    []want // in order; nil: no problem
	}{
		{
			name: "a page without the counter",
			doc:  `<!doctype html><title>x</title><main id="main"><h2 id="a">A</h2><a href="#a">up</a> <a href="/pay/">pay</a> <a href="mailto:a@b.test">mail</a></main>`,
		},
		{
			name:    "a page with the counter and its marker",
			doc:     counter + `<p>x</p><hr data-measure-marker>`,
			counter: true, markers: 1,
		},
		{
			name: "structured data is not a script",
			doc:  `<script type="application/ld+json">{"@type":"TechArticle"}</script>`,
		},
		{
			name:    "a click control that says it records a click",
			doc:     counter + `<hr data-measure-marker><button type="button" data-measure-click="copy-x">Copy the code (Records a click)</button>`,
			counter: true, markers: 1,
		},
		{
			name: "a buy link",
			doc:  `<a href="https://store.test/l" data-checkout="gumroad">Buy</a> <a href="/pay/" data-checkout="site">Pay</a>`,
		},
		{
			name:    "the counter without a marker",
			doc:     counter + `<p>x</p>`,
			counter: true, markers: 0,
			want: []want{{"the page loads /measure.js and has 0 elements with data-measure-marker", "{{< marker >}}", ""}},
		},
		{
			name:    "two markers",
			doc:     counter + `<hr data-measure-marker><hr data-measure-marker>`,
			counter: true, markers: 2,
			want: []want{{"has 2 elements with data-measure-marker: it needs exactly one", "{{< marker >}}", ""}},
		},
		{
			// A page without the counter counts nobody: no marker needed.
			name:    "a marker without the counter",
			doc:     `<hr data-measure-marker>`,
			markers: 1,
		},
		{
			name:    "the counter twice",
			doc:     counter + counter + `<hr data-measure-marker>`,
			counter: true, markers: 1,
			want: []want{{"the page loads /measure.js twice", "/measure.js", ""}},
		},
		{
			name: "another script",
			doc:  `<script src="/x.js"></script>`,
			want: []want{{`a <script> other than <script src="/measure.js" defer>`, "<script", ""}},
		},
		{
			name: "an inline script",
			doc:  `<script>alert(1)</script>`,
			want: []want{{"a <script> other than", "<script", ""}},
		},
		{
			name: "the counter async",
			doc:  `<script src="/measure.js" defer async></script>`,
			want: []want{{"a <script> other than", "<script", ""}},
		},
		{
			name: "the counter not deferred",
			doc:  `<script src="/measure.js"></script>`,
			want: []want{{"a <script> other than", "<script", ""}},
		},
		{
			name: "a click control that does not say so",
			doc:  `<button type="button" data-measure-click="copy-sketch">Copy</button>`,
			want: []want{{`the click control "copy-sketch" reads "Copy": its visible text must say that it records a click`, "copy-sketch", ""}},
		},
		{
			name: "a click control that does not say so, its text in an element",
			doc:  `<button type="button" data-measure-click="copy-sketch"><span class="x">Copy</span> it</button>`,
			want: []want{{`the click control "copy-sketch" reads "Copy it": its visible text must say that it records a click`, "copy-sketch", ""}},
		},
		{
			name: "a reserved click name",
			doc:  `<button type="button" data-measure-click="engaged">x (records a click)</button>`,
			want: []want{{`the click name "engaged" is reserved for the counter's own events`, "engaged", ""}},
		},
		{
			name: "a malformed click name",
			doc:  `<button type="button" data-measure-click="Copy_Sketch">x (records a click)</button>`,
			want: []want{{`the click name "Copy_Sketch" must be at most 64 lowercase letters, digits and -`, "Copy_Sketch", ""}},
		},
		{
			// The receiver (event.Parse) refuses a name over 64: its clicks would never count.
			name: "a click name of 65 characters",
			doc:  `<button type="button" data-measure-click="` + strings.Repeat("a", 65) + `">x (records a click)</button>`,
			want: []want{{`must be at most 64 lowercase letters, digits and -`, strings.Repeat("a", 65), ""}},
		},
		{
			name: "a click name of 64 characters",
			doc:  `<button type="button" data-measure-click="` + strings.Repeat("a", 64) + `">x (records a click)</button>`,
		},
		{
			name: "a click name on a link",
			doc:  `<a href="/" data-measure-click="copy-x">x (records a click)</a>`,
			want: []want{{`data-measure-click="copy-x" belongs on a <button type="button">`, "copy-x", ""}},
		},
		{
			name: "a click control that submits",
			doc:  `<button data-measure-click="copy-x">x (records a click)</button>`,
			want: []want{{`belongs on a <button type="button">`, "copy-x", ""}},
		},
		{
			name: "an unknown checkout word",
			doc:  `<a href="/pay/" data-checkout="stripe">Pay</a>`,
			want: []want{{`the checkout word "stripe" must be gumroad or site`, "stripe", ""}},
		},
		{
			name: "a checkout word off a link",
			doc:  `<button type="button" data-checkout="site">Pay</button>`,
			want: []want{{`data-checkout="site" belongs on a link, <a href=...>`, "site", ""}},
		},
		{
			name: "a link to a missing id",
			doc:  `<h2 id="a">A</h2><a href="#nowhere">x</a>`,
			want: []want{{"the link to #nowhere names no id on the page", "#nowhere", ""}},
		},
		{
			name: "an id made twice",
			doc:  `<main id="main"><h2 id="main">Main</h2></main>`,
			want: []want{{`the id "main" is used twice`, "main", "main"}},
		},
		{
			name: "an inline handler",
			doc:  `<p onclick="x()">x</p>`,
			want: []want{{"<p onclick=...>: inline event handlers are not allowed", "onclick", ""}},
		},
		{
			name: "an inline style",
			doc:  `<p style="color:red">x</p>`,
			want: []want{{"<p style=...>: inline styles are not allowed", "style=", ""}},
		},
		{
			name: "an iframe",
			doc:  `<iframe src="/x"></iframe>`,
			want: []want{{"<iframe> is not allowed on these pages", "<iframe", ""}},
		},
		{
			name: "a form",
			doc:  `<form></form>`,
			want: []want{{"<form> is not allowed", "<form", ""}},
		},
		{
			name: "javascript: in capitals",
			doc:  `<a href="JavaScript:alert(1)">x</a>`,
			want: []want{{"<a href=...>: link \"JavaScript:alert(1)\" uses the scheme javascript", "JavaScript:alert(1)", ""}},
		},
		{
			name: "javascript: after a tab reference",
			doc:  `<a href="java&#9;script:alert(1)">x</a>`,
			want: []want{{"holds a control character", "java\tscript:alert(1)", ""}},
		},
		{
			name: "data: in an image",
			doc:  `<img src="data:image/svg+xml,x">`,
			want: []want{{"<img src=...>: link \"data:image/svg+xml,x\" uses the scheme data", "data:image/svg+xml,x", ""}},
		},
		{
			name: "a handler inside SVG",
			doc:  `<svg><circle onclick="x()"/></svg>`,
			want: []want{{"<circle onclick=...>", "onclick", ""}},
		},
		{
			name: "a missing id inside SVG",
			doc:  `<svg><a href="#gone"><text>x</text></a></svg>`,
			want: []want{{"the link to #gone names no id", "#gone", ""}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Check([]byte(tc.doc))
			if p.Counter != tc.counter || p.Markers != tc.markers {
				t.Errorf("counter %v, %d markers; want %v, %d", p.Counter, p.Markers, tc.counter, tc.markers)
			}
			if len(p.Problems) != len(tc.want) {
				t.Fatalf("problems %q, want %d", p.Problems, len(tc.want))
			}
			for i, w := range tc.want {
				got := p.Problems[i]
				if !strings.Contains(got.Msg, w.words) || got.Needle != w.needle || got.ID != w.id {
					t.Errorf("problem %d = %+v\nwant  msg holding %q, needle %q, id %q", i, got, w.words, w.needle, w.id)
				}
			}
		})
	}
}

// TestLoads: the stylesheets and scripts a page loads, in order, which
// the size summary measures with it; a stylesheet in <noscript> loads only
// without scripts, an icon or a link to a page is not loaded with it, and
// structured data is no file.
func TestLoads(t *testing.T) {
	doc := `<html><head><link rel="stylesheet" href="/style.0123456789.css"><link rel=STYLESHEET href=/index.css>` +
		`<noscript><link rel="stylesheet" href="/noscript.css"></noscript><link rel="icon" href="/favicon.svg">` +
		counter + `<script type="application/ld+json">{}</script></head>` +
		`<body><a href="/other/">x</a><script src="/filter.js" defer></script></body></html>`
	got := Check([]byte(doc)).Loads
	want := []string{"/style.0123456789.css", "/index.css", "/measure.js", "/filter.js"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Loads = %q, want %q", got, want)
	}
}
