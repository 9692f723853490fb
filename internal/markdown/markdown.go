// Package markdown renders a page's Markdown to HTML with goldmark and the
// marks this site adds (docs/writing.md). Raw HTML is dropped and the
// typographer off, so that code and error messages stay copyable byte for byte.
package markdown

import (
	"bufio"
	"bytes"
	"fmt"
	"html"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	goldhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"errref/internal/cite"
	"errref/internal/event"
	"errref/internal/highlight"
	"errref/internal/linebreak"
	"errref/internal/urlcheck"
)

// includeRE is a paragraph that includes a partial template, such as
// {{< marker >}} (where the explaining part ends) or {{< errors >}}.
var includeRE = regexp.MustCompile(`^\{\{<\s*([a-z0-9-]+)\s*>\}\}$`)

// Options are the site values <setting:NAME> and checkout links name (""
// is unset), and how to include a partial.
type Options struct {
	Contact        string                            // e-mail address: <setting:contact>
	Wallet         string                            // wallet address: <setting:wallet>
	Storefront     string                            // URL of the storefront listing: [..](checkout:gumroad)
	PayPage        string                            // path of the payment page: [..](checkout:site)
	Counter        bool                              // the page loads the counter, which a copy control needs
	PaymentContact string                            // where a USDC buyer e-mails the hash: <setting:payment_contact>
	Guide          string                            // the guide's name on the storefront: <setting:guide>
	Partial        func(name string) ([]byte, error) // renders the partial NAME for {{< NAME >}}
}

// A Citation is a quote of library source on the page, and where its
// spec is written, so that no one searches the text for it again.
type Citation struct {
	cite.Spec
	Quote string
	Line  int    // of the file, where the spec is written
	Span  [2]int // the bytes of src the spec is written in; zero when it cannot be said (a reference link)
}

// Result is a rendered page body.
type Result struct {
	HTML      []byte
	Citations []Citation     // in document order
	Warnings  []*LineError   // what renders, but its author should hear of
	IDs       map[string]int // the ids the page's headings and code blocks make, by line
}

// A LineError is what is wrong at a line of the page's file: the error
// Render stops at, or a warning. The caller, which knows the file, names it.
type LineError struct {
	Line int // of the file, from 1
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// md is set up once: its parser keeps no state between documents, and its
// node functions find the page's state on the writer, a *pageRenderer.
var md = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	// goldmark's own renderer, without unsafe (raw HTML is omitted), does
	// the node kinds that nodeFuncs, of higher priority, leaves to it.
	goldmark.WithRenderer(renderer.NewRenderer(renderer.WithNodeRenderers(
		util.Prioritized(goldhtml.NewRenderer(), 1000),
		util.Prioritized(nodeFuncs{}, 100),
	))),
)

// Render converts src, whose first line is line firstLine of its file.
// Its error and its warnings are each a *LineError, at a line of that file.
func Render(src []byte, firstLine int, s Options) (Result, error) {
	var b bytes.Buffer
	r := &pageRenderer{BufWriter: bufio.NewWriter(&b), src: src, first: firstLine, set: s,
		Result: Result{IDs: map[string]int{}}, code: map[*ast.FencedCodeBlock]func(io.Writer) error{}}
	doc := md.Parser().Parse(text.NewReader(src))
	if err := r.inspect(doc); err != nil {
		return Result{}, err
	}
	if err := md.Renderer().Render(r, src, doc); err != nil {
		return Result{}, err
	}
	r.HTML = b.Bytes()
	return r.Result, nil
}

// pageRenderer is one page's rendering: the writer its HTML goes to and
// what the node functions learn on the way, its Result.
type pageRenderer struct {
	util.BufWriter
	Result
	src   []byte
	first int
	set   Options
	codes int
	code  map[*ast.FencedCodeBlock]func(io.Writer) error // highlighting begun by inspect
}

// madeID records the line that makes id. A heading's line wins over a code
// block's: the author chose the heading's text, not the block's number.
func (r *pageRenderer) madeID(id string, n ast.Node) {
	if _, ok := r.IDs[id]; !ok || n.Kind() == ast.KindHeading {
		r.IDs[id] = r.line(n)
	}
}

