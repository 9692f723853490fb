// Package highlight turns code into HTML with chroma, using CSS classes
// only, so that the page's CSP needs no 'unsafe-inline' for styles, and
// supplies the matching light and dark stylesheet.
package highlight

import (
	_ "embed"
	"fmt"
	"io"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
)

// Styles used for the light and the dark color scheme.
const (
	LightStyle = "github"
	DarkStyle  = "github-dark"
)

// WrapperClass is the class chroma's stylesheet scopes every rule to
// (".c-chroma .c-k{...}"). The element around highlighted code must carry
// it, or no token is coloured.
const WrapperClass = "c-chroma"

// The formatter is set up once: it holds no state between calls.
var formatter = chromahtml.New(
	chromahtml.WithClasses(true),
	// No <pre> wrapper: the Markdown renderer writes its own, with an id
	// for the copy control and WrapperClass. Classes are prefixed to keep
	// them apart from the site's own.
	chromahtml.PreventSurroundingPre(true),
	chromahtml.ClassPrefix("c-"),
)

// With classes, the formatter writes each token's class whatever the
// style says; the colours live in the stylesheet. So the build passes an
// empty style and never loads chroma's styles package, whose init parses
// every bundled theme (10 ms of a 40 ms build).
var classesOnly = chroma.MustNewStyle("classes", chroma.StyleEntries{})

// css is chroma's stylesheet for LightStyle and DarkStyle, written by
// go test ./internal/highlight -update, which also fails while it is stale.
//
//go:embed chroma.css
var css []byte

// Known reports whether lang names a language chroma can highlight.
func Known(lang string) bool { return lang != "" && lexers.Get(lang) != nil }

// Code writes code as highlighted HTML spans. An unknown or empty lang is
// written as escaped plain text; the caller decides whether to warn.
func Code(w io.Writer, lang, code string) error {
	lexer := lexers.Get(lang)
	if lang == "" || lexer == nil {
		lexer = lexers.Get("plaintext")
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return fmt.Errorf("highlight %s: %w", lang, err)
	}
	return formatter.Format(w, classesOnly, it)
}

// CSS returns the stylesheet for highlighted code, each theme under its own
// prefers-color-scheme. Neither may leak into the other: a class that only
// the light theme colours (github's punctuation, #1f2328) would otherwise
// stay near-black on the dark background.
func CSS() []byte { return css }
