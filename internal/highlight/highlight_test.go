package highlight

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

var update = flag.Bool("update", false, "rewrite chroma.css from chroma's styles")

// generate writes chroma's stylesheet for the two themes, each under its
// own colour scheme.
func generate() ([]byte, error) {
	var b bytes.Buffer
	for _, scheme := range []struct{ media, style string }{
		{"light", LightStyle},
		{"dark", DarkStyle},
	} {
		st := styles.Get(scheme.style)
		if st.Name != scheme.style {
			return nil, fmt.Errorf("chroma has no style %q", scheme.style)
		}
		fmt.Fprintf(&b, "@media (prefers-color-scheme: %s){\n", scheme.media)
		if err := formatter.WriteCSS(&b, st); err != nil {
			return nil, err
		}
		b.WriteString("}\n")
	}
	return b.Bytes(), nil
}

// TestCSSIsCurrent holds chroma.css to what chroma's styles give today.
func TestCSSIsCurrent(t *testing.T) {
	want, err := generate()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("chroma.css", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(CSS(), want) {
		t.Error("chroma.css is stale: run go test ./internal/highlight -update")
	}
}

// TestClassesDoNotDependOnTheStyle: the build formats with an empty style;
// the markup must be what the real theme would give.
func TestClassesDoNotDependOnTheStyle(t *testing.T) {
	code := "def f(x):\n    return x + 1  # one more\n"
	var got, want bytes.Buffer
	if err := Code(&got, "python", code); err != nil {
		t.Fatal(err)
	}
	it, _ := chroma.Coalesce(lexers.Get("python")).Tokenise(nil, code)
	if err := formatter.Format(&want, styles.Get(LightStyle), it); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("with the empty style:\n%s\nwith %s:\n%s", got.String(), LightStyle, want.String())
	}
	if !strings.Contains(got.String(), `class="c-k"`) {
		t.Errorf("no keyword class in %s", got.String())
	}
}
