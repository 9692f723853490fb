// The tests of the pages this repository publishes: what every error page
// must be, each page found in the build (a new page needs no new test),
// the McpError page's wording, and (look_test.go) their look in Chromium.
// They live beside content/ because they read it; the generator's own
// tests, and its golden files, build fixture sites of their own.
package errref_test

import (
	"cmp"
	"flag"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"errref/internal/site"
)

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
	"SITE_GUIDE":           "The guide",
}

// text is a built file as one line: the <wbr> marks that let names wrap
// dropped and white space folded, so a phrase matches across both.
func text(s *site.Site, name string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(string(s.Files[name]), "<wbr>", "")), " ")
}

var updateDrift = flag.Bool("update-drift", false, "rewrite REPOS in .github/workflows/drift.yml from the pages' citations")

// mcpError is the McpError page, whose wording the tests below hold.
const mcpError = "mcp/mcperror/index.html"

// errorPages are the error pages the build found.
func errorPages(s *site.Site) []*site.Page {
	var ps []*site.Page
	for _, p := range s.Pages {
		if p.IsError() {
			ps = append(ps, p)
		}
	}
	return ps
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
		"SITE_GUIDE":          "The guide",
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

// TestEveryErrorPage holds each error page to what every one must be: its
// title, canonical URL and structured data, one h1, the text copyable as
// the library prints it (no typographer's quotes or dashes), no inline
// style, and an explaining part short enough to read: 1,200 words (issue
// 45), and 2,300 for the first three pages, written before that limit.
func TestEveryErrorPage(t *testing.T) {
	ceiling := map[string]int{"content/mcp/mcperror.md": 2300, "content/mcp/closedresourceerror.md": 2300, "content/mcp/connecterror.md": 2300}
	s := build(t, publishEnv)
	pages := errorPages(s)
	if len(pages) == 0 {
		t.Fatal("the build found no error page")
	}
	for _, p := range pages {
		page := string(s.Files[p.Out])
		for _, want := range []string{
			"<title>" + html.EscapeString(p.Meta.Title) + "</title>",
			`<link rel=canonical href=https://errors.example.org` + p.URL + `>`,
			`"@type":"TechArticle"`,
			`data-measure-marker`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("%s lacks %q", p.File, want)
			}
		}
		for _, bad := range []string{"\u201c", "\u201d", "\u2019", "\u2013", "style="} {
			if strings.Contains(page, bad) {
				t.Errorf("%s holds %q", p.File, bad)
			}
		}
		if n := strings.Count(page, "<h1"); n != 1 {
			t.Errorf("%s: %d h1 elements", p.File, n)
		}
		// The checked line states the page's own releases: each repository
		// it quotes now (not as history), and none it does not quote.
		checked := ""
		if i := strings.Index(page, "<p class=checked>"); i >= 0 {
			checked = page[i : i+strings.Index(page[i:], "</p>")]
		}
		quoted := map[string]bool{}
		for _, c := range s.Citations {
			if c.File == p.File && !c.History {
				quoted[c.Repo] = true
				if !strings.Contains(checked, c.Repo+" ") {
					t.Errorf("%s: the checked line %q does not name %s, which the page quotes", c.At(), checked, c.Repo)
				}
			}
		}
		if len(quoted) == 0 && checked != "" {
			t.Errorf("%s quotes nothing, yet says %q", p.File, checked)
		}
		n := explainingWords(page)
		t.Logf("%s: %d words before the marker", p.File, n)
		if most := cmp.Or(ceiling[p.File], 1200); n > most {
			t.Errorf("%s: the explaining part is %d words, over %d: say each thing once", p.File, n, most)
		}
	}
}

