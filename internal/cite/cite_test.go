package cite

import (
	"strings"
	"testing"
)

func TestParseAndURL(t *testing.T) {
	for _, tc := range []struct{ spec, url, label, lines string }{
		{"modelcontextprotocol/python-sdk@v1.29.0:src/mcp/shared/session.py#305-306",
			"https://github.com/modelcontextprotocol/python-sdk/blob/v1.29.0/src/mcp/shared/session.py#L305-L306",
			"src/mcp/shared/session.py, lines 305-306", "src/mcp/shared/session.py#305-306"},
		{"encode/httpx@0.28.1:httpx/_status_codes.py#124",
			"https://github.com/encode/httpx/blob/0.28.1/httpx/_status_codes.py#L124",
			"httpx/_status_codes.py, line 124", "httpx/_status_codes.py#124"},
		// A workspace's release, tagged by its scoped package name.
		{"modelcontextprotocol/typescript-sdk@@modelcontextprotocol/client@2.0.0:packages/client/src/client/client.ts#2443",
			"https://github.com/modelcontextprotocol/typescript-sdk/blob/@modelcontextprotocol/client@2.0.0/packages/client/src/client/client.ts#L2443",
			"packages/client/src/client/client.ts, line 2443", "packages/client/src/client/client.ts#2443"},
	} {
		s, err := Parse(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if s.URL() != tc.url || s.Label() != tc.label || s.String() != tc.spec || s.Lines() != tc.lines {
			t.Errorf("%s: %s %q %s %s", tc.spec, s.URL(), s.Label(), s, s.Lines())
		}
	}
	for _, bad := range []string{"x", "a/b@v1:../etc/passwd#1", "a/b@v1:p#0", "a/b@v1:p#5-3", "a/b:p#1", "a/b@@s/p:x#1", "a/b@@s@1:x#1"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) passed", bad)
		}
	}
}

// TestParseRefusesLinesPastInt: a line number too large for an int is an
// error, not a number clamped to the largest one.
func TestParseRefusesLinesPastInt(t *testing.T) {
	for _, spec := range []string{
		"a/b@v1:x.py#99999999999999999999",
		"a/b@v1:x.py#1-99999999999999999999",
	} {
		if _, err := Parse(spec); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("Parse(%q) = %v, want out of range", spec, err)
		}
	}
}
