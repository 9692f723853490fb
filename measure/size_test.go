package measure_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os/exec"
	"testing"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// The budget for the bundled /measure.js, gzip -9. The size is
// deterministic, so the test asserts it exactly against both numbers: the
// ceiling is the hard limit, the target 1 KiB and the 40 B that saying
// "Copied" (or selecting the block the browser would not copy) costs.
// Raising either one is a decision, not a test fix.
const (
	gzipTarget  = 1064
	gzipCeiling = 1300
)

func gzipSize(t *testing.T, data []byte) int {
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Len()
}

func TestMeasureJSGzipSize(t *testing.T) {
	js := files(t)["measure.js"]
	sizes := map[string]int{"compress/gzip level 9": gzipSize(t, js)}
	// The budget is stated in gzip command terms; the command is on every Debian
	// machine, CI included. Without it, compress/gzip alone decides.
	if _, err := exec.LookPath("gzip"); err == nil {
		cmd := exec.Command("gzip", "-9", "-n", "-c")
		cmd.Stdin = bytes.NewReader(js)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		sizes["gzip -9"] = len(out)
	} else {
		t.Log("no gzip command here: measuring with compress/gzip only")
	}
	for how, n := range sizes {
		t.Logf("measure.js: %d B raw, %d B by %s", len(js), n, how)
		if n > gzipCeiling {
			t.Errorf("measure.js is %d B by %s: over the hard ceiling of %d B", n, how, gzipCeiling)
		} else if n > gzipTarget {
			t.Errorf("measure.js is %d B by %s: under the %d B ceiling, but over the %d B target", n, how, gzipCeiling, gzipTarget)
		}
	}
}

// TestMeasureJSIsES5 parses the bundle and refuses syntax newer than ES5. A
// browser without fetch must parse the file and then do nothing; a syntax
// error there would be thrown into its page. The minifier is told the same
// (Version 2009), and this test holds both it and the source to it.
func TestMeasureJSIsES5(t *testing.T) {
	ast, err := js.Parse(parse.NewInputBytes(files(t)["measure.js"]), js.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := &es5{}
	js.Walk(v, ast)
	for _, f := range v.found {
		t.Errorf("measure.js uses %s, which an ES5 browser cannot parse", f)
	}
}

type es5 struct{ found []string }

func (v *es5) Enter(n js.INode) js.IVisitor {
	var what string
	switch n := n.(type) {
	case *js.ArrowFunc:
		what = "an arrow function"
	case *js.TemplateExpr:
		what = "a template literal"
	case *js.ClassDecl:
		what = "a class"
	case *js.ForOfStmt:
		what = "for...of"
	case *js.TryStmt:
		if n.Catch != nil && n.Binding == nil {
			what = "a catch without a binding"
		}
	case *js.VarDecl:
		if n.TokenType != js.VarToken {
			what = n.TokenType.String()
		}
	case *js.FuncDecl:
		if n.Async || n.Generator {
			what = "an async or generator function"
		}
	case *js.BinaryExpr:
		if n.Op == js.NullishToken || n.Op == js.ExpToken {
			what = n.Op.String()
		}
	case *js.DotExpr:
		if n.Optional {
			what = "optional chaining"
		}
	case *js.CallExpr:
		if n.Optional {
			what = "optional chaining"
		}
	case *js.IndexExpr:
		if n.Optional {
			what = "optional chaining"
		}
	}
	if what != "" {
		v.found = append(v.found, fmt.Sprintf("%s (%s)", what, n.String()))
	}
	return v
}

func (v *es5) Exit(js.INode) {}
