package site

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"errref/internal/benchsite"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// copySite copies the real site folder into a temp dir, for a test to break.
func copySite(t testing.TB) string {
	t.Helper()
	dst := t.TempDir()
	for _, dir := range []string{ContentDir, TemplateDir, StaticDir, MeasureDir} {
		src := filepath.Join("..", "..", dir)
		filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(filepath.Join("..", ".."), p)
			if fi.IsDir() {
				return os.MkdirAll(filepath.Join(dst, rel), 0o755)
			}
			if strings.HasSuffix(p, "_test.go") {
				return nil
			}
			data, _ := os.ReadFile(p)
			return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
		})
	}
	data, _ := os.ReadFile(filepath.Join("..", "..", "site.toml"))
	os.WriteFile(filepath.Join(dst, "site.toml"), data, 0o644)
	return dst
}

func noEnv(string) string { return "" }

func edit(t *testing.T, root, name, old, new string) {
	t.Helper()
	p := filepath.Join(root, name)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if old != "" && !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s does not hold %q", name, old)
	}
	out := strings.Replace(string(data), old, new, 1)
	if old == "" {
		out = new
	}
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		name   string
		break_ func(t *testing.T, root string)
		want   string // in the error
	}{
		{"front matter not closed", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "counter = false\n+++\n", "counter = false\n")
		}, "content/404.md:1: front matter is not closed"},
		{"front matter not TOML", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", `noindex = true`, `noindex = = true`)
		}, "content/404.md:4: front matter is not valid TOML"},
		{"missing required key", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "description = \"This address does not hold a page.\"\n", "")
		}, `content/404.md:5: front matter lacks the required key "description"`},
		{"unknown key", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", `noindex = true`, `noindx = true`)
		}, `content/404.md:4: unknown front-matter key "noindx": the keys are title, description`},
		{"template does not parse", func(t *testing.T, r string) {
			edit(t, r, "templates/page.html", "{{.Page.Body}}", "{{.Page.Body")
		}, "templates/page.html:4: unexpected"},
		{"missing partial", func(t *testing.T, r string) {
			edit(t, r, "templates/base.html", `{{template "footer" .}}`, `{{template "footr" .}}`)
		}, `templates/base.html:36: names the partial "footr"`},
		{"partial missing from Markdown", func(t *testing.T, r string) {
			edit(t, r, "content/index.md", "{{< offer >}}", "{{< ofer >}}")
		}, `content/index.md:`},
		{"empty content", func(t *testing.T, r string) {
			for _, n := range []string{"index.md", "pay.md", "404.md"} {
				os.Remove(filepath.Join(r, "content", n))
			}
		}, "content/: no pages"},
		{"broken anchor", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "[the McpError page](/)", "[the McpError page](#nowhere)")
		}, "content/404.md:8: the link to #nowhere names no id"},
		{"two pages, one output", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "noindex = true", "noindex = true\nurl = \"/pay/\"")
		}, "both map to public/pay/index.html"},
		{"click control that does not say so", func(t *testing.T, r string) {
			edit(t, r, "content/index.md", "```python copy=copy-sketch", "```python copy=copy-sketch label=\"Copy\"")
		}, `content/index.md:268: the click control "copy-sketch" reads "Copy"`},
		{"reserved click name", func(t *testing.T, r string) {
			edit(t, r, "content/index.md", "copy=copy-sketch", "copy=engaged")
		}, `the click name "engaged" is reserved`},
		{"fence error names the fence line", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "Nothing lives", "```text label=\"Copy (records a click)\"\nx\n```\n\nNothing lives")
		}, "content/404.md:8: label= names the copy control's text"},
		{"malformed click name", func(t *testing.T, r string) {
			edit(t, r, "content/index.md", "copy=copy-sketch", "copy=Copy_Sketch")
		}, `the click name "Copy_Sketch" must be lowercase letters, digits and -`},
		{"checkout word, Markdown", func(t *testing.T, r string) {
			edit(t, r, "content/pay.md", "(checkout:gumroad)", "(checkout:paypal)")
		}, `content/pay.md:17: checkout word "paypal"`},
		{"checkout word, template", func(t *testing.T, r string) {
			edit(t, r, "templates/partials/offer.html", `data-checkout="site"`, `data-checkout="stripe"`)
		}, `templates/partials/offer.html:12 (rendering content/index.md): the checkout word "stripe"`},
		{"counter without marker", func(t *testing.T, r string) {
			edit(t, r, "content/index.md", "{{< marker >}}", "")
		}, "content/index.md:1: the page loads /measure.js and has 0 elements with data-measure-marker"},
		{"two markers", func(t *testing.T, r string) {
			edit(t, r, "content/index.md", "{{< offer >}}", "{{< marker >}}\n\n{{< offer >}}")
		}, "has 2 elements with data-measure-marker"},
		{"another script", func(t *testing.T, r string) {
			edit(t, r, "templates/base.html", "</body>", `<script src="/x.js"></script></body>`)
		}, `a <script> other than <script src="/measure.js" defer>`},
		{"a script in static", func(t *testing.T, r string) {
			os.WriteFile(filepath.Join(r, "static", "x.js"), []byte("1"), 0o644)
		}, "static/x.js: scripts are not copied"},
		{"an h1 in Markdown", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "Nothing lives", "# Title\n\nNothing lives")
		}, "content/404.md:8: a page has one h1"},
		{"a template that never ends", func(t *testing.T, r string) {
			// It writes, so it stops once the build gives up (one that
			// writes nothing would spin for the rest of the test binary).
			edit(t, r, "templates/page.html", "{{.Page.Body}}", "{{.Page.Body}}\n{{range 100000000000}}.{{end}}")
		}, "templates/page.html:4: took longer than 1s to render: this {{range}} may not end"},
		{"javascript: hidden by a tab", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "Nothing lives", "[x](<java\tscript:alert(1)>)\n\nNothing lives")
		}, "content/404.md:8: link \"java\\tscript:alert(1)\" holds a control character"},
		{"javascript: after a control character", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "Nothing lives", "[x](<\x01javascript:alert(1)>)\n\nNothing lives")
		}, "content/404.md:8: link"},
		{"vbscript: link", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "Nothing lives", "[x](VBScript:msgbox)\n\nNothing lives")
		}, "uses the scheme vbscript"},
		{"a script in static, in capitals", func(t *testing.T, r string) {
			os.WriteFile(filepath.Join(r, "static", "x.JS"), []byte("1"), 0o644)
		}, "static/x.JS: scripts are not copied"},
		{"static HTML with a script", func(t *testing.T, r string) {
			os.WriteFile(filepath.Join(r, "static", "page.html"), []byte("<!doctype html>\n<p>hi\n<script>alert(1)</script>"), 0o644)
		}, "static/page.html:3: a <script> other than"},
		{"static SVG with a handler", func(t *testing.T, r string) {
			os.WriteFile(filepath.Join(r, "static", "x.svg"), []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>`), 0o644)
		}, "static/x.svg:1: <svg onload=...>: inline event handlers are not allowed"},
		{"static file at a page's path", func(t *testing.T, r string) {
			os.MkdirAll(filepath.Join(r, "static", "pay"), 0o755)
			os.WriteFile(filepath.Join(r, "static", "pay", "index.html"), []byte("<!doctype html><title>x</title>"), 0o644)
		}, "content/pay.md:1: the page would be written to public/pay/index.html, which the build already writes"},
		{"endpoint a browser resolves off-site", func(t *testing.T, r string) {
			edit(t, r, "site.toml", `endpoint = "/api/event"`, `endpoint = "/\r/evil.example/collect"`)
		}, `endpoint "/\r/evil.example/collect" must be a same-origin path`},
		{"endpoint with a backslash", func(t *testing.T, r string) {
			edit(t, r, "site.toml", `endpoint = "/api/event"`, `endpoint = '/\evil.example/collect'`)
		}, "must be a same-origin path"},
		{"copy control without the counter", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "Nothing lives", "```python copy=copy-x\nx = 1\n```\n\nNothing lives")
		}, "content/404.md:8: copy=copy-x: a copy control needs the counter"},
		{"home page missing", func(t *testing.T, r string) {
			os.Remove(filepath.Join(r, "content", "index.md"))
		}, "content/index.md: missing: it is the site's home page"},
		{"url with a query", func(t *testing.T, r string) {
			edit(t, r, "content/pay.md", "counter = false", "counter = false\nurl = \"/a?b/\"")
		}, `content/pay.md:5: url "/a?b/" must be a path`},
		{"url with an escaped dot-dot", func(t *testing.T, r string) {
			edit(t, r, "content/pay.md", "counter = false", "counter = false\nurl = \"/%2e%2e/\"")
		}, `content/pay.md:5: url "/%2e%2e/" must be a path`},
		{"url with markup", func(t *testing.T, r string) {
			edit(t, r, "content/pay.md", "counter = false", "counter = false\nurl = \"/</loc><script>/\"")
		}, `content/pay.md:5: url`},
		{"url under a file", func(t *testing.T, r string) {
			edit(t, r, "content/pay.md", "counter = false", "counter = false\nurl = \"/404.html/\"")
		}, "content/pay.md:5: the page would be written to public/404.html/index.html, but public/404.html is a file"},
		{"not UTF-8", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "Nothing lives", "Caf\xe9\n\nNothing lives")
		}, "content/404.md:8: not UTF-8 at byte"},
		{"heading id that a template makes", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "Nothing lives", "## Main\n\nNothing lives")
		}, `content/404.md:8: the id "main" is used twice`},
		{"heading id that a code block makes", func(t *testing.T, r string) {
			edit(t, r, "content/index.md", "## What raises it", "## Code 1")
		}, `the id "code-1" is used twice`},
		{"template that fails while running", func(t *testing.T, r string) {
			edit(t, r, "templates/base.html", "{{.Site.Publisher}} error reference", "{{.Site.Publisher.Nope}} error reference")
		}, "templates/base.html:32: executing \"base\" at <.Site.Publisher.Nope>: can't evaluate field Nope in type string (rendering content/404.md, content/index.md, content/pay.md)"},
		{"home page in another case", func(t *testing.T, r string) {
			// Removed and written anew: a rename that changes only the
			// case does nothing under Wine.
			data, _ := os.ReadFile(filepath.Join(r, "content", "index.md"))
			os.Remove(filepath.Join(r, "content", "index.md"))
			os.WriteFile(filepath.Join(r, "content", "Index.md"), data, 0o644)
		}, "content/Index.md: the home page's file is index.md, in lower case: rename it to index.md"},
		{"a page's extension in capitals", func(t *testing.T, r string) {
			data, _ := os.ReadFile(filepath.Join(r, "content", "404.md"))
			os.WriteFile(filepath.Join(r, "content", "notes.MD"), data, 0o644)
		}, "content/notes.MD: a page's file ends in .md, in lower case: rename it to notes.md"},
		{"home page moved off /", func(t *testing.T, r string) {
			edit(t, r, "content/index.md", "+++\ntitle", "+++\nurl = \"/x/\"\ntitle")
		}, `content/index.md:2: url "/x/" moves the home page off /, and no page is /`},
		{"a url and a file name that differ only in case", func(t *testing.T, r string) {
			data, _ := os.ReadFile(filepath.Join(r, "content", "404.md"))
			os.WriteFile(filepath.Join(r, "content", "guide.md"), data, 0o644)
			edit(t, r, "content/pay.md", "counter = false", "counter = false\nurl = \"/Guide/\"")
		}, `content/guide.md:1: writes public/guide/index.html, and content/pay.md:5 writes public/Guide/index.html: "guide/index.html" and "Guide/index.html" differ only in case`},
		{"two urls that differ only in case", func(t *testing.T, r string) {
			edit(t, r, "content/404.md", "noindex = true", "noindex = true\nurl = \"/PAY/\"")
		}, `content/pay.md:1: writes public/pay/index.html, and content/404.md:5 writes public/PAY/index.html`},
		{"a page and a static folder that differ only in case", func(t *testing.T, r string) {
			os.MkdirAll(filepath.Join(r, "static", "Pay"), 0o755)
			os.WriteFile(filepath.Join(r, "static", "Pay", "qr.txt"), []byte("x"), 0o644)
		}, `content/pay.md:1: writes public/pay/index.html, and static/Pay/qr.txt writes public/Pay/qr.txt: "pay" and "Pay" differ only in case`},
		{"a static file and a generated one that differ only in case", func(t *testing.T, r string) {
			os.WriteFile(filepath.Join(r, "static", "Robots.txt"), []byte("x"), 0o644)
		}, `static/Robots.txt: writes public/Robots.txt, and the build's robots.txt writes public/robots.txt`},
		{"publish with settings unset", nil, "refusing to publish while these settings are unset: base_url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := copySite(t)
			publish := tc.break_ == nil
			if tc.break_ != nil {
				tc.break_(t, root)
			}
			_, err := Build(Options{Root: root, Getenv: noEnv, Publish: publish, Timeout: time.Second})
			if err == nil {
				t.Fatalf("the build passed; want an error with %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error:\n%v\nwant it to hold %q", err, tc.want)
			}
		})
	}
}

