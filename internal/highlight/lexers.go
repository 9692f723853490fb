package highlight

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"html"
	"regexp"
	"runtime"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
	"golang.org/x/sync/errgroup"
)

// Chroma gives each rule a 250 ms match limit, and a match that runs out
// of it counts as no match: on a loaded machine regexp2's coarse clock
// jumps, and `raise` silently comes out as a name, not a keyword. So the
// lexers used here are copies of chroma's, made through its own API
// (untime), with no match limit; Limit bounds a block instead, loudly.

// untime is a copy's one rule, whose mutator chroma runs once after
// compiling: it makes the states' rules from the lexer's, compiles them on
// all cores (chroma would compile them one by one), in the frame (anchor,
// flags) chroma gave its own pattern, lifts every limit, keeps each
// state's rules for lex (merge.go), and takes itself out.
type untime struct {
	raw    chroma.Rules       // the lexer's
	states map[string]*merged // each state's rules, merged
}

func (u *untime) MutateLexer(rules chroma.CompiledRules, state string, _ int) error {
	self := rules[state]
	delete(rules, state)
	if len(self) != 1 || self[0].Regexp == nil || !strings.Contains(self[0].Regexp.String(), framePlaceholder) {
		return fmt.Errorf("chroma compiled %q, not as a rule's pattern", framePlaceholder)
	}
	frame := self[0].Regexp.String()
	for state, rs := range u.raw {
		rules[state] = make([]*chroma.CompiledRule, len(rs))
		for i, r := range rs {
			rules[state][i] = &chroma.CompiledRule{Rule: r}
		}
	}
	// Merging needs each state's final rules, so the compile-time
	// mutators that remain (Include, Combined) run first, as chroma
	// would run them after this one; chroma checks the emitters of
	// these same rules after this returns.
	if err := expand(rules); err != nil {
		return err
	}
	first, err := compile(rules, frame)
	if err != nil {
		return err
	}
	for state, rs := range rules {
		u.states[state] = &merged{rules: rs, first: first}
	}
	return nil
}

// expand runs the compile-time mutators left in rules, one at a time and
// each on the rules the last one left, as chroma's compile does.
func expand(rules chroma.CompiledRules) error {
next:
	for range 100_000 {
		for state, rs := range rules {
			for i, r := range rs {
				if m, ok := r.Mutator.(chroma.LexerMutator); ok {
					if err := m.MutateLexer(rules, state, i); err != nil {
						return err
					}
					continue next
				}
			}
		}
		return nil
	}
	return fmt.Errorf("compile-time mutators did not end")
}

// Mutate is never called: the rule is gone before any text is lexed.
func (*untime) Mutate(*chroma.LexerState) error { return nil }

// registry holds the untimed copy of each of chroma's regex lexers, where
// they look each other up, so that they reach only copies.
var registry = sync.OnceValue(func() *chroma.LexerRegistry {
	reg := chroma.NewLexerRegistry()
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		if rl, ok := l.(*chroma.RegexLexer); ok {
			reg.Register(untimed(rl))
		}
	}
	return reg
})

// A lexerCopy is an untimed copy of a lexer of chroma's, which lexes with
// lex (merge.go). Text a lexer hands to itself in another state
// (UsingSelf) goes through chroma's loop, one rule at a time, untimed all the same.
type lexerCopy struct {
	*chroma.RegexLexer
	u *untime
}

// Tokenise is chroma's RegexLexer.Tokenise, with lex for its loop.
func (c *lexerCopy) Tokenise(o *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	if _, err := c.Rules(); err != nil { // compiles the copy: untime runs
		return nil, err
	}
	return lex(c, cmp.Or(o, &chroma.TokeniseOptions{State: "root", EnsureLF: true}), text), nil
}

// untimed returns a copy of l whose matches have no time limit.
func untimed(l *chroma.RegexLexer) *lexerCopy {
	u := &untime{states: map[string]*merged{}}
	return &lexerCopy{u: u, RegexLexer: chroma.MustNewLexer(l.Config(), func() chroma.Rules {
		// Chroma hands out rules compiled: the copy compiles them again.
		rules, err := l.Rules()
		if err != nil {
			// The copy's Tokenise fails loudly; lexer reported err already.
			return nil
		}
		// chroma refuses a lexer without a root state; untime makes them all.
		u.raw = rules
		return chroma.Rules{"root": nil, "errref-untimed": {{Pattern: framePlaceholder, Mutator: u}}}
	})}
}

