package markdown

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"errref/internal/highlight"
)

// first is the line of the file a test's Markdown starts on, as if after
// front matter, so that every line a test expects is counted from the
// file, not from the body.
const first = 10

// settings are a page's with the counter on and every setting set; the
// partial "offer" exists.
func settings() Options {
	return Options{
		Contact:        "reports@errref.test",
		Wallet:         "0x52908400098527886E0F7030069857D2E4169EE7",
		PaymentContact: "orders@errref.test",
		Storefront:     "https://store.errref.test/l/guide",
		PayPage:        "/pay/",
		Counter:        true,
		Partial: func(name string) ([]byte, error) {
			if name == "offer" {
				return []byte("<aside class=offer>OFFER</aside>\n"), nil
			}
			return nil, errors.New(`no partial "` + name + `"`)
		},
	}
}

// TestRender holds the output of each Markdown feature the site's pages
// use to a snippet of the HTML it must give, and what it must not.
func TestRender(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		set  func(*Options) // changes to settings(), or nil
		want []string       // each in the HTML
		not  []string       // none in the HTML
	}{
		{
			name: "heading with its anchor",
			src:  "## The `McpError` class\n",
			want: []string{`<h2 id="the-mcperror-class">The <code>McpError</code> class <a class="anchor" href="#the-mcperror-class" aria-label="Link to the section The McpError class">#</a></h2>`},
		},
		{
			name: "h3 with its anchor",
			src:  "### On SDK v2.0.0\n",
			want: []string{`<h3 id="on-sdk-v200">On SDK v2.0.0 <a class="anchor" href="#on-sdk-v200"`, `</a></h3>`},
		},
		{
			name: "paragraph: a line break is a space, as the browser shows it, but for a hard one",
			src:  "One\ntwo & 1 < 2.  \nFour\\\nfive.\n",
			want: []string{"<p>One two &amp; 1 &lt; 2.<br>\nFour<br>\nfive.</p>\n"},
		},
		{
			name: "code fence with a language",
			src:  "```python\nraise McpError(x)\n```\n",
			want: []string{
				`<figure class="code"><pre id="code-1" class="c-chroma" tabindex="0"><code class="language-python">`,
				`<span class="c-k">raise</span>`,
				"</code></pre></figure>",
			},
			not: []string{"<button", "<figcaption"},
		},
		{
			name: "code fence without a language is plain text",
			src:  "```\na < b\n```\n",
			want: []string{`<code>a &lt; b`},
			not:  []string{"language-"},
		},
		{
			name: "code blocks are numbered in order",
			src:  "```text\na\n```\n\n```text\nb\n```\n",
			want: []string{`<pre id="code-1"`, `<pre id="code-2"`},
		},
		{
			name: "cite= captions the block with a link to the lines",
			src:  "```python cite=modelcontextprotocol/python-sdk@v1.29.0:src/mcp/shared/session.py#305-306\nraise McpError(x)\n```\n",
			want: []string{`<figcaption>Source: <a href="https://github.com/modelcontextprotocol/python-sdk/blob/v1.29.0/src/mcp/shared/session.py#L305-L306">src/<wbr>mcp/<wbr>shared/<wbr>session.<wbr>py, lines 305-306</a> (v1.29.0)</figcaption></figure>`},
		},
		{
			name: "copy= adds the click control",
			src:  "```python copy=copy-sketch\nx = 1\n```\n",
			want: []string{`</pre><button type="button" class="copy" data-measure-click="copy-sketch" data-copy="code-1" aria-live="polite">Copy the code (records a click)</button></figure>`},
		},
		{
			name: "label= changes the control's text",
			src:  "```python copy=copy-sketch label=\"Copy it, \\\"as is\\\" (records a click)\"\nx = 1\n```\n",
			want: []string{`data-copy="code-1" aria-live="polite">Copy it, &#34;as is&#34; (records a click)</button>`},
		},
		{
			name: "cite= and copy= together",
			src:  "```python cite=encode/httpx@0.28.1:httpx/_client.py#7 copy=copy-x\nx = 1\n```\n",
			want: []string{`(0.28.1)</figcaption><button type="button" class="copy" data-measure-click="copy-x"`},
		},
		{
			name: "inline cite: link",
			src:  "See [`raise McpError(`](cite:encode/httpx@0.28.1:httpx/_client.py#12).\n",
			want: []string{`<p>See <code>raise McpError(</code> <a class="src" href="https://github.com/encode/httpx/blob/0.28.1/httpx/_client.py#L12">(httpx/<wbr>_client.<wbr>py, line 12)</a>.</p>`},
		},
		{
			name: "link with a title",
			src:  "[the spec](https://modelcontextprotocol.io/spec \"MCP\") and [home](/).\n",
			want: []string{`<a href="https://modelcontextprotocol.io/spec" title="MCP">the spec</a>`, `<a href="/">home</a>`},
		},
		{
			name: "link to a section",
			src:  "[below](#the-fix)\n",
			want: []string{`<a href="#the-fix">below</a>`},
		},
		{
			name: "autolinks, a URL and an e-mail address",
			src:  "<https://errref.test/x> <me@errref.test> and https://bare.errref.test\n",
			want: []string{
				`<a href="https://errref.test/x">https://errref.test/x</a>`,
				`<a href="mailto:me@errref.test">me@errref.test</a>`,
				`<a href="https://bare.errref.test">https://bare.errref.test</a>`,
			},
		},
		{
			name: "checkout links",
			src:  "[Buy](checkout:gumroad) or [pay](checkout:site).\n",
			want: []string{`<a href="https://store.errref.test/l/guide" data-checkout="gumroad">Buy</a>`, `<a href="/pay/" data-checkout="site">pay</a>`},
		},
		{
			// The address is never invented: the text stays, unlinked.
			name: "checkout link with the storefront unset",
			src:  "[Buy](checkout:gumroad).\n",
			set:  func(s *Options) { s.Storefront = "" },
			want: []string{`<span class="unset">Buy [storefront_url is not set]</span>`},
			not:  []string{"<a "},
		},
		{
			name: "settings",
			src:  "<setting:contact>, <setting:payment_contact>, <setting:wallet>\n",
			want: []string{
				`<a href="mailto:reports@errref.test">reports@errref.test</a>`,
				`<a href="mailto:orders@errref.test">orders@errref.test</a>`,
				`<code class="wallet">0x52908400098527886E0F7030069857D2E4169EE7</code>`,
			},
		},
		{
			name: "settings unset",
			src:  "<setting:wallet> <setting:payment_contact>\n",
			set:  func(s *Options) { s.Wallet, s.PaymentContact = "", "" },
			want: []string{`<strong class="unset">[wallet is not set]</strong> <strong class="unset">[payment_contact is not set]</strong>`},
		},
		{
			name: "a partial alone in a paragraph",
			src:  "Before.\n\n{{< offer >}}\n\nAfter.\n",
			want: []string{"<p>Before.</p>\n<aside class=offer>OFFER</aside>\n<p>After.</p>"},
			not:  []string{"{{<"},
		},
		{
			name: "a mark quoted as code is text",
			src:  "Write `{{< offer >}}` alone.\n",
			want: []string{"<p>Write <code>{{&lt; offer &gt;}}</code> alone.</p>"},
			not:  []string{"OFFER"},
		},
		{
			name: "GFM table, a tab stop: it may scroll sideways on a phone",
			src:  "| a | b |\n|---|:-:|\n| 1 | `x.y` |\n",
			want: []string{"<table tabindex=\"0\">\n<thead>\n<tr>\n<th>a</th>\n<th style=\"text-align:center\">b</th>", "<td>1</td>\n<td style=\"text-align:center\"><code>x.y</code></td>"},
		},
		{
			name: "GFM strikethrough and lists",
			src:  "~~old~~\n\n- one\n- two\n\n1. first\n",
			want: []string{"<del>old</del>", "<ul>\n<li>one</li>\n<li>two</li>\n</ul>", "<ol>\n<li>first</li>\n</ol>"},
		},
		{
			// Inline, the tags go and the text between them stays, as
			// text.
			name: "raw HTML is dropped",
			src:  "<div onclick=\"x()\">block</div>\n\nHi <b>there</b><script>alert(1)</script>.\n",
			want: []string{"<p>Hi therealert(1).</p>"},
			not:  []string{"<div", "<b>", "<script", "onclick", "block"},
		},
		{
			// Code and error messages stay copyable byte for byte.
			name: "no typographer",
			src:  "\"quoted\" -- 'it's' ...\n",
			want: []string{"<p>&quot;quoted&quot; -- 'it's' ...</p>"},
			not:  []string{"\u201c", "\u2013", "\u2019", "\u2026"},
		},
		{
			name: "inline code wraps after dots",
			src:  "`mcp.shared.exceptions.McpError` and `read_timeout_seconds`\n",
			want: []string{"<code>mcp.<wbr>shared.<wbr>exceptions.<wbr>McpError</code>", "<code>read_<wbr>timeout_<wbr>seconds</code>"},
		},
		{
			name: "inline code keeps its characters, escaped",
			src:  "`a<b && \"c\"`\n",
			want: []string{"<code>a&lt;b &amp;&amp; &#34;c&#34;</code>"},
		},
		{
			name: "inline code over two lines reads the line's end as a space",
			src:  "See `raise\nMcpError(` here.\n",
			want: []string{"<p>See <code>raise McpError(</code> here.</p>"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := settings()
			if tc.set != nil {
				tc.set(&s)
			}
			res, err := Render([]byte(tc.src), first, s)
			if err != nil {
				t.Fatal(err)
			}
			got := string(res.HTML)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("the HTML lacks\n%s\nin\n%s", w, got)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(got, n) {
					t.Errorf("the HTML holds %q:\n%s", n, got)
				}
			}
		})
	}
}

