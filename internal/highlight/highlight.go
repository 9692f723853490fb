// Package highlight turns code into HTML with chroma, using CSS classes
// only, so that the page's CSP needs no 'unsafe-inline' for styles, and
// writes the matching light and dark stylesheet.
package highlight

import (
	"bytes"
	"fmt"
	"io"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// Styles used for the light and the dark color scheme.
const (
	LightStyle = "github"
	DarkStyle  = "github-dark"
)

func formatter() *chromahtml.Formatter {
	// No <pre> wrapper: the Markdown renderer writes its own, so that it can
	// carry an id for the copy control. Classes are prefixed to keep them
	// apart from the site's own.
	return chromahtml.New(chromahtml.WithClasses(true), chromahtml.PreventSurroundingPre(true), chromahtml.ClassPrefix("c-"))
}

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
	return formatter().Format(w, styles.Get(LightStyle), it)
}

// CSS returns the stylesheet for highlighted code: the light style by
// default and the dark style under prefers-color-scheme: dark.
func CSS() ([]byte, error) {
	var b bytes.Buffer
	f := formatter()
	if err := f.WriteCSS(&b, styles.Get(LightStyle)); err != nil {
		return nil, err
	}
	b.WriteString("@media (prefers-color-scheme: dark){\n")
	if err := f.WriteCSS(&b, styles.Get(DarkStyle)); err != nil {
		return nil, err
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}
