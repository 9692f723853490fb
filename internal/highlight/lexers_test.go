package highlight

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// TestRawRulesAreChromas: rawRules reads every lexer's rules through
// chroma's own reader (not through Rules, which compiles them), and for
// every lexer the build highlights with they are the rules Rules gives:
// the same states, and in each the same patterns with the same kinds of
// emitter and mutator. (The lexers it refuses include Raku, whose Go
// function builds a character class from a map, differently each time.)
func TestRawRulesAreChromas(t *testing.T) {
	n := 0
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		rl, ok := l.(*chroma.RegexLexer)
		if !ok {
			continue
		}
		name := rl.Config().Name
		if readRules(rl) == nil {
			t.Fatalf("%s: chroma's reader of a lexer's rules is not where rawRules looks for it; this chroma compiles each lexer twice", name)
		}
		raw, err := rawRules(rl)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if reachable(rl, map[string]bool{}) != nil {
			continue
		}
		want, err := rl.Rules()
		if err != nil {
			t.Errorf("%s: chroma: %v", name, err)
			continue
		}
		if got, want := describe(raw), describe(want); got != want {
			t.Errorf("%s: rawRules gives\n%s\nchroma's Rules gives\n%s", name, got, want)
		}
		n++
	}
	if n < 200 {
		t.Errorf("compared %d lexers; the build highlights with more than 200", n)
	}
}

// TestRawRulesDoNotCompile: a lexer whose pattern does not compile, which
// chroma's Rules refuses, still has its rules read.
func TestRawRulesDoNotCompile(t *testing.T) {
	l := chroma.MustNewLexer(&chroma.Config{Name: "broken"}, func() chroma.Rules {
		return chroma.Rules{"root": {{Pattern: `(`, Type: chroma.Text}}}
	})
	if _, err := l.Rules(); err == nil {
		t.Fatal("chroma compiled `(`")
	}
	rules, err := rawRules(l)
	if err != nil {
		t.Fatalf("rawRules compiled the rules: %v", err)
	}
	if got := describe(rules); got != "root: \"(\" chroma.TokenType <nil>\n" {
		t.Errorf("rawRules gives %q", got)
	}
}

// describe lists the rules, state by state in name order.
func describe(rules chroma.Rules) string {
	var s string
	for _, state := range slices.Sorted(maps.Keys(rules)) {
		for _, r := range rules[state] {
			s += fmt.Sprintf("%s: %q %T %T\n", state, r.Pattern, r.Type, r.Mutator)
		}
	}
	return s
}
