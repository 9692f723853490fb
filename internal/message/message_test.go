package message

import (
	"strings"
	"testing"
)

// Quotes as the pages cite them: python-sdk v1.29.0
// src/mcp/shared/exceptions.py#8 and src/mcp/shared/session.py#298-300,
// typescript-sdk 1.30.0's McpError and its timeout, anyio 4.x's cancel scope.
var (
	pyTimeout = []string{
		"class McpError(Exception):",
		"                        f\"Timed out while waiting for response to \"\n" +
			"                        f\"{request.__class__.__name__}. Waited \"\n" +
			"                        f\"{timeout} seconds.\"\n",
	}
	tsTimeout = []string{
		"export class McpError extends Error {",
		"super(`MCP error ${code}: ${message}`);",
		"McpError.fromError(ErrorCode.RequestTimeout, 'Request timed out', { timeout })",
	}
	anyioScope = []string{
		"raise RuntimeError(",
		`                    f"Attempted to exit cancel scope in a different task than it was "` + "\n" +
			`                    f"entered in"`,
	}
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		msg    string
		quotes []string
		bad    string // the part Check names; "" when the message holds
	}{
		{"McpError: Timed out while waiting for response to {request}. Waited {timeout} seconds.", pyTimeout, ""},
		{"Timed out while waiting for response to {request}. Waited {timeout} seconds.", pyTimeout, ""},
		{"McpError: Timed out while waiting for response to {request}. Waited {timeout} minutes.", pyTimeout, " minutes."},
		{"McpError: MCP error {code}: Request timed out", tsTimeout, ""},
		{"MCP error {code}: Request timed out", tsTimeout, ""},
		// The TS template is not the Python class's.
		{"McpError: MCP error {code}: Request timed out", pyTimeout, "McpError: MCP error "},
		{"RuntimeError: Attempted to exit cancel scope in a different task than it was entered in", anyioScope, ""},
		{"ZeroDivisionError: division by zero", append(append(pyTimeout, tsTimeout...), anyioScope...), "ZeroDivisionError: division by zero"},
		// A run may start inside its first piece and end inside its last, never in between.
		{"Connection closed", []string{`'Connection '`, `'closed by peer'`}, ""},
		{"nection closed by", []string{`'Connection '`, `'closed by peer'`}, ""},
		{"Connection peer", []string{`'Connection '`, `'closed by peer'`}, "Connection peer"},
		// A name counts outside a literal; words inside one only as its text.
		{"keyValidator._parse is not a function", []string{"value: keyValidator._parse(new ParseInputLazyPath(ctx, value, ctx.path, key)),", `T(CalledNonCallable, "% is not a function")`}, ""},
		{"ParseInputLazyPath is not a function", []string{`x = "ParseInputLazyPath"`, `"% is not a function"`}, ""},
		{"ctx value is not a function", []string{"value: keyValidator._parse(new ParseInputLazyPath(ctx, value)),", `"% is not a function"`}, "ctx value is not a function"},
		// A literal left open at the quote's end runs to its end; an escaped quote does not end one.
		{"Don't {verb} twice", []string{`msg = 'Don\'t {verb} twice'`}, ""},
		{"the server's reply", []string{`"the server's reply, and the rest`}, ""},
		{"Invalid Host header: {host}", []string{`logger.warning(f"Invalid Host header: {host}")`}, ""},
		{"Error POSTing to endpoint", []string{`"""Error POSTing to endpoint"""`}, ""},
		// A quote without quote marks may be a literal's inside, quoted without its backquotes.
		{"Streamable HTTP error: Error POSTing to endpoint: {body}", []string{"Streamable HTTP error: ${message}", "Error POSTing to endpoint: ${text}"}, ""},
		{"Error POSTing to endpoint (HTTP {status}): {body}", []string{"Error POSTing to endpoint (HTTP ${response.status}): ${text}"}, ""},
		// A number in code fills a literal's interpolation: httpx's line for a server's 421.
		{"For more information check: https://x.test/Status/421", []string{`"For more information check: https://x.test/Status/{0.status_code}"`, `Response("Invalid Host header", status_code=421)`}, ""},
		{"For more information check: https://x.test/Status/404", []string{`"For more information check: https://x.test/Status/{0.status_code}"`, `Response("Invalid Host header", status_code=421)`}, "For more information check: https://x.test/Status/404"},
	} {
		m, err := Parse(c.msg)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.msg, err)
			continue
		}
		_, err = Check([]Message{m}, c.quotes)
		switch {
		case c.bad == "" && err != nil:
			t.Errorf("Check(%q): %v, want it to hold", c.msg, err)
		case c.bad != "" && (err == nil || !strings.HasPrefix(err.Error(), `"`+c.bad+`" is not`)):
			t.Errorf("Check(%q) = %v, want it to name %q", c.msg, err, c.bad)
		}
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []Part
		err  string
	}{
		{in: "Waited {timeout} seconds.", want: []Part{{"Waited ", false}, {"timeout", true}, {" seconds.", false}}},
		{in: "{host}: Invalid Host header", want: []Part{{"host", true}, {": Invalid Host header", false}}},
		{in: "spawn {command} {code}", err: "under 8 characters"},
		{in: "Connection closed ", err: "without space around it"},
		{in: "", err: "without space around it"},
		{in: "Waited {Timeout} seconds.", err: "a brace outside {name}"},
		{in: "got {x}} here", err: "a brace outside {name}"},
	} {
		m, err := Parse(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Parse(%q): %v, want an error saying %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if len(m.Parts) != len(c.want) {
			t.Errorf("Parse(%q) = %+v, want %+v", c.in, m.Parts, c.want)
			continue
		}
		for i := range m.Parts {
			if m.Parts[i] != c.want[i] {
				t.Errorf("Parse(%q) = %+v, want %+v", c.in, m.Parts, c.want)
				break
			}
		}
	}
}

// TestGapNamesWhatNoQuoteHolds: a refusal names the shortest part of the
// run that leaves the rest made of the quotes, not the whole run.
func TestGapNamesWhatNoQuoteHolds(t *testing.T) {
	ps := map[string]bool{": ": true}
	for _, p := range pieces(`raise PoolClosed("pool is closed")`) {
		ps[p] = true
	}
	for _, c := range []struct{ run, want string }{
		{"quiver.PoolClosed: pool is closed", "quiver."},
		// A module that begins or is a word of a quote is named whole, not "ing." or ".".
		{"pooling.PoolClosed: pool is closed", "pooling."},
		{"pool.PoolClosed: pool is closed", "pool."},
		{"PoolClosed: pool is closed, retry", ", retry"},
		{"PoolClosed: the pool is closed now", "the pool is closed now"}, // one part, from the first gap to the last
	} {
		if got := gap(c.run, ps); got != c.want {
			t.Errorf("gap(%q) = %q, want %q", c.run, got, c.want)
		}
	}
}
