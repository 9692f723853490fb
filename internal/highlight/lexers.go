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
// language is unknown, or chroma's lexer for it could reach a lexer that
// is not a copy (see reachable), whose matches keep the limit.
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
	if err := reachable(orig, map[string]bool{}); err != nil {
		return nil, fmt.Errorf("%q: %w, out of reach of the fix that makes highlighting the same under any load", lang, err)
	}
	name := orig.Config().Name
	l := registry().Get(name)
	if l == nil {
		return nil, fmt.Errorf("no copy of chroma's %s lexer", name)
	}
	return l, nil
}

// reachable reports why l's copy could run a timed match: l, or a lexer
// its rules hand text to by name, is not a plain regex lexer (it
// delegates, or remaps another), or holds Go code of its own (which may
// call chroma's lexers directly), or picks a lexer by the text it reads.
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
	rules, err := rl.Rules()
	if err != nil {
		return fmt.Errorf("chroma's %s lexer: %w", name, err)
	}
	var in rulesInside
	in.walk(reflect.ValueOf(rules))
	switch {
	case in.code:
		return fmt.Errorf("chroma's %s lexer calls Go code of its own", name)
	case in.byText:
		return fmt.Errorf("chroma's %s lexer picks other lexers by the text", name)
	}
	for _, u := range in.uses {
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

// rulesInside is what a lexer's rules hold besides patterns and token
// types, as chroma's serialisable rules spell it.
type rulesInside struct {
	code   bool     // a function: Go code rather than data
	byText bool     // UsingByGroup: a lexer named by the text lexed
	uses   []string // Using: lexers named in the rules
}

const chromaPkg = "github.com/alecthomas/chroma/v2"

func (in *rulesInside) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Func:
		in.code = in.code || !v.IsNil()
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			in.walk(v.Elem())
		}
	case reflect.Struct:
		if v.Type().PkgPath() == chromaPkg {
			switch v.Type().Name() {
			case "usingEmitter":
				in.uses = append(in.uses, v.FieldByName("Lexer").String())
			case "usingByGroup":
				in.byText = true
			}
		}
		for i := range v.NumField() {
			in.walk(v.Field(i))
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			in.walk(v.Index(i))
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			in.walk(it.Value())
		}
	}
}