// TestRenderErrors: each mark a page may get wrong fails the render with
// the line of the file to fix (the caller adds the file's name).
func TestRenderErrors(t *testing.T) {
	const spec = "encode/httpx@0.28.1:httpx/_client.py#12"
	for _, tc := range []struct {
		name  string
		src   string
		set   func(*Options) // changes to settings(), or nil
		line  int            // of the file: first is the src's first line
		words []string       // in the error
	}{
		{"an h1", "Intro.\n\n# Title\n", nil, 12, []string{"a page has one h1", "## headings"}},
		{"a mark inside a sentence", "Intro.\n\nSee {{< offer >}} below.\n", nil, 12, []string{"{{< offer >}} is not alone in its paragraph", "a line of its own"}},
		{"a mark on a paragraph's second line", "Intro.\n\nSee\n{{< offer >}}\n", nil, 12, []string{"{{< offer >}} is not alone in its paragraph"}},
		{"a mark in a list item", "Intro.\n\n- a\n- {{< marker >}}\n", nil, 13, []string{"{{< marker >}} is not alone in its paragraph"}},
		{"a mark in a table cell", "| a |\n|---|\n| {{< offer >}} |\n", nil, 12, []string{"{{< offer >}} is not alone"}},
		{"a mark in a heading", "## The {{< offer >}}\n", nil, 10, []string{"{{< offer >}} is not alone"}},
		{"label= without copy=", "Text.\n\n```text label=\"Copy (records a click)\"\nx\n```\n", nil, 12, []string{"label= names the copy control's text", "copy=NAME"}},
		{"copy= without the counter", "```python copy=copy-x\nx = 1\n```\n", func(s *Options) { s.Counter = false }, 10, []string{"copy=copy-x: a copy control needs the counter", "counter = false"}},
		{"unknown fence attribute", "\n```python lang=go\nx\n```\n", nil, 11, []string{`unknown fence attribute "lang"`, "cite, copy and label"}},
		{"unreadable info string", "```python copy\nx\n```\n", nil, 10, []string{`cannot read "copy"`, "key=value"}},
		{"bad quoted value", "```python copy=x label=\"\\q\"\nx\n```\n", nil, 10, []string{"bad quoted value for label"}},
		{"fence cite= not a spec", "```python cite=httpx/_client.py#12\nx\n```\n", nil, 10, []string{`citation "httpx/_client.py#12"`, "OWNER/REPO@VERSION:PATH#LINE"}},
		{"fence cite= lines backwards", "```python cite=encode/httpx@0.28.1:httpx/_client.py#9-3\nx\n```\n", nil, 10, []string{"lines must be 1 or more, the first no greater than the last"}},
		{"fence cite= path with ..", "```python cite=encode/httpx@0.28.1:httpx/../x.py#1\nx\n```\n", nil, 10, []string{"without . or .. parts"}},
		{"cite: link not a spec", "Text\nand [`x`](cite:encode/httpx#12).\n", nil, 11, []string{`citation "encode/httpx#12"`}},
		{"cite: link whose text is not code", "[the code](cite:" + spec + ")\n", nil, 10, []string{"a cite: link quotes code", "one `code span`"}},
		{"cite: link with more than code", "[`x` and more](cite:" + spec + ")\n", nil, 10, []string{"a cite: link quotes code"}},
		{"checkout word in emphasis", "Text\nand [*buy*](checkout:paypal)\n", nil, 11, []string{`checkout word "paypal"`}},
		{"checkout word", "Para.\n\n- one\n- [buy](checkout:paypal)\n", nil, 13, []string{`checkout word "paypal"`, "checkout:gumroad", "checkout:site"}},
		{"javascript: hidden by a tab", "Text.\n\n[x](<java\tscript:alert(1)>)\n", nil, 12, []string{`link "java\tscript:alert(1)" holds a control character`}},
		{"javascript: after a control character", "[x](<\x01javascript:alert(1)>)\n", nil, 10, []string{"holds a control character"}},
		{"vbscript: link", "A line,\nthen [x](VBScript:msgbox)\n", nil, 11, []string{`link "VBScript:msgbox" uses the scheme vbscript`, "http, https or mailto"}},
		{"data: link", "[x](data:text/html,hi)\n", nil, 10, []string{"uses the scheme data"}},
		{"javascript: autolink", "Text <javascript:alert(1)>\n", nil, 10, []string{"uses the scheme javascript"}},
		{"character reference in a link", "[x](&#106;avascript:alert(1))\n", nil, 10, []string{"holds a character reference", "write the character itself"}},
		{"unknown setting", "\n\n<setting:phone>\n", nil, 12, []string{`unknown setting "phone"`, "<setting:contact>"}},
		{"an autolink on a paragraph's second line", "Text\nand <javascript:alert(1)>\n", nil, 11, []string{"uses the scheme javascript"}},
		{"a partial that fails", "Text.\n\n{{< ofer >}}\n", nil, 12, []string{`{{< ofer >}}: no partial "ofer"`}},
		{"a partial on a page without partials", "{{< offer >}}\n", func(s *Options) { s.Partial = nil }, 10, []string{"{{< offer >}} includes a partial, and this page has none"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := settings()
			if tc.set != nil {
				tc.set(&s)
			}
			_, err := Render([]byte(tc.src), first, s)
			if err == nil {
				t.Fatalf("Render passed; want line %d: %q", tc.line, tc.words)
			}
			var at *LineError
			if !errors.As(err, &at) || at.Line != tc.line {
				t.Fatalf("error %q is not a *LineError at line %d", err, tc.line)
			}
			msg := at.Err.Error()
			if want := "line " + strconv.Itoa(tc.line) + ": " + msg; err.Error() != want {
				t.Errorf("error %q, want %q", err, want)
			}
			for _, w := range tc.words {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not hold %q", msg, w)
				}
			}
		})
	}
}