// nodeFuncs registers the node kinds this site renders itself, as methods
// of the page: the writer goldmark hands them, which holds the source too.
type nodeFuncs struct{}

func (nodeFuncs) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	for kind, f := range map[ast.NodeKind]func(*pageRenderer, ast.Node, bool) (ast.WalkStatus, error){
		ast.KindHeading:         (*pageRenderer).heading,
		ast.KindFencedCodeBlock: (*pageRenderer).fenced,
		ast.KindLink:            (*pageRenderer).link,
		ast.KindAutoLink:        (*pageRenderer).autoLink,
		ast.KindCodeSpan:        (*pageRenderer).codeSpan,
		ast.KindText:            (*pageRenderer).text,
		ast.KindParagraph:       (*pageRenderer).paragraph,
		ast.KindRawHTML:         (*pageRenderer).rawHTML,
		ast.KindHTMLBlock:       (*pageRenderer).rawHTML,
	} {
		reg.Register(kind, func(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
			return f(w.(*pageRenderer), n, entering)
		})
	}
}

// line is the line of the file on which n starts, as goldmark records
// it: a fence's ``` line, a link's own line (not its paragraph's first).
func (r *pageRenderer) line(n ast.Node) int {
	return r.first + bytes.Count(r.src[:max(n.Pos(), 0)], []byte("\n"))
}

// cited records a citation whose spec, written as raw, is at src[at:],
// or, when at is negative, somewhere in n.
func (r *pageRenderer) cited(n ast.Node, spec cite.Spec, quote, raw string, at int) {
	c := Citation{Spec: spec, Quote: quote, Line: r.line(n)}
	if at >= 0 {
		c.Span = [2]int{at, at + len(raw)}
		c.Line = r.first + bytes.Count(r.src[:at], []byte("\n"))
	}
	r.Citations = append(r.Citations, c)
}

// linkSpecAt is where a cite: link's spec is written, after its code span
// cs, "](" and "cite:"; -1 for a reference link, written elsewhere.
func linkSpecAt(cs *ast.CodeSpan, src []byte, dest string) int {
	t, ok := cs.LastChild().(*ast.Text)
	if !ok {
		return -1
	}
	rest := bytes.TrimLeft(src[t.Segment.Stop:], " `")
	rest, ok = bytes.CutPrefix(rest, []byte("]("))
	if !ok {
		return -1
	}
	rest = bytes.TrimLeft(bytes.TrimLeft(rest, " \t\n"), "<")
	if !bytes.HasPrefix(rest, []byte(dest)) {
		return -1
	}
	return len(src) - len(rest) + len("cite:")
}

// fail stops the page with an error on n's line.
func (r *pageRenderer) fail(n ast.Node, format string, args ...any) (ast.WalkStatus, error) {
	return ast.WalkStop, &LineError{Line: r.line(n), Err: fmt.Errorf(format, args...)}
}

func (r *pageRenderer) warn(n ast.Node, format string, args ...any) {
	r.Warnings = append(r.Warnings, &LineError{Line: r.line(n), Err: fmt.Errorf(format, args...)})
}

