package htmlcheck

import (
	"strings"
	"testing"
)

// TestIslands: what the HTML lexer hands back whole (<svg>, <math>) is
// checked element by element, like the rest of the page.
func TestIslands(t *testing.T) {
	for _, tc := range []struct {
		doc, want string // want: in one problem; "" for none
	}{
		{`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><path d="M0 0"/></svg>`, ""},
		{`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>`, "<svg onload=...>: inline event handlers"},
		{`<p>x</p><svg><g><circle onclick="x()"/></g></svg>`, "<circle onclick=...>"},
		{`<svg><script>alert(1)</script></svg>`, "a <script> other than"},
		{`<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>`, "uses the scheme javascript"},
		{`<svg><a href="java&#9;script:alert(1)">x</a></svg>`, "control character"},
		{`<svg><foreignObject><iframe src="/x"></iframe></foreignObject></svg>`, "<iframe> is not allowed"},
		{`<math><mi style="color:red">x</mi></math>`, "inline styles are not allowed"},
		{`<a href="jav&#x09;ascript:alert(1)">x</a>`, "control character"},
		{`<a href=" javascript:alert(1)">x</a>`, "uses the scheme javascript"},
	} {
		ps := Check([]byte(tc.doc)).Problems
		var msgs []string
		for _, p := range ps {
			msgs = append(msgs, p.Msg)
		}
		got := strings.Join(msgs, "\n")
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("Check(%s) = %q, want %q", tc.doc, got, tc.want)
		}
	}
}
