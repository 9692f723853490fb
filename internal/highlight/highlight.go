// Package highlight turns code into HTML with chroma, in CSS classes only
// (no 'unsafe-inline' in the CSP), and supplies their stylesheet.
package highlight

import (
	"bytes"
	"cmp"
	_ "embed"
	"fmt"
	"io"
	"time"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
)

// WrapperClass scopes every rule of the stylesheet (".c-chroma .c-k{...}"):
// the element around highlighted code must carry it.
const WrapperClass = "c-chroma"

// Limit is the longest one block may take to highlight: the lexers have no
// per-match limit (lexers.go). A block of this site takes about a millisecond.
var Limit = 5 * time.Second

// The formatter is set up once: it holds no state between calls.
var formatter = chromahtml.New(
	chromahtml.WithClasses(true),
	// The Markdown renderer writes the <pre>; "c-" keeps classes apart from the site's.
	chromahtml.PreventSurroundingPre(true),
	chromahtml.ClassPrefix("c-"),
)

// An empty style: chroma's styles package, never loaded, parses every
// theme in its init, 10 ms of a 40 ms one-page build.
var classesOnly = chroma.MustNewStyle("classes", chroma.StyleEntries{})

// css is chroma's stylesheet for LightStyle and DarkStyle (highlight_test.go), written by
// go test ./internal/highlight -update, which also fails while it is stale.
//
//go:embed chroma.css
var css []byte

// Supported reports why a block in lang would be written as plain text:
// nil when chroma highlights lang. Empty lang is plain text by choice.
func Supported(lang string) error {
	if lang == "" {
		return nil
	}
	_, err := lexer(lang)
	return err
}

// Start highlights text in the background, so that a page's blocks run side
// by side, and returns the function that writes it. A lang Supported refuses,
// or "", is written as plain text; a block over Limit is an error.
func Start(lang, text string) func(io.Writer) error {
	l, err := lexer(lang)
	if lang == "" || err != nil {
		l, _ = lexer("plaintext") // TestLexersAreUntimed holds it a copy ("text")
	}
	return start(l, lang, text)
}

// start highlights text with l in the background, within Limit.
func start(l chroma.Lexer, lang, text string) func(io.Writer) error {
	began := time.Now()
	done := make(chan struct{})
	var html bytes.Buffer
	var failed error
	go func() {
		defer close(done)
		defer func() {
			// Chroma panics on a lexer that fails mid-way: this block's error.
			if p := recover(); p != nil {
				failed = fmt.Errorf("chroma: %v", p)
			}
		}()
		it, err := chroma.Coalesce(l).Tokenise(nil, text)
		if err == nil {
			err = formatter.Format(&html, classesOnly, it)
		}
		failed = err
	}()
	return func(w io.Writer) error {
		select {
		case <-done:
			if failed != nil {
				return fmt.Errorf("highlight %s: %w", lang, failed)
			}
		case <-time.After(Limit - time.Since(began)):
			// The match cannot be stopped: it runs on into a buffer no one reads.
		}
		// Over the limit even when finished: the outcome is the time's alone.
		if time.Since(began) >= Limit {
			return fmt.Errorf("highlighting this %s block took longer than %v: a rule of chroma's lexer is stuck on it; write it with another language, or as text", cmp.Or(lang, "plain"), Limit)
		}
		_, err := w.Write(html.Bytes())
		return err
	}
}

// CSS returns the stylesheet, each theme under its own prefers-color-scheme,
// neither leaking into the other (github's punctuation stays off dark).
func CSS() []byte { return css }