func TestPageFacts(t *testing.T) {
	html := string(build(t, publishEnv).Files[mcpError])
	for _, want := range []string{
		"<title>mcp.shared.exceptions.McpError: Connection closed</title>",
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
	if strings.Contains(html, "session.py#L555") {
		t.Errorf("the page holds %q", "session.py#L555")
	}
}

// TestPageIsDated holds the page to what can be known from our copy of the
// SDK: it names the tags its quotes are checked against and the date of the
// v1.x branch it compared, never says a version does not exist, says what
// still holds at v2.0.0, and keeps the notice's promise as wide as the
// seed's ("switch away from the tab" covers an app switch too).
func TestPageIsDated(t *testing.T) {
	s := build(t, publishEnv)
	page := text(s, mcpError)
	for _, want := range []string{
		"v1.29.0 (commit 98b7159c, 28 July 2026)",
		"as of 21 August 2026",
		"A later release could not be checked",
		"<code>Connection closed</code> keeps its code, -32000, and its message",
		"<code>pip show mcp</code> tells you which you have",
		"switch away from the tab",
		"ClientSession(..., read_timeout_seconds=",
		"<code>ClientSession</code>'s methods hand their request",
		// The date the quotes were checked, seen and in the JSON-LD.
		"Quotes: modelcontextprotocol/python-sdk v1.29.0 and v2.0.0,",
		"as tagged (see <a href=#what-we-checked>what we checked</a>).",
		"Updated <time datetime=2026-12-05>5 December 2026</time>.",
		`"dateModified":"2026-12-05"`,
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
}

// TestPageSaysNoMoreThanTheCode holds the page to what the code shows
// (the SDK source at the lines the page cites): each phrase must be on the
// page, or must not, so the test fails if the wording slides back. The
// reasons marked "audit 2" number the items of the second audit.
func TestPageSaysNoMoreThanTheCode(t *testing.T) {
	s := build(t, publishEnv)
	page, pay := text(s, mcpError), text(s, "pay/index.html")
	for _, c := range []struct{ why, want string }{
		{"the stdio trigger is end of file, not silence", "reaches end of file"},
		{"a live, silent server hangs the call", "alive but silent gives no error"},
		{"the test is of a process that exits at once, not of prints", "fails at once, <code>assert exc_info.value.error.code == CONNECTION_CLOSED</code>"},
		{"where the traceback shows is a generalisation", "on your standard error, above the <code>McpError</code> (our reading)"},
		{"the timedelta advice is 1.x only", "On 1.x, pass a <code>timedelta</code>"},
		{"the receive loop's exception closes the connection too", "or its receive loop stops on an exception, every waiting request gets"},
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
		{"audit 2, item 4: except* needs Python 3.11", "Python 3.11 or later, which <code>except*</code> needs"},
		{"audit 2, item 5: v1 answers UrlElicitationRequiredError with an error", "already re-raised as a JSON-RPC error"},
		{"audit 2, item 6: an MCPError becomes a JSON-RPC error too", "an <code>MCPError</code> keeps its code"},
		{"audit 2, item 6: MCPServer still gives error results", "On <code>MCPServer</code>, only an <code>MCPError</code> does; others still come back as error results"},
		{"audit 2, item 10: send_request is public, so the name holds for ClientSession's methods", "<code>ClientSession</code> wraps every request in"},
		{"audit 2, item 11: only call_tool takes a timeout per call", "or the same argument to <code>call_tool</code>, the only typed method that takes one per call"},
		{"audit 2, item 12: a 404 to a notification is dropped", "any 404 to a request gives"},
		{"audit 2, item 13: the ErrorData may be the SDK's own", "The class keeps the error whole"},
		{"audit 2, item 15: the list holds on every system but Windows, and unset names are skipped", "outside Windows, which has its own list, at most"},
		{"a v2 ValidationError is -32602", "a pydantic <code>ValidationError</code> gives -32602"},
		{"a modern-protocol request withholds the text", "-32603 <code>Internal server error</code>, text withheld by default, on a modern-protocol request"},
		{"the 300 s read limit ends the whole connection", "<code>httpx.ReadTimeout</code> ends the whole connection, failing every pending request"},
		{"a begun SSE answer that goes quiet waits", "if an SSE answer has begun and then goes quiet, the call keeps waiting"},
		{"a v2 server sends Connection closed itself", "A v2.0.0 server shutting down mid-request sends it too"},
		{"a command not found is an OSError, not McpError", "<code>FileNotFoundError</code> or another <code>OSError</code>"},
		{"post_writer logs only failed POSTs of notifications and responses", "If a POST of a notification or a response failed first"},
		{"bad UTF-8 ends stdio_client", "<code>UnicodeDecodeError</code>"},
		{"and the way around it", `encoding_error_handler="replace"`},
		{"the provenance names the v2 docs cited for v1", "Some v1 facts come from v2.0.0's migration guide"},
		{"the 2.x banner is attributed", "the SDK's README suggests a bound"},
		{"the traceback tells the version", "<code>McpError</code> is SDK 1.x"},
		{"the sketch's last branch catches transport errors", "Its last branch also catches errors a transport makes, such as <code>Session terminated</code>"},
		{"v2 reuses -32000 over HTTP", "<code>SSE stream ended without a response</code>"},
		{"the seed's \"or transport\"", "find out why the server or transport went away"},
		{"the outreach code goes with the reading events only", "It goes with the view, human candidate and engaged events only"},
		{"the inputs measure.js counts", "pressed a mouse button or pen, touched the screen, turned a wheel or pressed a key"},
		{"what a browser attaches is not a complete list", "among them your browser's identification string"},
		{"the timeout message up to v1.6.0", "Waited 0:00:05 seconds."},
		{"the timeout message from v1.7.0", "Waited 5.0 seconds."},
		{"v2's timeout message", "Request 'tools/call' timed out"},
		{"the TypeScript SDK's message", "MCP error -32000: Connection closed"},
		{"an anchor per message", "id=connection-closed"},
		{"an anchor per message", "id=timed-out"},
		{"an anchor per message", "id=session-terminated"},
		{"the cause table", "id=causes-and-fixes"},
		{"a framework's 5 s default, cited", "client_session_timeout_seconds: float | None = 5,"},
		{"Docker's -i, cited", "Keep STDIN open even if not attached"},
		{"the v1 client keeps a dead session", "The v1 client does not open a new session by itself (our reading)"},
		{"fact-check: a live, silent server is not Connection closed; the session stops reading", "its session stopped reading from the server while your request waited"},
		{"fact-check: CONNECTION_CLOSED first appears at v1.9.2", "<td><code>McpError: Connection closed</code></td><td>from v1.9.2</td>"},
		{"fact-check: the streamable HTTP client first appears at v1.8.0", "<td>from v1.8.0, HTTP</td>"},
		{"fact-check: call_tool takes a timeout from v1.7.0", "the only typed method that takes one per call (from v1.7.0)"},
		{"fact-check: a failed notification POST is logged by post_writer, not raised", "Any other 4xx or 5xx to a request is not <code>McpError</code> at v1"},
		{"fact-check: v2 removed some mcp.types names (migration.md:16)", "so the sketch's <code>mcp.types</code> import still works"},
		{"fact-check: two 1.x quotes are at v1.6.0 and v1.7.0", "For 1.x that is mostly v1.29.0"},
		{"issue 45: a TypeScript reader is sent to the TypeScript pages, Windows and npx among their causes", `<a href=/mcp-typescript/connection-closed/>Connection closed</a> (Windows and`},
		{"issue 45: and for the timeout", `<a href=/mcp-typescript/request-timed-out/>Request timed out</a>`},
		{"the v2.0.0 timeout message is cited at its raise site", "python-sdk/blob/v2.0.0/src/mcp/shared/jsonrpc_dispatcher.py#L425"},
		{"fact-check 3: the text is withheld only without raise_exceptions", "text withheld by default"},
		{"fact-check 3: scrolled is true whenever the page is away from its top", "whether it has been seen scrolled away from its top"},
		{"fact-check 3: engaged needs the marker on screen, however it got there", "has come into view. Until it does, this event is never sent"},
		{"fact-check 3: the receiver stamps each event's time", "This site keeps the time each event arrived"},
		{"fact-check 3: McpError has sources besides send_request", "<code>send_request</code> raises <code>McpError</code>"},
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
		{"the outreach code goes with three events, not every one", "It is sent with every event"},
		{"a scroll alone is not an input", "a scroll or a key press"},
		{"an outreach code is per recipient", "counts its readers anonymously"},
		{"a command that cannot start is an OSError", "never managed to start"},
		{"not every tool exception is code 0 at v2", "every exception from a tool becomes a JSON-RPC error"},
		{"the read limit ends the connection, not the call", "ends the call with an httpx error"},
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

// TestDriftWatchesEveryCitedRepository: the weekly drift job clones the
// repositories in its REPOS; one the page cites but the job lacks would
// make every run fail with exit 2 instead of watching it.
func TestDriftWatchesEveryCitedRepository(t *testing.T) {
	file := filepath.Join(".github", "workflows", "drift.yml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	at := -1
	var repos []string
	for i, line := range lines {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "REPOS:"); ok {
			at, repos = i, strings.Fields(v)
		}
	}
	if at < 0 {
		t.Fatal("drift.yml sets no REPOS")
	}
	s := build(t, nil)
	var cited []string
	for _, c := range s.Citations {
		if !slices.Contains(cited, c.Repo) {
			cited = append(cited, c.Repo)
		}
	}
	want := slices.Clone(cited)
	slices.Sort(want)
	have := slices.Clone(repos)
	slices.Sort(have)
	if slices.Equal(have, want) {
		return
	}
	if *updateDrift {
		indent := lines[at][:len(lines[at])-len(strings.TrimLeft(lines[at], " "))]
		lines[at] = indent + "REPOS: " + strings.Join(cited, " ")
		if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, c := range s.Citations {
		if !slices.Contains(repos, c.Repo) {
			t.Errorf("%s cites %s, which drift.yml's REPOS lacks", c.At(), c.Repo)
			repos = append(repos, c.Repo) // once
		}
	}
	for _, r := range have {
		if !slices.Contains(cited, r) {
			t.Errorf("drift.yml's REPOS holds %s, which no page cites", r)
		}
	}
	t.Errorf("update the list with: go test . -run TestDriftWatchesEveryCitedRepository -update-drift")
}

// TestExplainingPartIsShort: the McpError page's explaining part is
// long enough that the marker is where its explanation ends (every error
// page is held to 2,300 words by TestEveryErrorPage).
func TestExplainingPartIsShort(t *testing.T) {
	if n := explainingWords(string(build(t, nil).Files[mcpError])); n < 1000 {
		t.Errorf("the explaining part is %d words: the marker moved, or the count is wrong", n)
	}
}

// explainingWords counts the words of the explaining part (the text of
// <main> before the marker, outside code blocks; inline code and captions
// count): a reader who pasted the error wants the answer, not an essay.
// A page without <main> or the marker counts as too long.
func explainingWords(page string) int {
	i := strings.Index(page, "<main")
	j := strings.Index(page, "data-measure-marker")
	if i < 0 || j < i {
		return 1 << 30
	}
	main := page[i:j]
	main = main[:strings.LastIndex(main, "<")]
	main = regexp.MustCompile(`(?s)<pre.*?</pre>`).ReplaceAllString(main, " ")
	// A span that keeps a quote and its bracket on one line ("{) does not
	// end a word; every other tag does, <wbr> too, as when the ceiling was set.
	main = regexp.MustCompile(`</?span[^>]*>`).ReplaceAllString(main, "")
	return len(strings.Fields(html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(main, " "))))
}

// TestNoticeStatesItsOwnPast holds each page's notice to its own history:
// only a page whose older versions ran the older counter (older_versions)
// says what they stored and requested; a new page says only what it does
// now.
func TestNoticeStatesItsOwnPast(t *testing.T) {
	s := build(t, nil)
	for _, p := range errorPages(s) {
		if !p.Meta.CounterOn() {
			continue
		}
		page := text(s, p.Out)
		past := p.Meta.OlderVersions
		for _, said := range []string{"llab_attr", "_vercel/insights/script.js", "Unlike older versions"} {
			if strings.Contains(page, said) != past {
				t.Errorf("%s: says %q is %v, want %v", p.File, said, strings.Contains(page, said), past)
			}
		}
		if !past && !strings.Contains(page, "This page leaves it in the address bar: an address you copy carries it") {
			t.Errorf("%s: the notice does not say the outreach code stays in the address", p.File)
		}
	}
}