// TestPublishNeedsThePaymentContact: /pay/ tells a buyer where to e-mail
// the transaction hash, an address the seed never gives. -publish refuses
// while it is unset or a stand-in, and once set the page links to it, not
// to the address for error reports.
func TestPublishNeedsThePaymentContact(t *testing.T) {
	env := map[string]string{
		"URL":                 "https://errors.lilulab.net",
		"SITE_STOREFRONT_URL": "https://lilulab.gumroad.com/l/guide",
		"SITE_WALLET_ADDRESS": "0x52908400098527886E0F7030069857D2E4169EE7",
	}
	publish := func() (*Site, error) {
		return Build(Options{Root: filepath.Join("..", ".."), Getenv: func(k string) string { return env[k] }, Publish: true})
	}
	if _, err := publish(); err == nil || !strings.Contains(err.Error(), "payment_contact (or SITE_PAYMENT_CONTACT)") {
		t.Errorf("-publish without payment_contact: %v, want a refusal naming it", err)
	}
	env["SITE_PAYMENT_CONTACT"] = "hash@example.org"
	if _, err := publish(); err == nil || !strings.Contains(err.Error(), `payment_contact "hash@example.org"`) {
		t.Errorf("-publish with a stand-in payment_contact: %v, want a refusal naming it", err)
	}
	env["SITE_PAYMENT_CONTACT"] = "orders@lilulab.net"
	s, err := publish()
	if err != nil {
		t.Fatal(err)
	}
	if want := "transaction hash to <a href=mailto:orders@lilulab.net>"; !strings.Contains(text(s, "pay/index.html"), want) {
		t.Errorf("the payment page lacks %q", want)
	}
}

