// Package linebreak marks where code-like text may wrap. A browser breaks
// a line only at spaces and hyphens, so a long dotted name such as
// mcp.shared.exceptions.McpError either overflows a phone's screen or,
// with overflow-wrap, is cut wherever the line ends: "Mc" / "pError".
// HTML adds a <wbr> at the points a reader expects a name to wrap, and
// nowhere inside a name.
package linebreak

import (
	"html"
	"strings"
)

// Short is the longest word that gets no mark: on the narrowest line the
// site lays out (a 320 px phone, the title's monospace at 1.45rem) 20
// characters fit, so a word this short wraps whole, and a mark in it would
// only cost bytes on the page's critical path.
const Short = 16

// HTML escapes s for HTML and, in each space-separated word longer than
// Short bytes, puts <wbr> after each '.', '/', '(', '=' or ',' that is
// followed by a letter, digit or underscore, after a '(' or ']' that a '['
// follows, and after each '_' that joins
// two words (read_timeout), so __init__ and _receive stay whole and no
// break falls inside a name or a run of punctuation (...). A quote and
// the bracket it opens ("{) go in a span the stylesheet keeps on one line.
func HTML(s string) string {
	words := strings.Split(s, " ")
	for w, word := range words {
		var b strings.Builder
		for i := 0; i < len(word); i++ {
			if opensWith(word, i) {
				// Chromium would break "{error_type} after its quote.
				b.WriteString(`<span class=nobr>` + html.EscapeString(word[i:i+2]) + `</span>`)
				i++
				continue
			}
			b.WriteString(html.EscapeString(word[i : i+1]))
			if len(word) > Short && breakAfter(word, i) {
				b.WriteString("<wbr>")
			}
		}
		words[w] = b.String()
	}
	return strings.Join(words, " ")
}

// breakAfter reports whether a line may break after s[i]: before a name,
// or before a bracket that opens a list or a subscript (f(['a'], x["a"]["b"]).
func breakAfter(s string, i int) bool {
	if i+1 < len(s) && s[i+1] == '[' {
		return s[i] == '(' || s[i] == ']'
	}
	if i+1 >= len(s) || !word(s[i+1]) {
		return false
	}
	switch s[i] {
	case '.', '/', '(', '=', ',':
		return true
	case '_':
		return i > 0 && alnum(s[i-1]) && alnum(s[i+1])
	}
	return false
}

// opensWith reports whether s[i] is a quote that the bracket after it opens.
func opensWith(s string, i int) bool {
	return i+1 < len(s) && (s[i] == '"' || s[i] == '\'') && strings.IndexByte("{([", s[i+1]) >= 0
}

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func word(c byte) bool { return alnum(c) || c == '_' }
