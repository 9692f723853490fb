// The tests of the page this repository publishes: its wording, its
// rendered files against testdata/golden/, and (look_test.go) its look in
// Chromium. They live beside content/ because they change when the page
// does; the generator's own tests build fixture sites of their own.
package errref_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"errref/internal/site"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func build(t testing.TB, env map[string]string) *site.Site {
	t.Helper()
	s, err := site.Build(site.Options{FS: os.DirFS("."), Getenv: func(k string) string { return env[k] }})
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
func text(s *site.Site, name string) string {
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
			t.Fatalf("%v (run go test . -update)", err)
		}
		if !bytes.Equal(s.Files[name], want) {
			t.Errorf("%s differs from %s: run go test . -update and read the diff", name, golden)
		}
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
	publish := func() (*site.Site, error) {
		return site.Build(site.Options{FS: os.DirFS("."), Getenv: func(k string) string { return env[k] }, Publish: true})
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
			t.Errorf("%s cites %s@%s, which no check covers", c.At, c.Repo, c.Version)
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