func TestUnknownFenceLanguageWarns(t *testing.T) {
	root := copySite(t)
	edit(t, root, "content/404.md", "Nothing lives", "```klingon\nqapla'\n```\n\nNothing lives")
	s, err := Build(Options{Root: root, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range s.Warnings {
		found = found || strings.Contains(w, `content/404.md:8: unknown code language "klingon": rendered as plain text`)
	}
	if !found {
		t.Errorf("warnings = %q", s.Warnings)
	}
	if !bytes.Contains(s.Files["404.html"], []byte("qapla")) {
		t.Error("the code was not rendered as plain text")
	}
}

func build(t testing.TB, env map[string]string) *Site {
	t.Helper()
	s, err := Build(Options{Root: filepath.Join("..", ".."), Getenv: func(k string) string { return env[k] }})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var publishEnv = map[string]string{
	"URL":                  "https://errors.example.org",
	"SITE_STOREFRONT_URL":  "https://store.example.org/l/guide",
	"SITE_WALLET_ADDRESS":  "0x1111111111111111111111111111111111111111",
	"SITE_PAYMENT_CONTACT": "hash@errors.example.org",
}

// text is a built file as one line: the <wbr> marks that let names wrap
// dropped and white space folded, so a phrase matches across both.
func text(s *Site, name string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(string(s.Files[name]), "<wbr>", "")), " ")
}

// TestGolden holds the rendered pages to testdata/: go test -update rewrites them.
func TestGolden(t *testing.T) {
	s := build(t, publishEnv)
	for _, name := range []string{"index.html", "pay/index.html", "404.html", "sitemap.xml", "robots.txt"} {
		golden := filepath.Join("testdata", "golden", strings.ReplaceAll(name, "/", "_"))
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			os.WriteFile(golden, s.Files[name], 0o644)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./internal/site -update)", err)
		}
		if !bytes.Equal(s.Files[name], want) {
			t.Errorf("%s differs from %s: run go test ./internal/site -update and read the diff", name, golden)
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, b := build(t, publishEnv), build(t, publishEnv)
	if len(a.Files) != len(b.Files) {
		t.Fatalf("%d files, then %d", len(a.Files), len(b.Files))
	}
	for name, data := range a.Files {
		if !bytes.Equal(data, b.Files[name]) {
			t.Errorf("%s differs between two builds", name)
		}
	}
}

func TestPageFacts(t *testing.T) {
	html := string(build(t, publishEnv).Files["index.html"])
	for _, want := range []string{
		"<title>mcp.shared.exceptions.McpError: Connection closed</title>",
		`<link rel=canonical href=https://errors.example.org/>`,
		`"@type":"TechArticle"`,
		`https://github.com/modelcontextprotocol/python-sdk/blob/v1.29.0/src/mcp/client/session.py#L402`,
		`https://github.com/modelcontextprotocol/python-sdk/blob/v1.29.0/src/mcp/shared/session.py#L305-L306`,
		`data-checkout=gumroad`, `data-checkout=site`, `data-measure-marker`,
		`Copy the code (records a click)`, "30-day money-back guarantee", "19 USDC on Base",
		"7 October 2026", "26 September 2026", "llab_attr", "/_vercel/insights/script.js",
		`<a href=mailto:lilu@ability.ai>lilu@ability.ai</a>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, bad := range []string{"session.py#L555", "\u201c", "\u201d", "\u2019", "\u2013", "style="} {
		if strings.Contains(html, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
	if n := strings.Count(html, "<h1"); n != 1 {
		t.Errorf("%d h1 elements", n)
	}
}

// TestPageIsDated holds the page to what can be known from our copy of the
// SDK: it names the tags its quotes are checked against and the date of the
// v1.x branch it compared, never says a version does not exist, says what
// still holds at v2.0.0, and keeps the notice's promise as wide as the
// seed's ("switch away from the tab" covers an app switch too).
func TestPageIsDated(t *testing.T) {
	s := build(t, publishEnv)
	page := text(s, "index.html")
	for _, want := range []string{
		"v1.29.0 (commit 98b7159c, 28 July 2026)",
		"as of 21 August 2026",
		"A later release could not be checked",
		"<code>Connection closed</code> keeps its code, -32000, and its message",
		"<code>pip show mcp</code> tells you which you have",
		"switch away from the tab",
		"ClientSession(..., read_timeout_seconds=",
		"<code>ClientSession</code>'s methods hand their request",
		// Issue 28: the date the quotes were checked, seen and in the JSON-LD.
		"Checked against MCP Python SDK v1.29.0 and v2.0.0 on <time datetime=2026-12-04>4 December 2026</time>",
		`"dateModified":"2026-12-04"`,
		"Session terminated",
		"copy-sketch-v2",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, bad := range []string{
		"no such tag", "does not exist", "None of the above holds", "the newest tag",
		"the newest 1.x release", "switch to another tab", "Every claim",
	} {
		if strings.Contains(page, bad) {
			t.Errorf("the page says %q", bad)
		}
	}
	// Every quote names one of the versions it was checked against.
	// v1.6.0 and v1.7.0 date the timeout message's two forms; the other
	// projects are cited for a default, a flag and a message format.
	checked := map[string]bool{
		"modelcontextprotocol/python-sdk@v1.29.0": true, "modelcontextprotocol/python-sdk@v2.0.0": true, "encode/httpx@0.28.1": true,
		"modelcontextprotocol/python-sdk@v1.6.0": true, "modelcontextprotocol/python-sdk@v1.7.0": true,
		"modelcontextprotocol/typescript-sdk@1.30.0": true, "openai/openai-agents-python@v0.22.0": true, "docker/cli@v29.7.2": true,
	}
	for _, c := range s.Citations {
		if !checked[c.Repo+"@"+c.Version] {
			t.Errorf("%s cites %s@%s, which no check covers", c.Source, c.Repo, c.Version)
		}
	}
}

// TestPageSaysNoMoreThanTheCode holds the page to the audit of issue 19
// (../shared/mcp-facts.md §5 and §6) and to the second audit, whose items
// the reasons marked "audit 2" number: each phrase below was checked to be
// missing from, or present on, the page before its audit, so the test
// fails if the wording slides back.
func TestPageSaysNoMoreThanTheCode(t *testing.T) {
	s := build(t, publishEnv)
	page, pay := text(s, "index.html"), text(s, "pay/index.html")
	for _, c := range []struct{ why, want string }{
		{"the stdio trigger is end of file, not silence", "reaches end of file"},
		{"a live, silent server hangs the call", "alive but silent gives no error"},
		{"the test is of a process that exits at once, not of prints", "fails at once, <code>assert exc_info.value.error.code == CONNECTION_CLOSED</code>"},
		{"where the traceback shows is a generalisation", "a few lines above the <code>McpError</code> (our reading)"},
		{"the timedelta advice is 1.x only", "On 1.x, pass a <code>timedelta</code>"},
		{"the receive loop's exception closes the connection too", "or its receive loop stops on an exception, every request still waiting gets"},
		{"transports put errors in place of responses", "or a transport's, such as <code>Session terminated</code>"},
		{"v1 re-raises UrlElicitationRequiredError", "On a v1 server it comes back as an error result, not <code>McpError</code>, except <code>UrlElicitationRequiredError</code>, sent as a JSON-RPC error"},
		{"a v2 low-level server answers a tool's exception with a JSON-RPC error", "On a v2.0.0 low-level server"},
		{"any 404 gives Session terminated, a wrong URL too", "or a wrong path in the URL, where <code>initialize()</code> fails before any session exists"},
		{"other statuses escape as an ExceptionGroup at v1", "<code>httpx.HTTPStatusError</code> leaves the <code>streamable_http_client</code> block inside an <code>ExceptionGroup</code>"},
		{"the traceback may wrap the error in a group", "the error may be printed inside an <code>ExceptionGroup</code>"},
		{"at v2 a 404 before a session is Not Found", "404, no session yet"},
		{"the sketch fails first on import httpx at v2", "<code>import httpx</code> fails on a clean install"},
		{"the ImportError comes from the module the sketch imports from", "The <code>McpError</code> import raises <code>ImportError</code>"},
		{"a waiting request gets v2's Connection closed from _fan_out_closed", "src/mcp/shared/jsonrpc_dispatcher.py#L693"},
		{"mcp.types lives on at v2", "<code>mcp.types</code> is now a package"},
		{"CONNECTION_CLOSED dates from 1.9.2", "It needs 1.9.2 or later in 1.x"},
		{"the claim is about src/", "Its one subclass in the SDK's <code>src/</code> at v1.29.0"},
		{"the seed's words", "There is a written guide"},
		{"audit 2, item 1: only the session sets no timeout", "By default nothing times out over stdio: the session sets no limit"},
		{"audit 2, item 2: what Connection closed means is our reading", "at line 306 (our reading)"},
		{"audit 2, item 3: a resumption GET can still raise at v2.0.0", "an error status now fails only its own request"},
		{"audit 2, item 4: except* needs Python 3.11", "Python 3.11 or later; on 3.10, the <code>exceptiongroup</code> backport's <code>catch()</code>"},
		{"audit 2, item 5: v1 answers UrlElicitationRequiredError with an error", "already re-raised as a JSON-RPC error"},
		{"audit 2, item 6: an MCPError becomes a JSON-RPC error too", "an <code>MCPError</code> keeps its code"},
		{"audit 2, item 6: MCPServer still gives error results", "On <code>MCPServer</code>, only an <code>MCPError</code> does; others still come back as error results"},
		{"audit 2, item 10: send_request is public, so the name holds for ClientSession's methods", "<code>ClientSession</code> wraps every request in"},
		{"audit 2, item 11: only call_tool takes a timeout per call", "or the same argument to <code>call_tool</code>, the only typed method that takes one per call"},
		{"audit 2, item 12: a 404 to a notification is dropped", "any 404 to a request gives"},
		{"audit 2, item 13: the ErrorData may be the SDK's own", "The class keeps the error whole"},
		{"audit 2, item 15: the list holds on every system but Windows, and unset names are skipped", "outside Windows, which has its own list, at most"},
		// Issue 28. Each phrase was checked to be missing from the page
		// before it (d09ee84), so the test fails if the wording slides back.
		{"issue 28: a v2 ValidationError is -32602", "a pydantic <code>ValidationError</code> gives -32602"},
		{"issue 28: a modern-protocol request withholds the text", "-32603 <code>Internal server error</code>, text withheld, on a modern-protocol request"},
		{"issue 28: the 300 s read limit ends the whole connection", "<code>httpx.ReadTimeout</code> ends the whole connection, failing every pending request"},
		{"issue 28: a begun SSE answer that goes quiet waits", "if an SSE answer has begun and then goes quiet, the call keeps waiting"},
		{"issue 28: a v2 server sends Connection closed itself", "A v2.0.0 server shutting down mid-request sends it too"},
		{"issue 28: a command not found is an OSError, not McpError", "<code>FileNotFoundError</code> or another <code>OSError</code>"},
		{"issue 28: post_writer logs only failed POSTs of notifications and responses", "If a POST of a notification or a response failed first"},
		{"issue 28: bad UTF-8 ends stdio_client", "<code>UnicodeDecodeError</code>"},
		{"issue 28: and the way around it", `encoding_error_handler="replace"`},
		{"issue 28: the provenance names the v2 docs cited for v1", "Some v1 facts come from v2.0.0's migration guide"},
		{"issue 28: the 2.x banner is attributed", "the SDK's README suggests a bound"},
		{"issue 28: the traceback tells the version", "<code>McpError</code> is SDK 1.x"},
		{"issue 28: the sketch's last branch catches transport errors", "Its last branch also catches errors a transport makes, such as <code>Session terminated</code>"},
		{"issue 28: v2 reuses -32000 over HTTP", "<code>SSE stream ended without a response</code>"},
		{"issue 28: the seed's \"or transport\"", "find out why the server or transport went away"},
		{"issue 28: the outreach code goes with the reading events only", "It goes with the view, human candidate and engaged events only"},
		{"issue 28: the inputs measure.js counts", "pressed a mouse button or pen, touched the screen, turned a wheel or pressed a key"},
		{"issue 28: what a browser attaches is not a complete list", "among them your browser's identification string"},
		{"issue 28: the timeout message up to v1.6.0", "Waited 0:00:05 seconds."},
		{"issue 28: the timeout message from v1.7.0", "Waited 5.0 seconds."},
		{"issue 28: v2's timeout message", "Request 'tools/call' timed out"},
		{"issue 28: the TypeScript SDK's message", "MCP error -32000: Connection closed"},
		{"issue 28: an anchor per message", "id=connection-closed"},
		{"issue 28: an anchor per message", "id=timed-out"},
		{"issue 28: an anchor per message", "id=session-terminated"},
		{"issue 28: the cause table", "id=causes-and-fixes"},
		{"issue 28: a framework's 5 s default, cited", "client_session_timeout_seconds: float | None = 5,"},
		{"issue 28: Docker's -i, cited", "Keep STDIN open even if not attached"},
		{"issue 28: the v1 client keeps a dead session", "The v1 client does not open a new session by itself (our reading)"},
		// The fact-check after issue 28. Each phrase was checked to be
		// missing from the page before it (d152be1), so the test fails if the
		// wording slides back.
		{"fact-check: a live, silent server is not Connection closed; the session stops reading", "means the client's session stopped reading from the server while your request waited"},
		{"fact-check: CONNECTION_CLOSED first appears at v1.9.2", "<td><code>McpError: Connection closed</code></td><td>from v1.9.2</td>"},
		{"fact-check: the streamable HTTP client first appears at v1.8.0", "<td>from v1.8.0, HTTP</td>"},
		{"fact-check: call_tool takes a timeout from v1.7.0", "the only typed method that takes one per call (from v1.7.0)"},
		{"fact-check: a failed notification POST is logged by post_writer, not raised", "Any other 4xx or 5xx to a request is not <code>McpError</code> at v1"},
		{"fact-check: v2 removed some mcp.types names (migration.md:16)", "so the sketch's <code>mcp.types</code> import still works"},
		{"fact-check: two 1.x quotes are at v1.6.0 and v1.7.0", "For 1.x that is mostly v1.29.0"},
		{"fact-check: only the Connection closed rows hold for the TypeScript SDK", "rows 1, 2 and 6 apply to it too (our reading)"},
		{"fact-check: the McpError names no key; the server's traceback does", "The same; its traceback names a missing key"},
		{"fact-check: a message in code is a byte-exact part of it", "A timeout ending <a href=#timed-out><code>Waited 5.0 seconds.</code></a>"},
		{"fact-check: sse_client has no Session terminated and closes on its reader (sse.py:124-131 at v1.29.0)", "Over streamable HTTP at v1, any 404 to a request gives"},
		{"fact-check: over sse_client, Connection closed follows the reader, not the writer", "Over streamable HTTP, it comes when the transport's writer task ends"},
		{"fact-check: the 300 s limit ends the connection on streamable HTTP only", "Over streamable HTTP, the SDK's default client gives httpx a read limit of 300 s"},
		{"fact-check: v2's sse_client still raises for status in its post_writer", "Over streamable HTTP, an error status now fails only its own request"},
	} {
		if !strings.Contains(page, c.want) {
			t.Errorf("the page lacks %q (%s)", c.want, c.why)
		}
	}
	for _, c := range []struct{ why, bad string }{
		{"the trigger is end of file", "stops writing to its standard output"},
		{"said after a paragraph about prints", "The SDK tests this very case"},
		{"UrlElicitationRequiredError and v2 servers", "A tool that raises an exception on the server is not one of these"},
		{"two sources of JSON-RPC errors contradicted the third", "is either the server's own, or one the SDK"},
		{"the page quotes more than four files", "four files"},
		{"mcp.types lives on as a package", "are gone at v2.0.0"},
		{"the sketch needs 1.9.2 or later", "It is for SDK 1.x"},
		{"the seed says there is a written guide", "We wrote a guide"},
		{"audit 2, item 1: over HTTP a read limit applies", "By default there is none"},
		{"audit 2, item 3: a resumption GET can still raise at v2.0.0", "no HTTP status escapes"},
		{"audit 2, item 5: line 587 is a comment", "server.py#L587"},
		{"audit 2, item 6: an MCPError becomes a JSON-RPC error too", "other than <code>MCPError</code> becomes"},
		{"audit 2, item 10: send_request called directly prints another class", "is always the same"},
		{"audit 2, item 11: only call_tool takes a timeout per call", "on the one call or on the whole session"},
		{"audit 2, item 12: a 404 to a notification is dropped", "That happens on any 404:"},
		{"audit 2, item 14: the seed's sentence", "when what does arrive is a JSON-RPC error"},
		{"audit 2, item 14: the seed's sentence", "find out why the server or its transport went away"},
		// Issue 28: each was on the page before it (d09ee84).
		{"issue 28: the outreach code goes with three events, not every one", "It is sent with every event"},
		{"issue 28: a scroll alone is not an input", "a scroll or a key press"},
		{"issue 28: an outreach code is per recipient", "counts its readers anonymously"},
		{"issue 28: a command that cannot start is an OSError", "never managed to start"},
		{"issue 28: not every tool exception is code 0 at v2", "every exception from a tool becomes a JSON-RPC error"},
		{"issue 28: the read limit ends the connection, not the call", "ends the call with an httpx error"},
		// The fact-check after issue 28: each was on the page before it (d152be1).
		{"fact-check: a silent server hangs the call, it does not close it", "the client stopped hearing from the server"},
		{"fact-check: the Python-only causes do not hold for the TypeScript SDK", "the causes above apply to it too"},
		{"fact-check: a message in code must be copyable as it prints", "Timed out … Waited"},
		{"fact-check: v2 removed some mcp.types names (migration.md:16)", "<code>from mcp.types import ...</code> still works"},
		{"fact-check: the TypeScript SDK's error has no e.error", "<th><code>e.error.code</code></th>"},
		{"fact-check: the legacy SSE transport gives no Session terminated", "Over HTTP at v1, any 404"},
	} {
		if strings.Contains(page, c.bad) {
			t.Errorf("the page says %q (%s)", c.bad, c.why)
		}
	}
	// The first screen points the 2.x reader to the v2 section, and the
	// cause table is the first section.
	top, _, _ := strings.Cut(page, "<h2 id=the-exact-messages")
	for _, want := range []string{"<code>McpError</code> is SDK 1.x", "<code>MCPError</code>", `href=#on-sdk-v200`, "id=causes-and-fixes"} {
		if !strings.Contains(top, want) {
			t.Errorf("before the exact messages the page lacks %q: the 2.x reader must learn at once where to read, and the cause table come first", want)
		}
	}
	// The payment page sends the hash to its own setting, never to the
	// address for error reports, and keeps the seed's "automatically".
	if want := "transaction hash to <a href=mailto:hash@errors.example.org>"; !strings.Contains(pay, want) {
		t.Errorf("the payment page lacks %q", want)
	}
	if strings.Contains(pay, "delivered at once") || !strings.Contains(pay, "delivered automatically") {
		t.Error(`the payment page must say the storefront delivers "automatically", as the seed does`)
	}
}

func TestCheckOutRefusesSourceFolders(t *testing.T) {
	for _, out := range []string{".", "content", "static", "..", "templates/x/..", "Content", "STATIC/x", "Templates/x/..", "Measure", ".GIT/objects"} {
		if err := CheckOut(".", out); err == nil {
			t.Errorf("CheckOut(., %q) passed", out)
		}
	}
	if err := CheckOut(".", "public"); err != nil {
		t.Error(err)
	}
}

// benchSite writes a site of n distinct pages made from the real home page.
func benchSite(t testing.TB, n int) string {
	root := t.TempDir()
	if err := benchsite.Make(root, filepath.Join("..", ".."), n); err != nil {
		t.Fatal(err)
	}
	return root
}

// BenchmarkBuild is the build in process, without writing; the command as
// a user runs it is timed by cmd/build's BenchmarkCommand.
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{1, 100, 1000} {
		b.Run(fmt.Sprintf("pages=%d", n), func(b *testing.B) {
			root := benchSite(b, n)
			for b.Loop() {
				if _, err := Build(Options{Root: root, Getenv: noEnv}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSizes is the build's size summary, which must cost little
// beside the build itself, and its brotli figures, which cost more.
func BenchmarkSizes(b *testing.B) {
	for _, n := range []int{1, 1000} {
		for _, withBrotli := range []bool{false, true} {
			b.Run(fmt.Sprintf("pages=%d/brotli=%v", n, withBrotli), func(b *testing.B) {
				s, err := Build(Options{Root: benchSite(b, n), Getenv: noEnv})
				if err != nil {
					b.Fatal(err)
				}
				for b.Loop() {
					s.Sizes(withBrotli)
				}
			})
		}
	}
}

// TestPrevReusesOnlyUnchangedPages: with the last good build given, a build
// renders only the pages whose files changed, and everything again when
// what all pages share changes. Its files equal a build from scratch.
func TestPrevReusesOnlyUnchangedPages(t *testing.T) {
	root := benchSite(t, 20)
	first, err := Build(Options{Root: root, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		change   func()
		rendered int
	}{
		{"nothing changed", func() {}, 0},
		{"one page edited", func() { edit(t, root, "content/p0007.md", "## What raises it", "## What raises it, edited") }, 1},
		{"a page added", func() {
			os.WriteFile(filepath.Join(root, "content", "new.md"), []byte("+++\ntitle = \"New\"\ndescription = \"d\"\ncounter = false\n+++\n\nHello.\n"), 0o644)
		}, 1},
		{"a page removed", func() { os.Remove(filepath.Join(root, "content", "new.md")) }, 0},
		{"a template edited", func() { edit(t, root, "templates/page.html", "<article>", "<article class=\"x\">") }, 20},
		{"a stylesheet edited", func() { edit(t, root, "static/style.css", "h2{", "h2{letter-spacing:0;") }, 20},
		{"a setting changed", func() { edit(t, root, "site.toml", `publisher = "Lilu Lab"`, `publisher = "Lilu Lab X"`) }, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.change()
			next, err := Build(Options{Root: root, Getenv: noEnv, Prev: first})
			if err != nil {
				t.Fatal(err)
			}
			if next.Rendered != tc.rendered {
				t.Errorf("rendered %d pages, want %d", next.Rendered, tc.rendered)
			}
			fresh, err := Build(Options{Root: root, Getenv: noEnv})
			if err != nil {
				t.Fatal(err)
			}
			if len(fresh.Files) != len(next.Files) {
				t.Fatalf("%d files, from scratch %d", len(next.Files), len(fresh.Files))
			}
			for name, data := range fresh.Files {
				if !bytes.Equal(next.Files[name], data) {
					t.Errorf("%s differs from a build from scratch", name)
				}
			}
			first = next
		})
	}
}

// TestCacheGivesWhatAFreshBuildGives: with the build cache, a second build
// renders nothing, an edit renders its page, a template change renders
// every page, a damaged entry is rendered again; and each build's files
// equal those of a build without the cache.
func TestCacheGivesWhatAFreshBuildGives(t *testing.T) {
	root, cacheRoot := benchSite(t, 10), t.TempDir()
	for _, tc := range []struct {
		name     string
		change   func()
		rendered int
	}{
		{"empty cache", func() {}, 10},
		{"nothing changed", func() {}, 0},
		{"one page edited", func() { edit(t, root, "content/p0003.md", "## What raises it", "## What raises it, edited") }, 1},
		{"the edit undone", func() { edit(t, root, "content/p0003.md", "## What raises it, edited", "## What raises it") }, 0},
		{"a template edited", func() { edit(t, root, "templates/page.html", "<article>", "<article class=\"x\">") }, 10},
		{"every entry damaged", func() {
			entries, _ := filepath.Glob(filepath.Join(cacheRoot, "pages", "*", "*"))
			for _, e := range entries {
				os.WriteFile(e, []byte("not gob"), 0o644)
			}
		}, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.change()
			cached, err := Build(Options{Root: root, Getenv: noEnv, Cache: true, CacheRoot: cacheRoot})
			if err != nil {
				t.Fatal(err)
			}
			if cached.Rendered != tc.rendered {
				t.Errorf("rendered %d pages, want %d", cached.Rendered, tc.rendered)
			}
			fresh, err := Build(Options{Root: root, Getenv: noEnv})
			if err != nil {
				t.Fatal(err)
			}
			if len(fresh.Files) != len(cached.Files) || !reflect.DeepEqual(fresh.Warnings, cached.Warnings) || !reflect.DeepEqual(fresh.Citations, cached.Citations) {
				t.Fatalf("files, warnings or citations differ from a build without the cache")
			}
			for name, data := range fresh.Files {
				if !bytes.Equal(cached.Files[name], data) {
					t.Errorf("%s differs from a build without the cache", name)
				}
			}
			for _, withBrotli := range []bool{false, true} {
				if c, f := cached.Sizes(withBrotli), fresh.Sizes(withBrotli); c != f {
					t.Errorf("sizes %+v, without the cache %+v", c, f)
				}
			}
		})
	}
}

// TestSizesMatchTheCommands: the summary's figures are those of gzip -9 -n
// and brotli -q 11, where the commands are installed.
func TestSizesMatchTheCommands(t *testing.T) {
	s := build(t, publishEnv)
	for _, name := range []string{"index.html", "measure.js", "404.html", "robots.txt"} {
		f := filepath.Join(t.TempDir(), "f")
		os.WriteFile(f, s.Files[name], 0o644)
		z := Measure(s.Files[name], true)
		for _, c := range []struct {
			cmd  string
			args []string
			got  int
		}{
			{"gzip", []string{"-9", "-n", "-c", f}, z.Gzip},
			{"brotli", []string{"-q", "11", "-c", f}, z.Brotli},
		} {
			if _, err := exec.LookPath(c.cmd); err != nil {
				t.Logf("%s is not installed: %s not checked", c.cmd, name)
				continue
			}
			out, err := exec.Command(c.cmd, c.args...).Output()
			if err != nil {
				t.Fatal(err)
			}
			// gzip's header and trailer are the same size from both
			// encoders; the deflate stream may differ by a few bytes.
			tolerance := 0
			if c.cmd == "gzip" {
				tolerance = 8 + len(s.Files[name])/100
			}
			if d := c.got - len(out); d < -tolerance || d > tolerance {
				t.Errorf("%s: %s gives %d B, the summary %d B", name, c.cmd, len(out), c.got)
			}
		}
	}
}

// TestNoHomeNeverFits: the summary measures the critical path of /, and
// says it fits only when / was built (a site without it once showed
// "0 B gzip ... fits").
func TestNoHomeNeverFits(t *testing.T) {
	s := build(t, publishEnv)
	r := s.Sizes(false)
	if want := map[bool]string{true: "fits", false: "OVER"}[r.Critical.Gzip <= CriticalBudget]; r.Verdict() != want {
		t.Errorf("at %d B gzip the summary says %q, want %s", r.Critical.Gzip, r.Verdict(), want)
	}
	delete(s.Files, "index.html")
	for _, p := range s.Pages {
		if p.Out == "index.html" {
			p.Out = "x/index.html"
		}
	}
	if v := s.Sizes(false).Verdict(); v == "fits" || !strings.Contains(v, "no / was built") {
		t.Errorf("without / the summary says %q", v)
	}
}

// TestOneWriterMeasuresEachFileAlone: the files of the summary, measured
// one after another with one gzip writer, have the figures each has
// measured alone.
func TestOneWriterMeasuresEachFileAlone(t *testing.T) {
	s := build(t, publishEnv)
	names := []string{"index.html", "measure.js", "404.html", "robots.txt"}
	var files [][]byte
	for _, name := range names {
		files = append(files, s.Files[name])
	}
	for _, withBrotli := range []bool{false, true} {
		for i, got := range measureAll(files, withBrotli) {
			if want := Measure(files[i], withBrotli); got != want {
				t.Errorf("%s (brotli %v): %+v after the others, %+v alone", names[i], withBrotli, got, want)
			}
		}
	}
}

// TestARunawayTemplateStops: after the time out, a template loop that
// writes ends at its next write; it does not run on in the background.
func TestARunawayTemplateStops(t *testing.T) {
	root := copySite(t)
	edit(t, root, "templates/page.html", "{{.Page.Body}}", "{{.Page.Body}}\n{{range 100000000000}}.{{end}}")
	before := runtime.NumGoroutine()
	if _, err := Build(Options{Root: root, Getenv: noEnv, Timeout: 300 * time.Millisecond}); err == nil || !strings.Contains(err.Error(), "took longer than 300ms") {
		t.Fatalf("err = %v, want the time out", err)
	}
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before; {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines 5 s after the time out, %d before the build: the render runs on", runtime.NumGoroutine(), before)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWhatTheAuthorDidNotWriteIsIgnored: a byte order mark is accepted;
// hidden files and editors' lock and backup files in content/ and static/
// are neither built nor published.
func TestWhatTheAuthorDidNotWriteIsIgnored(t *testing.T) {
	root := copySite(t)
	page, _ := os.ReadFile(filepath.Join(root, "content", "404.md"))
	os.WriteFile(filepath.Join(root, "content", "404.md"), append([]byte("\uFEFF"), page...), 0o644)
	os.WriteFile(filepath.Join(root, "content", ".hidden.md"), []byte("not even front matter"), 0o644)
	os.Symlink("user@host.1234:1700000000", filepath.Join(root, "content", ".#index.md")) // an Emacs lock
	os.WriteFile(filepath.Join(root, "content", "pay.md~"), []byte("a backup"), 0o644)
	os.WriteFile(filepath.Join(root, "static", ".DS_Store"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "static", ".style.css.swp"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "static", "Thumbs.db"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "static", "desktop.ini"), []byte("x"), 0o644)
	os.MkdirAll(filepath.Join(root, "static", "img"), 0o755)
	os.WriteFile(filepath.Join(root, "static", "img", "thumbs.db"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "static", "img", "Desktop.ini"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "static", "img", ".DS_Store"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(root, "content", "desktop.ini"), []byte("x"), 0o644)
	s, err := Build(Options{Root: root, Getenv: noEnv})
	if err != nil {
		t.Fatal(err)
	}
	for name := range s.Files {
		lower := strings.ToLower(name)
		if strings.Contains(name, ".hidden") || strings.Contains(name, "DS_Store") || strings.Contains(name, ".swp") ||
			strings.Contains(lower, "thumbs.db") || strings.Contains(lower, "desktop.ini") {
			t.Errorf("published %s", name)
		}
	}
	if len(s.Pages) != 3 {
		t.Errorf("%d pages, want 3", len(s.Pages))
	}
	if !bytes.Contains(s.Files["404.html"], []byte("<title>Page not found</title>")) {
		t.Error("the page with a byte order mark lost its title")
	}
}

// TestSitemapEscapes: the sitemap is XML-escaped whatever a URL holds.
func TestSitemapEscapes(t *testing.T) {
	s := &Site{Files: map[string][]byte{}}
	s.Settings.BaseURL = "https://errors.example.org"
	s.Pages = []*Page{{URL: "/q&a/"}, {URL: "/</loc><script>/"}}
	if err := s.writeSitemap(); err != nil {
		t.Fatal(err)
	}
	got := string(s.Files["sitemap.xml"])
	if strings.Contains(got, "<script>") || !strings.Contains(got, "/q&amp;a/") {
		t.Errorf("sitemap.xml:\n%s", got)
	}
}
