package highlight

import (
	"fmt"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

// Chroma tries a state's rules one by one at each position, each a regexp2
// match paying its set-up even when the rule cannot begin with the character
// at hand, and makes a map for each token: most of a cold build's time. So
// the copies lex with a loop of their own, lex, which tries only the rules
// that regexp2's analysis says can begin there. TestCopiesLexAsChromaDoes
// holds it to chroma's own lexer.

// firstSet is regexp2's own first-character analysis of a rule's pattern
// (expr, as compiled, anchored), the one regexp2 skips ahead by when a
// pattern is not anchored as chroma's are.
func firstSet(expr string) (*syntax.CharSet, error) {
	p, ok := strings.CutPrefix(expr, `\G`)
	if !ok {
		return nil, fmt.Errorf("rule %q is not anchored as chroma anchors its rules", expr)
	}
	tree, err := syntax.Parse(p, syntax.ParseOptions{})
	if err != nil {
		return nil, fmt.Errorf("rule %q: %w", p, err)
	}
	code, err := syntax.Write(tree)
	if err != nil {
		return nil, fmt.Errorf("rule %q: %w", p, err)
	}
	if code.FcPrefix == nil {
		return nil, nil
	}
	return &code.FcPrefix.PrefixSet, nil
}

// merged holds a state's rules, tried in their order.
type merged struct {
	rules []*chroma.CompiledRule
	first map[*chroma.CompiledRule]*syntax.CharSet // compile's
	ascii [utf8.RuneSelf]atomic.Pointer[[]int]     // candidates, made on a character's first use
}

// candidates lists, in order, the rules that can begin with c, or that
// regexp2 cannot say of (such a rule may match the empty string).
func (m *merged) candidates(c rune) []int {
	if c < utf8.RuneSelf {
		if l := m.ascii[c].Load(); l != nil {
			return *l
		}
	}
	l := []int{}
	for i, r := range m.rules {
		if f := m.first[r]; f == nil || f.Contains(c) {
			l = append(l, i)
		}
	}
	if c < utf8.RuneSelf {
		m.ascii[c].Store(&l)
	}
	return l
}

// find returns the first rule that matches text at pos, and its match: the
// rule chroma would take (a rule whose match fails is, to chroma, no match).
func (m *merged) find(text []rune, pos int) (int, *regexp2.Match) {
	for _, i := range m.candidates(text[pos]) {
		if match := at(m.rules[i], text, pos); match != nil {
			return i, match
		}
	}
	return -1, nil
}

// at matches rule r at pos, as chroma does.
func at(r *chroma.CompiledRule, text []rune, pos int) *regexp2.Match {
	match, err := r.Regexp.FindRunesMatchStartingAt(text, pos)
	if err != nil || match == nil || match.RuneIndex != pos {
		return nil
	}
	return match
}

// lex returns the tokens of text, lexed by l's rules from the state o
// names, as chroma's RegexLexer.Tokenise does, but through find.
func lex(l *lexerCopy, o *chroma.TokeniseOptions, text string) chroma.Iterator {
	if o.EnsureLF {
		text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	}
	end := utf8.RuneCountInString(text) // a line end added here is not lexed
	if !o.Nested && l.Config().EnsureNL && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	// Rules and NamedGroups stay unset: only Go code reads them (ByGroupNames),
	// and a lexer with Go code is never copied (lexers.go).
	s := &chroma.LexerState{
		Lexer: l.RegexLexer, Registry: registry(), Text: []rune(text),
		Stack: []string{o.State}, MutatorContext: map[any]any{},
	}
	var pending []chroma.Iterator // what the rules taken emit, last on top
	return func() chroma.Token {
		for {
			for len(pending) > 0 {
				n := len(pending) - 1
				switch t := pending[n](); {
				case t == chroma.EOF:
					pending = pending[:n]
				case t.Type != chroma.Ignore:
					return t
				}
			}
			if s.Pos >= end || len(s.Stack) == 0 {
				break
			}
			s.State = s.Stack[len(s.Stack)-1]
			m := l.u.states[s.State]
			if m == nil {
				panic("unknown state " + s.State)
			}
			i, match := m.find(s.Text, s.Pos)
			if match == nil {
				// As chroma (and Pygments): an unmatched line end starts the next line in the first state.
				if s.Text[s.Pos] == '\n' && s.State != o.State {
					s.Stack = []string{o.State}
					continue
				}
				s.Pos++
				return chroma.Token{Type: chroma.Error, Value: string(s.Text[s.Pos-1 : s.Pos])}
			}
			r := m.rules[i]
			gs := match.Groups()
			s.Rule, s.Groups = i, make([]string, len(gs))
			for j, g := range gs {
				s.Groups[j] = g.String()
			}
			s.Pos += match.RuneLength
			if r.Mutator != nil {
				if err := r.Mutator.Mutate(s); err != nil {
					panic(err)
				}
			}
			if r.Type != nil {
				pending = append(pending, r.Type.Emit(s.Groups, s))
			}
		}
		if s.Pos != len(s.Text) && len(s.Stack) == 0 {
			value := string(s.Text[s.Pos:])
			s.Pos = len(s.Text)
			return chroma.Token{Type: chroma.Error, Value: value}
		}
		return chroma.EOF
	}
}
