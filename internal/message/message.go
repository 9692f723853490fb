// Package message reads the lines a page says its error prints and holds
// each to the page's quotes, so the index lists no line the source cannot print.
package message

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// A Message is a line as a reader sees it: literal text, with the parts
// that are the reader's own (a host, a tool's name, a number) as Vars.
type Message struct {
	Parts []Part
}

// A Part is literal text, or a Var standing for the reader's own text.
type Part struct {
	Text string // the literal, or the Var's name
	Var  bool
}

// varRE is a part of the reader's own, {name}.
var varRE = regexp.MustCompile(`\{([a-z][a-z0-9_ ]*)\}`)

// Parse reads a message such as "McpError: Waited {timeout} seconds.".
func Parse(s string) (Message, error) {
	var m Message
	if strings.TrimSpace(s) != s || s == "" {
		return m, fmt.Errorf("message %q: write the line as printed, without space around it", s)
	}
	names := varRE.FindAllStringSubmatch(s, -1)
	for i, lit := range varRE.Split(s, -1) {
		if lit != "" {
			m.Parts = append(m.Parts, Part{Text: lit})
		}
		if i < len(names) {
			m.Parts = append(m.Parts, Part{Text: names[i][1], Var: true})
		}
	}
	switch own := varRE.ReplaceAllString(s, ""); { // the message's own text, outside its vars
	case strings.ContainsAny(own, "{}"):
		return m, fmt.Errorf("message %q: a brace outside {name}: mark the reader's own part as {name}, a lower-case name", s)
	case len(own) < 8:
		return m, fmt.Errorf("message %q: under 8 characters of its own text, it would match lines that are not this error", s)
	}
	return m, nil
}

// Check reports the first literal part of ms that is not a run of the quotes'
// pieces (see covered), with the index of its message. ": " is always a piece:
// Python and Node put it between an exception's class and its message.
func Check(ms []Message, quotes []string) (int, error) {
	ps := map[string]bool{": ": true}
	for _, q := range quotes {
		for _, p := range pieces(q) {
			ps[p] = true
		}
	}
	for i, m := range ms {
		for _, p := range m.Parts {
			if !p.Var && !covered(p.Text, ps) {
				return i, fmt.Errorf("%q is not made of the page's quotes: no quote holds %q: "+
					"quote the source line that prints it (its string literals and names), or mark the reader's own part as {name}",
					p.Text, gap(p.Text, ps))
			}
		}
	}
	return 0, nil
}

// covered reports whether s is a run of pieces: s[:i] the end of a piece
// (or a whole one), then whole pieces, and the rest the start of a piece.
func covered(s string, pieces map[string]bool) bool {
	reach := make([]bool, len(s)+1) // reach[i]: s[:i] is made of pieces
	for p := range pieces {
		for k := range len(p) {
			switch tail := p[k:]; {
			case strings.HasPrefix(tail, s):
				return true // s lies within one piece
			case strings.HasPrefix(s, tail):
				reach[len(tail)] = true
			}
		}
	}
	for i := 1; i < len(s); i++ {
		if !reach[i] {
			continue
		}
		for p := range pieces {
			switch rest := s[i:]; {
			case strings.HasPrefix(p, rest):
				return true
			case strings.HasPrefix(rest, p):
				reach[i+len(p)] = true
			}
		}
	}
	return reach[len(s)]
}

// gap is the shortest part of s, s[a:b], that leaves s[:a] and s[b:] each
// made of pieces: what the writer must quote, mark or drop.
func gap(s string, pieces map[string]bool) string {
	// A traceback's module before the class ("httpx." of httpx.ConnectError)
	// is named whole, not the few letters of it that no quote holds.
	if cls, _, ok := strings.Cut(s, ": "); ok && nameRE.FindString(cls) == cls {
		if i := strings.LastIndexByte(cls, '.') + 1; i > 0 && covered(s[i:], pieces) {
			return s[:i]
		}
	}
	best := s
	for a := 0; a < len(s); a++ {
		if !utf8.RuneStart(s[a]) || a > 0 && !covered(s[:a], pieces) {
			continue
		}
		for b := a + 1; b <= len(s) && b-a < len(best); b++ {
			if b == len(s) || utf8.RuneStart(s[b]) && covered(s[b:], pieces) {
				best = s[a:b]
				break
			}
		}
	}
	return best
}

// nameRE is a name in code, dotted or not: McpError, keyValidator._parse.
var (
	nameRE  = regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*`)
	tokenRE = regexp.MustCompile(nameRE.String() + `|[0-9]+`)
)

// pieces are the texts a quote of code can print: its string literals, cut
// at their interpolations, and the names and numbers outside them (a status
// code's 421, which a literal's {0.status_code} prints). A quote with no quote
// mark may be a literal's inside, so its own text counts too.
func pieces(q string) []string {
	var out []string
	if !strings.ContainsAny(q, "\"'`") {
		out = interpolated.Split(q, -1)
	}
	code := 0 // start of the code since the last literal
	for i := 0; i < len(q); i++ {
		if strings.IndexByte("\"'`", q[i]) < 0 {
			continue
		}
		out = append(out, tokenRE.FindAllString(q[code:i], -1)...)
		end := q[i : i+1]
		if strings.HasPrefix(q[i:], strings.Repeat(end, 3)) {
			end = q[i : i+3] // a Python triple-quoted string
		}
		j := i + len(end)
		for j < len(q) && !strings.HasPrefix(q[j:], end) {
			if q[j] == '\\' {
				j++
			}
			j++
		}
		j = min(j, len(q))
		out = append(out, interpolated.Split(unescape.Replace(q[i+len(end):j]), -1)...)
		i = j + len(end) - 1
		code = min(i+1, len(q))
	}
	return append(out, tokenRE.FindAllString(q[code:], -1)...)
}

var (
	// interpolated is a value put into a literal: {x} and ${x} in f-strings and
	// templates, %s in Python's % and Go's formats, % in V8's templates.
	interpolated = regexp.MustCompile(`\$?\{[^{}]*\}|%[sdrvq]?`)
	// unescape gives the quote characters and backslash a literal escapes.
	unescape = strings.NewReplacer(`\'`, `'`, `\"`, `"`, "\\`", "`", `\\`, `\`)
)