// TestSlowBlockNamesItsFence: a block over highlight.Limit fails at the
// line of its opening fence.
func TestSlowBlockNamesItsFence(t *testing.T) {
	old := highlight.Limit
	highlight.Limit = time.Nanosecond
	defer func() { highlight.Limit = old }()
	_, err := Render([]byte("Text.\n\n```python\nx = 1\n```\n"), first, settings())
	if err == nil || !strings.HasPrefix(err.Error(), "line 12: highlighting this python block took longer than 1ns") {
		t.Errorf("err = %v, want line 12: highlighting this python block took longer than 1ns", err)
	}
}

// TestWarnings: what renders but the author should hear of, by line.
func TestWarnings(t *testing.T) {
	const rawHTML = "raw HTML is not passed through; write Markdown, or ask for a template change"
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{"none", "## A\n\n```python\nx\n```\n", nil},
		{"raw HTML block and inline", "<div>x</div>\n\nText\nand <b>b</b>.\n", []string{"line 10: " + rawHTML, "line 13: " + rawHTML, "line 13: " + rawHTML}},
		{"unknown language", "Text.\n\n```klingon\nqapla'\n```\n", []string{`line 12: unknown code language "klingon": rendered as plain text`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Render([]byte(tc.src), first, settings())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range res.Warnings {
				got = append(got, w.Error())
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("warnings = %q\nwant       %q", got, tc.want)
			}
		})
	}
}

