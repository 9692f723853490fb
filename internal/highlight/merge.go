package highlight

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

// Chroma tries a state's rules one by one at each position, each a regexp2
// match paying its set-up even when the rule cannot begin with the character
// at hand: most of a cold build's time. So each state's rules become one
// merged rule, whose engine (regexp2.RegisterEngine) skips the rules that
// regexp2's analysis says cannot begin there and hands over to the first that
// matches. TestCopiesLexAsChromaDoes holds it to chroma's own lexer.

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

// A merged rule stands for rules, tried in their order.
type merged struct {
	rules []*chroma.CompiledRule
	// first is the set of characters each rule can begin with, or nil
	// when regexp2 cannot say (the rule may match the empty string).
	first map[*chroma.CompiledRule]*syntax.CharSet
	// ascii[c] lists, in order, the rules that can begin with c; it is
	// made on the first c the state meets.
	ascii [utf8.RuneSelf]atomic.Pointer[[]int]

	// found hands the rule that matched from Execute, which returns only
	// the length, to Mutate, by the text lexed: lexers run side by side.
	mu    sync.Mutex
	found map[*rune]foundRule
}

type foundRule struct {
	pos   int
	rule  int
	match *regexp2.Match
}

// engines numbers the merged rules' patterns: regexp2 keeps an engine by its pattern.
var engines atomic.Int64

// newMerged is the rule that stands for rs; first holds each rule's first characters.
func newMerged(rs []*chroma.CompiledRule, first map[*chroma.CompiledRule]*syntax.CharSet) *chroma.CompiledRule {
	m := &merged{rules: rs, first: first, found: map[*rune]foundRule{}}
	// Compiled as a pattern instead of by m.find, it would never match:
	// every character an error, loud, not a different page.
	pattern := fmt.Sprintf(`\G(?#errref: %d rules of chroma's, merged; see internal/highlight/merge.go)(?!)(?#%d)`, len(rs), engines.Add(1))
	regexp2.RegisterEngine(pattern, regexp2.RuntimeEngineData{
		CapSize: 1,
		FindFirstChar: func(r *regexp2.Runner) bool {
			// \G: only where the match was asked for.
			if r.Runtextpos > r.Runtextstart {
				r.Runtextpos = r.Runtextend
				return false
			}
			return true
		},
		Execute: func(r *regexp2.Runner) error {
			i, match, err := m.find(r.Runtext, r.Runtextpos)
			if match != nil {
				m.mu.Lock()
				m.found[textKey(r.Runtext)] = foundRule{r.Runtextpos, i, match}
				m.mu.Unlock()
				r.Capture(0, match.RuneIndex, match.RuneIndex+match.RuneLength)
			}
			return err
		},
	})
	re := regexp2.MustCompile(pattern)
	re.MatchTimeout = noLimit
	return &chroma.CompiledRule{
		Rule:   chroma.Rule{Pattern: pattern, Type: m, Mutator: m},
		Regexp: re,
	}
}

func (m *merged) candidates(c rune) []int {
	if l := m.ascii[c].Load(); l != nil {
		return *l
	}
	l := []int{}
	for i, r := range m.rules {
		if f := m.first[r]; f == nil || f.Contains(c) {
			l = append(l, i)
		}
	}
	m.ascii[c].Store(&l)
	return l
}

// find returns the first rule that matches text at pos, and its match: the rule chroma would take.
func (m *merged) find(text []rune, pos int) (int, *regexp2.Match, error) {
	if pos < len(text) && text[pos] < utf8.RuneSelf {
		for _, i := range m.candidates(text[pos]) {
			if match, err := at(m.rules[i], text, pos); match != nil || err != nil {
				return i, match, err
			}
		}
		return -1, nil, nil
	}
	for i, r := range m.rules {
		// At the end of the text, only a rule that may match nothing can.
		if f := m.first[r]; f == nil || pos < len(text) && f.Contains(text[pos]) {
			if match, err := at(r, text, pos); match != nil || err != nil {
				return i, match, err
			}
		}
	}
	return -1, nil, nil
}

// at matches rule r at pos, as chroma does.
func at(r *chroma.CompiledRule, text []rune, pos int) (*regexp2.Match, error) {
	match, err := r.Regexp.FindRunesMatchStartingAt(text, pos)
	if err != nil || match == nil || match.RuneIndex != pos {
		return nil, err
	}
	return match, nil
}

// textKey tells the texts being lexed apart: each lexer state holds its own copy of its text.
func textKey(text []rune) *rune {
	if len(text) == 0 {
		return nil
	}
	return &text[0]
}

// taken is the key under which Mutate leaves the rule it found for Emit,
// which chroma calls next with the same state.
type taken struct{}

// Mutate finds the rule that matched, gives the state the groups that
// rule's match has, and runs the rule's mutator.
func (m *merged) Mutate(s *chroma.LexerState) error {
	pos := s.Pos - utf8.RuneCountInString(s.Groups[0])
	m.mu.Lock()
	f, ok := m.found[textKey(s.Text)]
	delete(m.found, textKey(s.Text))
	m.mu.Unlock()
	if !ok || f.pos != pos {
		return fmt.Errorf("merged rules: no match recorded at %d", pos)
	}
	r := m.rules[f.rule]
	gs := f.match.Groups()
	s.Groups = make([]string, len(gs))
	for i, g := range gs {
		s.Groups[i] = g.String()
	}
	// Only Go code reads NamedGroups (ByGroupNames, Raku's lexer), and a
	// lexer with Go code is never copied (lexers.go): a map a token
	// would be a tenth of the build's time.
	s.NamedGroups = nil
	s.Set(taken{}, r)
	if r.Mutator != nil {
		return r.Mutator.Mutate(s)
	}
	return nil
}

// Emit emits what the rule Mutate found emits.
func (m *merged) Emit(groups []string, s *chroma.LexerState) chroma.Iterator {
	r, _ := s.Get(taken{}).(*chroma.CompiledRule)
	if r == nil || r.Type == nil {
		return func() chroma.Token { return chroma.EOF }
	}
	return r.Type.Emit(groups, s)
}
