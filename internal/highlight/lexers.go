package highlight

import (
	"fmt"
	"maps"
	"reflect"
	"sync"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// Chroma gives each rule of each lexer a 250 ms match limit (regexp2's
// MatchTimeout), and a match that runs out of it counts as no match: the
// lexer takes the next rule, and the page changes with no error. regexp2
// keeps that limit with a clock that a goroutine moves on every 100 ms;
// on a loaded machine the goroutine runs late and the clock jumps, so a
// match that has just begun finds its deadline passed, and `raise` comes
// out as a name instead of a keyword. So the lexers used here are copies
// of chroma's, with chroma's rules, whose matches have no limit; Limit
// bounds a block instead, and loudly.
//
// A copy is made through chroma's own API: one more rule, in a state of
// its own, whose mutator chroma runs once after compiling the rules (as
// it runs Include's); it lifts the limit from every rule and takes itself
// out. Chroma keeps the lexing; nothing of it is forked.

// noLimit is regexp2's "no limit": a match never looks at the clock.
const noLimit = time.Duration(1<<63 - 1)

// untimeState is the state holding the rule that lifts the limits.
const untimeState = "errref-untimed"

type untime struct{}

func (untime) MutateLexer(rules chroma.CompiledRules, state string, _ int) error {
	delete(rules, state)
	for _, rs := range rules {
		for _, r := range rs {
			r.Regexp.MatchTimeout = noLimit
		}
	}
	return nil
}

// Mutate is never called: the rule is gone before any text is lexed.
func (untime) Mutate(*chroma.LexerState) error { return nil }

// registry holds the untimed copy of each of chroma's regex lexers, and
// is the registry they look each other up in (a rule handing part of the
// text to another language names it), so that they reach only copies.
var registry = sync.OnceValue(func() *chroma.LexerRegistry {
	reg := chroma.NewLexerRegistry()
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		if rl, ok := l.(*chroma.RegexLexer); ok {
			reg.Register(untimed(rl))
		}
	}
	return reg
})

// untimed returns a copy of l whose matches have no time limit.
func untimed(l *chroma.RegexLexer) *chroma.RegexLexer {
	return chroma.MustNewLexer(l.Config(), func() chroma.Rules {
		rules, err := l.Rules()
		if err != nil {
			// Without a root state the copy's Tokenise fails,
			// loudly; lexer has reported err before this runs.
			return nil
		}
		out := maps.Clone(rules)
		out[untimeState] = []chroma.Rule{{Mutator: untime{}}}
		return out
	})
}

// checked caches lexer's answer per language name.
var checked sync.Map // lang -> lexerResult

type lexerResult struct {
	l   chroma.Lexer
	err error
}

// lexer returns the untimed lexer for lang, or why there is none: the
// language is unknown, or chroma's lexer for it runs Go code of its own
// (it delegates to another lexer, or calls one from a function), which
// no copy reaches, so its matches would keep the limit.
func lexer(lang string) (chroma.Lexer, error) {
	if r, ok := checked.Load(lang); ok {
		return r.(lexerResult).l, r.(lexerResult).err
	}
	l, err := find(lang)
	checked.Store(lang, lexerResult{l, err})
	return l, err
}

func find(lang string) (chroma.Lexer, error) {
	orig := lexers.Get(lang)
	if orig == nil {
		return nil, fmt.Errorf("unknown code language %q", lang)
	}
	name := orig.Config().Name
	rl, ok := orig.(*chroma.RegexLexer)
	if !ok {
		return nil, fmt.Errorf("chroma's %s lexer (%q) is built from other lexers, out of reach of the fix that makes highlighting the same under any load", name, lang)
	}
	rules, err := rl.Rules()
	if err != nil {
		return nil, fmt.Errorf("chroma's %s lexer: %w", name, err)
	}
	if hasFunc(reflect.ValueOf(rules)) {
		return nil, fmt.Errorf("chroma's %s lexer (%q) calls Go code of its own, out of reach of the fix that makes highlighting the same under any load", name, lang)
	}
	l := registry().Get(name)
	if l == nil {
		return nil, fmt.Errorf("no copy of chroma's %s lexer", name)
	}
	return l, nil
}

// hasFunc reports whether v holds a function anywhere: a rule's emitter
// or mutator that is Go code rather than data, which may use lexers of
// chroma's registry directly.
func hasFunc(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Func:
		return !v.IsNil()
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil() && hasFunc(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if hasFunc(v.Field(i)) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if hasFunc(v.Index(i)) {
				return true
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if hasFunc(it.Value()) {
				return true
			}
		}
	}
	return false
}