// TestIDs: the ids a page makes, each with the line that makes it, for the
// site to name when a template makes one too.
func TestIDs(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want map[string]int
	}{
		{"headings and blocks", "## Main\n\n```text\nx\n```\n\n### Sub part\n", map[string]int{"main": 10, "code-1": 12, "sub-part": 16}},
		// The heading's line wins: its text is what the author can change.
		{"a heading that a block's id repeats", "```text\nx\n```\n\n## Code 1\n", map[string]int{"code-1": 14}},
		{"the same heading twice", "## A\n\n## A\n", map[string]int{"a": 10, "a-1": 12}},
		{"a block without a language: its ``` line", "Text.\n\n```\nx\n```\n", map[string]int{"code-1": 12}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Render([]byte(tc.src), first, settings())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.IDs, tc.want) {
				t.Errorf("IDs = %v, want %v", res.IDs, tc.want)
			}
		})
	}
}

// TestCitations: every quote, block or inline, in the order of the page,
// with the code it quotes, the line its spec is written on and the bytes
// it is written in, however the spec is written; none for a reference link.
func TestCitations(t *testing.T) {
	src := "```python cite=modelcontextprotocol/python-sdk@v1.29.0:src/mcp/shared/session.py#305-306\n" +
		"a = 1\nb = 2\n```\n\nThen [`raise  McpError(`](cite:encode/httpx@0.28.1:httpx/_client.py#12).\n" +
		"```go  copy=c cite=\"a/b@v1:c.go#L3-L4\" label=\"\\x41\"\nx\n```\n" +
		"[`a`]( <cite:a/b@v1:d.go#1>) and [`b`](\ncite:a/b@v1:e.go#2), [`c`][r] and [``` `d` ```](cite:a/b@v1:f.go#3)\n\n" +
		"```cite=\"a/b@v1:\\x67.go#5\"\ny\n```\n\n" +
		"[r]: cite:a/b@v1:r.go#4\n"
	res, err := Render([]byte(src), first, settings())
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		Spec, Quote, Written string
		Line                 int
	}
	want := []got{
		{"modelcontextprotocol/python-sdk@v1.29.0:src/mcp/shared/session.py#305-306", "a = 1\nb = 2\n", "modelcontextprotocol/python-sdk@v1.29.0:src/mcp/shared/session.py#305-306", first},
		{"encode/httpx@0.28.1:httpx/_client.py#12", "raise  McpError(", "encode/httpx@0.28.1:httpx/_client.py#12", first + 5},
		{"a/b@v1:c.go#3-4", "x\n", "a/b@v1:c.go#L3-L4", first + 6},
		{"a/b@v1:d.go#1", "a", "a/b@v1:d.go#1", first + 9},
		{"a/b@v1:e.go#2", "b", "a/b@v1:e.go#2", first + 10},
		{"a/b@v1:r.go#4", "c", "", first + 10},
		{"a/b@v1:f.go#3", "`d`", "a/b@v1:f.go#3", first + 10},
		{"a/b@v1:g.go#5", "y\n", "", first + 12},
	}
	var gots []got
	for _, c := range res.Citations {
		gots = append(gots, got{c.Spec.String(), c.Quote, src[c.Span[0]:c.Span[1]], c.Line})
	}
	if !reflect.DeepEqual(gots, want) {
		t.Errorf("citations = %+v\nwant        %+v", gots, want)
	}
}
