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
		return Build(Options{FS: os.DirFS(filepath.Join("..", "..")), Getenv: func(k string) string { return env[k] }, Publish: true})
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
	s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
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
	s, err := Build(Options{FS: os.DirFS(filepath.Join("..", "..")), Getenv: func(k string) string { return env[k] }})
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
		`https://github.com/modelcontextprotocol/python-sdk/blob/v1.29.0/src/mcp/client/session.py#L548`,
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
		"A release made after that date could not be checked here",
		"Much of the above still holds at v2.0.0",
		"Check which version you have first: <code>pip show mcp</code>",
		"switch away from the tab",
		"ClientSession(..., read_timeout_seconds=",
		"among others",
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
	checked := map[string]bool{"modelcontextprotocol/python-sdk@v1.29.0": true, "modelcontextprotocol/python-sdk@v2.0.0": true, "encode/httpx@0.28.1": true}
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
		{"a live, silent server hangs the call", "alive but silent gives no such error"},
		{"the test is of a process that exits at once, not of prints", "The SDK has a test for a server process that fails at once"},
		{"where the traceback shows is a generalisation", "a few lines above the <code>McpError</code> (our reading)"},
		{"the timedelta advice is 1.x only", "On 1.x, give the session one with"},
		{"the receive loop's exception closes the connection too", "or its receive loop stopped on an exception, while your request was still waiting"},
		{"transports put errors in place of responses", "or a transport's, such as <code>Session terminated</code>"},
		{"a tool's exception depends on the server's version", "depends on the server's SDK version"},
		{"v1 re-raises UrlElicitationRequiredError", "except <code>UrlElicitationRequiredError</code>: the server re-raises it"},
		{"a v2 low-level server answers a tool's exception with a JSON-RPC error", "On a v2.0.0 low-level server"},
		{"any 404 gives Session terminated, a wrong URL too", "a wrong path in the endpoint URL, where <code>initialize()</code> fails this way before any session exists"},
		{"other statuses escape as an ExceptionGroup at v1", "raises <code>httpx.HTTPStatusError</code> inside the transport's task group"},
		{"the traceback may wrap the error in a group", "may be printed inside an <code>ExceptionGroup</code>"},
		{"at v2 a 404 before a session is Not Found", "<code>MCPError(-32601, 'Not Found')</code>"},
		{"the sketch fails first on import httpx at v2", `sketch on v2:</p><ol><li><code>import httpx</code>.`},
		{"the ImportError names the module the sketch imports from", "<code>ImportError</code> that names <code>mcp.shared.exceptions</code>"},
		{"a waiting request gets v2's Connection closed from _fan_out_closed", "src/mcp/shared/jsonrpc_dispatcher.py#L693"},
		{"mcp.types lives on at v2", "<code>mcp.types</code> lives on as a package"},
		{"CONNECTION_CLOSED dates from 1.9.2", "It needs 1.9.2 or later in 1.x"},
		{"eight files are quoted, and the claim is about src/", "the only class in the SDK's <code>src/</code>"},
		{"the seed's words", "There is a written guide"},
		{"audit 2, item 1: only the session sets no timeout", "The session sets none, and over stdio nothing else does"},
		{"audit 2, item 1: over HTTP the default client's read limit raises an httpx error", "has not begun its answer by then ends the call with an httpx error, not <code>McpError</code> (our reading)"},
		{"audit 2, item 2: what Connection closed means is our reading", "stopped on an exception (our reading). Over stdio"},
		{"audit 2, item 2: the table's Connection closed row too", "while your request was still waiting (our reading)"},
		{"audit 2, item 3: a resumption GET can still raise at v2.0.0", "an error status on a message POST no longer escapes as an exception"},
		{"audit 2, item 4: except* needs Python 3.11", "Python 3.11 or later; on 3.10, the <code>exceptiongroup</code> backport's <code>catch()</code>"},
		{"audit 2, item 5: the code that answers with the error, not a comment", "src/mcp/server/lowlevel/server.py#L777"},
		{"audit 2, item 6: an MCPError becomes a JSON-RPC error too", "every exception from a tool becomes a JSON-RPC error (code 0 and its text, or an <code>MCPError</code>'s own code)"},
		{"audit 2, item 6: MCPServer still gives error results", "On <code>MCPServer</code> only an <code>MCPError</code> does; other exceptions still come back as error results"},
		{"audit 2, item 7: bytes that are not UTF-8 stop the reader", "unless the bytes are not valid UTF-8, which stops the reader"},
		{"audit 2, item 10: send_request is public, so the name holds for ClientSession's methods", "For every <code>ClientSession</code> method the class name is <code>ClientRequest</code>"},
		{"audit 2, item 11: only call_tool takes a timeout per call", "on that call if it is <code>call_tool</code>, or on the whole session"},
		{"audit 2, item 12: a 404 to a notification is dropped", "That happens on any 404 to a request"},
		{"audit 2, item 13: the ErrorData may be the SDK's own", "keeps the error it is given whole"},
		{"audit 2, item 15: the list holds on every system but Windows, and unset names are skipped", "at most these variables on any system other than Windows"},
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
	} {
		if strings.Contains(page, c.bad) {
			t.Errorf("the page says %q (%s)", c.bad, c.why)
		}
	}
	// The first screen points the 2.x reader to the v2 section.
	top, _, _ := strings.Cut(page, "<h2")
	for _, want := range []string{"<code>pip show mcp</code>", "<code>MCPError</code>", "floats", `href=#on-sdk-v200`} {
		if !strings.Contains(top, want) {
			t.Errorf("before its first section the page lacks %q: the 2.x reader must learn at once where to read", want)
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
				if _, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv}); err != nil {
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
				s, err := Build(Options{FS: os.DirFS(benchSite(b, n)), Getenv: noEnv})
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
	first, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
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
			next, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Prev: first})
			if err != nil {
				t.Fatal(err)
			}
			if next.Rendered != tc.rendered {
				t.Errorf("rendered %d pages, want %d", next.Rendered, tc.rendered)
			}
			fresh, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
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
			cached, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Cache: true, CacheRoot: cacheRoot})
			if err != nil {
				t.Fatal(err)
			}
			if cached.Rendered != tc.rendered {
				t.Errorf("rendered %d pages, want %d", cached.Rendered, tc.rendered)
			}
			fresh, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
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
	if _, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv, Timeout: 300 * time.Millisecond}); err == nil || !strings.Contains(err.Error(), "took longer than 300ms") {
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
	s, err := Build(Options{FS: os.DirFS(root), Getenv: noEnv})
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
