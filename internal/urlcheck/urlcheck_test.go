package urlcheck

import "testing"

func TestLink(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"https://github.com/modelcontextprotocol/python-sdk", true},
		{"http://example.org/", true},
		{"mailto:lilu@ability.ai", true},
		{"/pay/", true},
		{"#what-raises-it", true},
		{"../x", true},
		{"page.html?x=1:2", true}, // a colon after the first path character is no scheme
		{"javascript:alert(1)", false},
		{"JavaScript:alert(1)", false},
		{"java\tscript:alert(1)", false}, // a browser removes the tab
		{"java\nscript:alert(1)", false},
		{"\x01javascript:alert(1)", false}, // and strips the leading control
		{" javascript:alert(1)", false},
		{"vbscript:msgbox", false},
		{"data:text/html,<script>alert(1)</script>", false},
		{"file:///etc/passwd", false},
		{"https://ex\tample.org", false},
		{"https:gumroad.com/l/x", false}, // on an https page, a path of that page's: /mcp/x/gumroad.com/l/x
		{"http:/pay/", false},
		{`https:\\gumroad.com/l/x`, true}, // a browser reads \\ as //
	} {
		if err := Link(tc.url); (err == nil) != tc.ok {
			t.Errorf("Link(%q) = %v, want ok=%v", tc.url, err, tc.ok)
		}
	}
}

func TestScheme(t *testing.T) {
	for in, want := range map[string]string{
		"HTTPS://x": "https", "\x00\x1f javascript:x": "javascript", "ja\tva\nscript:": "javascript",
		"/a:b": "", "a b:c": "", "1http:x": "", "": "", "mailto:x": "mailto",
	} {
		if got := Scheme(in); got != want {
			t.Errorf("Scheme(%q) = %q, want %q", in, got, want)
		}
	}
}