// framePlaceholder is the pattern of a copy's one rule for chroma
// to compile, which stands for each of the lexer's patterns.
const framePlaceholder = "(?#errref: a pattern of chroma's goes here; see internal/highlight/lexers.go)"

// compile compiles every rule (none has a regexp yet) in frame, side by side,
// with regexp2's default of no time limit, and returns the characters each can
// begin with (nil: unknown).
func compile(rules chroma.CompiledRules, frame string) (map[*chroma.CompiledRule]*syntax.CharSet, error) {
	var todo []*chroma.CompiledRule
	first := map[*chroma.CompiledRule]*syntax.CharSet{}
	for _, rs := range rules {
		for _, r := range rs {
			if _, ok := first[r]; !ok {
				first[r] = nil
				todo = append(todo, r)
			}
		}
	}
	sets := make([]*syntax.CharSet, len(todo))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, r := range todo {
		g.Go(func() (err error) {
			r.Regexp, err = regexp2.Compile(strings.Replace(frame, framePlaceholder, r.Pattern, 1))
			if err != nil {
				// As chroma's compile would have failed.
				return fmt.Errorf("failed to compile rule %q: %w", r.Pattern, err)
			}
			sets[i], err = firstSet(r.Regexp.String())
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for i, r := range todo {
		first[r] = sets[i]
	}
	return first, nil
}

var checked sync.Map // lang -> find's answer, once: func() (*lexerCopy, error)

// lexer returns the untimed lexer for lang, or why there is none.
func lexer(lang string) (*lexerCopy, error) {
	f, _ := checked.LoadOrStore(lang, sync.OnceValues(func() (*lexerCopy, error) { return find(lang) }))
	return f.(func() (*lexerCopy, error))()
}

func find(lang string) (*lexerCopy, error) {
	orig := lexers.Get(lang)
	if orig == nil {
		return nil, fmt.Errorf("unknown code language %q", lang)
	}
	if err := reachable(orig, map[string]bool{}); err != nil {
		return nil, fmt.Errorf("%q: %w, out of reach of the fix that makes highlighting the same under any load", lang, err)
	}
	name := orig.Config().Name
	l, _ := registry().Get(name).(*lexerCopy)
	if l == nil {
		return nil, fmt.Errorf("no copy of chroma's %s lexer", name)
	}
	return l, nil
}

// usingRE finds each lexer that a lexer's XML hands text to by name: the
// XML escapes every < in a value, so this is always an element's start.
var usingRE = regexp.MustCompile(`<using lexer="([^"]*)"`)

// reachable reports why l's copy could run a timed match: l, or a lexer it
// hands text to, is not a plain regex lexer, holds Go code (which Marshal
// refuses), or picks a lexer by the text it reads.
func reachable(l chroma.Lexer, seen map[string]bool) error {
	name := l.Config().Name
	if seen[name] {
		return nil
	}
	seen[name] = true
	rl, ok := l.(*chroma.RegexLexer)
	if !ok {
		return fmt.Errorf("chroma's %s lexer is built from other lexers", name)
	}
	data, err := chroma.Marshal(rl)
	if errors.Is(err, chroma.ErrNotSerialisable) {
		return fmt.Errorf("chroma's %s lexer calls Go code of its own", name)
	} else if err != nil {
		return fmt.Errorf("chroma's %s lexer: %w", name, err)
	}
	if bytes.Contains(data, []byte("<usingbygroup")) {
		return fmt.Errorf("chroma's %s lexer picks other lexers by the text", name)
	}
	for _, m := range usingRE.FindAllSubmatch(data, -1) {
		u := html.UnescapeString(string(m[1]))
		sub := lexers.Get(u)
		if sub == nil {
			return fmt.Errorf("chroma's %s lexer uses %s, which chroma does not have", name, u)
		}
		if err := reachable(sub, seen); err != nil {
			return fmt.Errorf("%w (used by %s)", err, name)
		}
	}
	return nil
}
