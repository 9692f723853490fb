package linebreak

import "testing"

func TestHTML(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"mcp.shared.exceptions.McpError: Connection closed", "mcp.<wbr>shared.<wbr>exceptions.<wbr>McpError: Connection closed"},
		{"src/mcp/client/stdio/__init__.py", "src/<wbr>mcp/<wbr>client/<wbr>stdio/<wbr>__init__.<wbr>py"},
		{"read_timeout_seconds", "read_<wbr>timeout_<wbr>seconds"},
		{"self._receive_loop", "self.<wbr>_receive_<wbr>loop"},
		{"ClientSession(..., read_timeout_seconds=timedelta(seconds=30))", "ClientSession(..., read_<wbr>timeout_<wbr>seconds=<wbr>timedelta(<wbr>seconds=<wbr>30))"},
		{"f(alpha,beta,gamma,delta)", "f(<wbr>alpha,<wbr>beta,<wbr>gamma,<wbr>delta)"},
		// Before a list or a subscript, after the bracket or call that opens it.
		{"hostHeaderValidation(['localhost', '127.0.0.1'])", "hostHeaderValidation(<wbr>[&#39;localhost&#39;, &#39;127.0.0.1&#39;])"},
		{`config["mcpServers"][server_name]`, `config[&#34;mcpServers&#34;]<wbr>[server_<wbr>name]`},
		// Words of Short bytes or fewer wrap whole: no mark.
		{"e.error.code == 408", "e.error.code == 408"},
		{"read_timeout_sec", "read_timeout_sec"},
		{"Timed out … <seconds> seconds.", "Timed out … &lt;seconds&gt; seconds."},
		{`"a<b&c".defghijklmnop`, "&#34;a&lt;b&amp;c&#34;.<wbr>defghijklmnop"},
		{"UrlElicitationRequiredError", "UrlElicitationRequiredError"},
		// A run longer than the narrowest line of code breaks between the words of its name.
		{"StreamableHTTPServerTransportOptionsForTests", "Streamable<wbr>HTTP<wbr>Server<wbr>Transport<wbr>Options<wbr>For<wbr>Tests"},
		{"mcp.StreamableHTTPServerTransportOptionsForTests", "mcp.<wbr>Streamable<wbr>HTTP<wbr>Server<wbr>Transport<wbr>Options<wbr>For<wbr>Tests"},
		// A quote stays with the bracket it opens, which Chromium would part.
		{`"{error_type} '{0.url}'\n"`, `<span class=nobr>&#34;{</span>error_type} <span class=nobr>&#39;{</span>0.url}&#39;\n&#34;`},
		{`f"{self._read_timeout_seconds}"`, `f<span class=nobr>&#34;{</span>self.<wbr>_read_<wbr>timeout_<wbr>seconds}&#34;`},
		{"add ?tls=require", "add <span class=nobr>?t</span>ls=require"},
		{"", ""},
	} {
		if got := HTML(tc.in); got != tc.want {
			t.Errorf("HTML(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
	// A title's larger letters: a run of more than 20 breaks between words.
	for _, tc := range []struct{ in, want string }{
		{"ValidationError: StreamableHTTPServerTransportOptions is invalid", "ValidationError: Streamable<wbr>HTTP<wbr>Server<wbr>Transport<wbr>Options is invalid"},
		{"anyio.ClosedResourceError", "anyio.<wbr>ClosedResourceError"},
	} {
		if got := Title(tc.in); got != tc.want {
			t.Errorf("Title(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
