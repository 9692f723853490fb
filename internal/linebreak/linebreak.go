// Package linebreak marks where code-like text may wrap: a browser breaks
// mcp.shared.exceptions.McpError only where the line ends ("Mc" / "pError"),
// so HTML adds a <wbr> where a reader expects a name to wrap, never inside one.
package linebreak

import (
	"html"
	"strings"
)

// Short is the longest word that gets no mark: 20 characters fit the
// narrowest line (a 320 px phone, the title at 1.45rem), so a mark in a
// word this short would only cost bytes.
const Short = 16

// HTML escapes s for code in running text and, in each word longer than
// Short, puts <wbr> where breakAfter allows, so that __init__, _receive and
// a run of punctuation (...) stay whole; a run between two marks longer than
// the 34 characters of code the narrowest line holds also breaks between
// its words (Streamable<wbr>HTTP<wbr>Server...), not at whatever letter
// ends the line. A quote and the bracket it opens ("{), and a ? and the
// name after it (?tls=require), go in a span the stylesheet keeps whole.
func HTML(s string) string { return marked(s, 34) }

// Title is HTML for a page's title, whose larger letters fit 20 to the line.
func Title(s string) string { return marked(s, 20) }

func marked(s string, long int) string {
	words := strings.Split(s, " ")
	for w, word := range words {
		var b strings.Builder
		run := 0 // where the run since the last mark starts
		for i := 0; i < len(word); i++ {
			if opensWith(word, i) {
				// Chromium would break "{error_type} after its quote, ?tls after its ?.
				b.WriteString(`<span class=nobr>` + html.EscapeString(word[i:i+2]) + `</span>`)
				i++
				continue
			}
			b.WriteString(html.EscapeString(word[i : i+1]))
			switch {
			case len(word) <= Short:
			case breakAfter(word, i):
				b.WriteString("<wbr>")
				run = i + 1
			case hump(word, i) && runEnd(word, i)-run > long:
				b.WriteString("<wbr>")
			}
		}
		words[w] = b.String()
	}
	return strings.Join(words, " ")
}

// hump reports whether s[i] ends a word of a CamelCase name: serverT, HTTPServer.
func hump(s string, i int) bool {
	upper := func(j int) bool { return j < len(s) && s[j] >= 'A' && s[j] <= 'Z' }
	lower := func(j int) bool { return j < len(s) && s[j] >= 'a' && s[j] <= 'z' }
	return upper(i+1) && (lower(i) || upper(i) && lower(i+2))
}

// runEnd is the end of the run that holds s[i]: after the next mark's place.
func runEnd(s string, i int) int {
	for ; i < len(s); i++ {
		if breakAfter(s, i) {
			return i + 1
		}
	}
	return len(s)
}

// breakAfter reports whether a line may break after s[i]: after '.', '/',
// '(', '=' or ',' before a name, after a '_' that joins two words
// (read_timeout), or before a list or subscript's bracket (f(['a'], x["a"]["b"]).
func breakAfter(s string, i int) bool {
	if i+1 < len(s) && s[i+1] == '[' {
		return s[i] == '(' || s[i] == ']'
	}
	if i+1 >= len(s) || !word(s[i+1]) {
		return false
	}
	return strings.IndexByte("./(=,", s[i]) >= 0 || s[i] == '_' && i > 0 && alnum(s[i-1]) && alnum(s[i+1])
}

// opensWith reports whether s[i] is a quote that the bracket after it
// opens, or a ? that a name follows.
func opensWith(s string, i int) bool {
	return i+1 < len(s) && ((s[i] == '"' || s[i] == '\'') && strings.IndexByte("{([", s[i+1]) >= 0 ||
		s[i] == '?' && word(s[i+1]))
}

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func word(c byte) bool { return alnum(c) || c == '_' }