// inspect refuses what a page must not contain before anything is written,
// and starts highlighting every fenced block, side by side.
func (r *pageRenderer) inspect(doc ast.Node) error {
	return ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if fc, ok := n.(*ast.FencedCodeBlock); ok {
			if lang, _, _, err := parseInfo(fc, r.src); err == nil {
				r.code[fc] = highlight.Start(lang, string(fc.Lines().Value(r.src)))
			}
		}
		// A table wider than a phone scrolls inside itself: a keyboard
		// reaches it as it does a code block, as a tab stop.
		if _, ok := n.(*extast.Table); ok {
			n.SetAttributeString("tabindex", "0")
		}
		if h, ok := n.(*ast.Heading); ok && h.Level == 1 {
			return r.fail(n, "a page has one h1, its title from the front matter: write sections as ## headings")
		}
		// A mark renders alone in its paragraph; elsewhere it would be text.
		if n.Type() == ast.TypeBlock && n.FirstChild() != nil && n.FirstChild().Type() == ast.TypeInline {
			if _, alone := n.(*ast.Paragraph); alone && includeRE.MatchString(strings.TrimSpace(string(n.Lines().Value(r.src)))) {
				return ast.WalkSkipChildren, nil
			}
			if m := strayMarkRE.FindString(inlineText(n, r.src, true)); m != "" {
				return r.fail(n, "%s is not alone in its paragraph, so it would be published as text: put it on a line of its own, with a blank line before and after", m)
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
}

// strayMarkRE finds a mark, {{< NAME >}}, in running text.
var strayMarkRE = regexp.MustCompile(`\{\{<.*?>\}\}|\{\{<`)

// inlineText is the text of n's inline children, each code span a space
// when skipCode.
func inlineText(n ast.Node, src []byte, skipCode bool) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.CodeSpan:
			if skipCode {
				b.WriteByte(' ')
				return ast.WalkSkipChildren, nil
			}
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() {
				b.WriteByte(' ')
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

func (r *pageRenderer) heading(n ast.Node, entering bool) (ast.WalkStatus, error) {
	h := n.(*ast.Heading)
	id, _ := h.AttributeString("id")
	idStr := fmt.Sprintf("%s", id)
	if entering {
		r.madeID(idStr, n)
		fmt.Fprintf(r, `<h%d id="%s">`, h.Level, html.EscapeString(idStr))
		return ast.WalkContinue, nil
	}
	fmt.Fprintf(r, ` <a class="anchor" href="#%s" aria-label="Link to the section %s">#</a></h%d>`+"\n",
		html.EscapeString(idStr), html.EscapeString(inlineText(h, r.src, false)), h.Level)
	return ast.WalkContinue, nil
}

func (r *pageRenderer) paragraph(n ast.Node, entering bool) (ast.WalkStatus, error) {
	m := includeRE.FindStringSubmatch(strings.TrimSpace(string(n.Lines().Value(r.src))))
	switch {
	case m == nil && entering:
		r.WriteString("<p>")
	case m == nil:
		r.WriteString("</p>\n")
	case !entering:
	case r.set.Partial == nil:
		return r.fail(n, "{{< %s >}} includes a partial, and this page has none", m[1])
	default:
		out, err := r.set.Partial(m[1])
		if err != nil {
			return r.fail(n, "{{< %s >}}: %v", m[1], err)
		}
		r.Write(out)
		return ast.WalkSkipChildren, nil // on leaving, goldmark reads only WalkStop
	}
	return ast.WalkContinue, nil
}

func (r *pageRenderer) rawHTML(n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		r.warn(n, "raw HTML is not passed through; write Markdown, or ask for a template change")
	}
	return ast.WalkSkipChildren, nil
}

// infoRE reads a key=value attribute of a fence's info string; a value may
// be double-quoted.
var infoRE = regexp.MustCompile(`^([a-z-]+)=("(?:[^"\\]|\\.)*"|\S+)`)

// parseInfo reads a fence's info string: the language, the attributes, and
// where in src the cite value is written (-1 when escaped in quotes).
func parseInfo(fc *ast.FencedCodeBlock, src []byte) (lang string, attrs map[string]string, citeAt int, err error) {
	info, start := "", 0 // start: where info is in src
	if fc.Info != nil {
		info, start = string(fc.Info.Segment.Value(src)), fc.Info.Segment.Start
	}
	info = strings.TrimRightFunc(info, unicode.IsSpace)
	rest := strings.TrimLeftFunc(info, unicode.IsSpace) // what is not read yet, the end of info
	if word, _, _ := strings.Cut(rest, " "); !strings.Contains(word, "=") {
		lang, rest = word, strings.TrimLeftFunc(rest[len(word):], unicode.IsSpace)
	}
	attrs, citeAt = map[string]string{}, -1
	for rest != "" {
		m := infoRE.FindStringSubmatch(rest)
		if m == nil {
			return "", nil, -1, fmt.Errorf("cannot read %q in the fence's info string: write key=value or key=\"quoted value\"", rest)
		}
		k, v := m[1], m[2]
		valueAt := start + len(info) - len(rest) + len(k+"=")
		rest = strings.TrimLeftFunc(rest[len(m[0]):], unicode.IsSpace)
		if written, quoted := strings.CutPrefix(v, `"`); quoted {
			if v, err = strconv.Unquote(v); err != nil {
				return "", nil, -1, fmt.Errorf("bad quoted value for %s: %v", k, err)
			}
			valueAt++ // after the quote
			if strings.TrimSuffix(written, `"`) != v {
				valueAt = -1 // escaped: the value is not written as it reads
			}
		}
		switch k {
		case "cite":
			citeAt = valueAt
		case "copy", "label":
		default:
			return "", nil, -1, fmt.Errorf("unknown fence attribute %q: the attributes are cite, copy and label", k)
		}
		attrs[k] = v
	}
	return lang, attrs, citeAt, nil
}

// DefaultCopyLabel is the copy control's text; it says that pressing it
// records a click, as the notice promises.
const DefaultCopyLabel = "Copy the code (records a click)"

func (r *pageRenderer) fenced(n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	fc := n.(*ast.FencedCodeBlock)
	lang, attrs, citeAt, err := parseInfo(fc, r.src)
	if err != nil {
		return r.fail(n, "%v", err)
	}
	if err := highlight.Supported(lang); err != nil {
		r.warn(n, "%v: rendered as plain text", err)
	}
	r.codes++
	id := fmt.Sprintf("code-%d", r.codes)
	r.madeID(id, n)
	r.WriteString(`<figure class="code">`)
	// This <pre> is chroma's wrapper, with the id the copy control names.
	fmt.Fprintf(r, `<pre id="%s" class="%s" tabindex="0"><code`, id, highlight.WrapperClass)
	if lang != "" {
		fmt.Fprintf(r, ` class="language-%s"`, html.EscapeString(lang))
	}
	r.WriteString(">")
	// inspect began every block whose info string parses.
	if err := r.code[fc](r); err != nil {
		return r.fail(n, "%v", err)
	}
	r.WriteString("</code></pre>")
	if spec, ok := attrs["cite"]; ok {
		c, err := cite.Parse(spec)
		if err != nil {
			return r.fail(n, "%v", err)
		}
		r.cited(n, c, string(fc.Lines().Value(r.src)), spec, citeAt)
		fmt.Fprintf(r, `<figcaption>Source: <a href="%s">%s</a> (%s)</figcaption>`,
			html.EscapeString(c.URL()), linebreak.HTML(c.Label()), html.EscapeString(c.Version))
	}
	if name, ok := attrs["copy"]; ok {
		if !r.set.Counter {
			// The counter does the copying and records the click it promises.
			return r.fail(n, "copy=%s: a copy control needs the counter, and this page has counter = false", name)
		}
		// aria-live: a screen reader says "Copied" when measure.js sets it.
		label := DefaultCopyLabel
		if l, ok := attrs["label"]; ok {
			label = l
		}
		fmt.Fprintf(r, `<button type="button" class="copy" data-measure-click="%s" data-copy="%s" aria-live="polite">%s</button>`,
			html.EscapeString(name), id, html.EscapeString(label))
	} else if _, ok := attrs["label"]; ok {
		return r.fail(n, "label= names the copy control's text, and goes with copy=NAME")
	}
	r.WriteString("</figure>\n")
	return ast.WalkSkipChildren, nil
}

func (r *pageRenderer) link(n ast.Node, entering bool) (ast.WalkStatus, error) {
	l := n.(*ast.Link)
	dest := string(l.Destination)
	switch scheme, rest, _ := strings.Cut(dest, ":"); scheme {
	case "cite":
		if !entering {
			return ast.WalkContinue, nil
		}
		c, err := cite.Parse(rest)
		if err != nil {
			return r.fail(n, "%v", err)
		}
		cs, ok := l.FirstChild().(*ast.CodeSpan)
		if !ok || l.ChildCount() != 1 {
			return r.fail(n, "a cite: link quotes code: write its text as one `code span`, as in [`raise McpError(`](cite:...)")
		}
		quote := inlineText(cs, r.src, false)
		r.cited(n, c, quote, rest, linkSpecAt(cs, r.src, dest))
		fmt.Fprintf(r, `<code>%s</code> <a class="src" href="%s">(%s)</a>`, linebreak.HTML(quote), html.EscapeString(c.URL()), linebreak.HTML(c.Label()))
		return ast.WalkSkipChildren, nil
	case "checkout":
		href, ok := map[string]string{event.Gumroad: r.set.Storefront, event.Site: r.set.PayPage}[rest]
		switch {
		case !ok:
			return r.fail(n, "checkout word %q: a buy link is checkout:gumroad (the storefront listing) or checkout:site (the payment page)", rest)
		case href == "" && entering:
			// Never invent a storefront address: the text stands unlinked.
			r.WriteString(`<span class="unset">`)
		case href == "":
			r.WriteString(` [storefront_url is not set]</span>`)
		case entering:
			fmt.Fprintf(r, `<a href="%s" data-checkout="%s">`, html.EscapeString(href), rest)
		default:
			r.WriteString("</a>")
		}
		return ast.WalkContinue, nil
	}
	if entering {
		if html.UnescapeString(dest) != dest {
			return r.fail(n, "link %q holds a character reference: write the character itself", dest)
		}
		if err := urlcheck.Link(dest); err != nil {
			return r.fail(n, "%v", err)
		}
		fmt.Fprintf(r, `<a href="%s"`, html.EscapeString(dest))
		if len(l.Title) > 0 {
			fmt.Fprintf(r, ` title="%s"`, html.EscapeString(string(l.Title)))
		}
		r.WriteString(">")
	} else {
		r.WriteString("</a>")
	}
	return ast.WalkContinue, nil
}

// text is goldmark's, but writes a line break in a paragraph as a space,
// as the browser shows it: a break cuts a phrase gzip would have matched.
func (r *pageRenderer) text(n ast.Node, entering bool) (ast.WalkStatus, error) {
	t := n.(*ast.Text)
	switch {
	case !entering:
	case t.IsRaw():
		goldhtml.DefaultWriter.RawWrite(r, t.Segment.Value(r.src))
	default:
		goldhtml.DefaultWriter.Write(r, t.Segment.Value(r.src))
		if t.HardLineBreak() {
			r.WriteString("<br>\n")
		} else if t.SoftLineBreak() {
			r.WriteByte(' ')
		}
	}
	return ast.WalkContinue, nil
}

// codeSpan writes inline code as goldmark does, with <wbr> where a long name may wrap.
func (r *pageRenderer) codeSpan(n ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		fmt.Fprintf(r, "<code>%s</code>", linebreak.HTML(lineEnds.Replace(inlineText(n, r.src, false))))
	}
	return ast.WalkSkipChildren, nil
}

// lineEnds makes each line end in a code span a space, as CommonMark says, CRLF
// too: Git for Windows checks text out with CRLF (core.autocrlf).
var lineEnds = strings.NewReplacer("\r\n", " ", "\n", " ")

func (r *pageRenderer) autoLink(n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	al := n.(*ast.AutoLink)
	u := string(al.URL(r.src))
	if name, ok := strings.CutPrefix(u, "setting:"); ok {
		switch val, ok := map[string]string{"contact": r.set.Contact, "wallet": r.set.Wallet, "payment_contact": r.set.PaymentContact, "guide": r.set.Guide}[name]; {
		case !ok:
			return r.fail(n, "unknown setting %q: Markdown may name <setting:contact>, <setting:guide>, <setting:payment_contact> and <setting:wallet>", name)
		case val == "":
			fmt.Fprintf(r, `<strong class="unset">[%s is not set]</strong>`, name)
		case name == "wallet":
			fmt.Fprintf(r, `<code class="wallet">%s</code>`, html.EscapeString(val))
		case name == "guide":
			fmt.Fprintf(r, `<cite>%s</cite>`, html.EscapeString(val))
		default:
			fmt.Fprintf(r, `<a href="mailto:%[1]s">%[1]s</a>`, html.EscapeString(val))
		}
		return ast.WalkSkipChildren, nil
	}
	if err := urlcheck.Link(u); err != nil {
		return r.fail(n, "%v", err)
	}
	href := u
	if al.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
		href = "mailto:" + u
	}
	fmt.Fprintf(r, `<a href="%s">%s</a>`, html.EscapeString(href), html.EscapeString(string(al.Label(r.src))))
	return ast.WalkSkipChildren, nil
}
