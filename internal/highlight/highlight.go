// Package highlight turns code into HTML with chroma, using CSS classes
// only, so that the page's CSP needs no 'unsafe-inline' for styles, and
// supplies the matching light and dark stylesheet.
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

// Styles used for the light and the dark color scheme.
const (
	LightStyle = "github"
	DarkStyle  = "github-dark"
)

// WrapperClass is the class chroma's stylesheet scopes every rule to
// (".c-chroma .c-k{...}"). The element around highlighted code must carry
// it, or no token is coloured.
const WrapperClass = "c-chroma"

// Limit is the longest one block may take to highlight. Chroma's lexers
// here have no per-match time limit (see lexers.go), so a rule that
// backtracks without end is caught here, as an error, instead of
// changing the page. A block of this site takes about a millisecond.
var Limit = 5 * time.Second

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
// every bundled theme: 10 ms of a 40 ms one-page build.
var classesOnly = chroma.MustNewStyle("classes", chroma.StyleEntries{})

// css is chroma's stylesheet for LightStyle and DarkStyle, written by
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

// Prepare readies the lexer for lang, in the background: the first block
// in a language waits for its rules to be compiled, by chroma and again
// by the copy, and a build that starts it early does that while it reads
// its templates and pages. Anything wrong with lang is reported when a
// block uses it.
func Prepare(lang string) {
	go func() {
		if l, err := lexer(lang); err == nil {
			if rl, ok := l.(*chroma.RegexLexer); ok {
				rl.Rules() // compiles them, once
			}
		}
	}()
}

// Code writes code as highlighted HTML spans. A lang that Supported
// refuses, or an empty one, is written as escaped plain text; the caller
// decides whether to warn. A block that takes longer than Limit is an
// error, whatever chroma made of it.
func Code(w io.Writer, lang, text string) error { return Start(lang, text)(w) }

// Start begins highlighting text at once, in the background, and returns
// the function that waits for it and writes it as Code does. A page starts
// all its blocks before writing the first, so that they are highlighted
// side by side.
func Start(lang, text string) func(io.Writer) error {
	l, err := lexer(lang)
	if lang == "" || err != nil {
		l, err = lexer("plaintext")
		if err != nil {
			return func(io.Writer) error { return err }
		}
	}
	return start(l, lang, text)
}

// start highlights text with l in the background, within Limit.
func start(l chroma.Lexer, lang, text string) func(io.Writer) error {
	type result struct {
		html bytes.Buffer
		err  error
	}
	began := time.Now()
	done := make(chan *result, 1)
	go func() {
		r := new(result)
		defer func() {
			// Chroma panics on a lexer that fails mid-way; that is
			// this block's error, not the end of the build.
			if p := recover(); p != nil {
				r.err = fmt.Errorf("chroma: %v", p)
			}
			done <- r
		}()
		it, err := chroma.Coalesce(l).Tokenise(nil, text)
		if err == nil {
			err = formatter.Format(&r.html, classesOnly, it)
		}
		r.err = err
	}()
	return func(w io.Writer) error {
		timer := time.NewTimer(Limit - time.Since(began))
		defer timer.Stop()
		select {
		case r := <-done:
			if r.err != nil {
				return fmt.Errorf("highlight %s: %w", lang, r.err)
			}
			// Over the limit is an error even when finished, so that the
			// outcome depends on the time taken alone, not on which of
			// the two channels was ready first.
			if time.Since(began) > Limit {
				return tooSlow(lang)
			}
			_, err := w.Write(r.html.Bytes())
			return err
		case <-timer.C:
			// The match cannot be stopped: it runs on, into a buffer no
			// one reads, until the process ends.
			return tooSlow(lang)
		}
	}
}

func tooSlow(lang string) error {
	return fmt.Errorf("highlighting this %s block took longer than %v: a rule of chroma's lexer is stuck on it; write it with another language, or as text", cmp.Or(lang, "plain"), Limit)
}

// CSS returns the stylesheet for highlighted code, each theme under its own
// prefers-color-scheme. Neither may leak into the other: a class that only
// the light theme colours (github's punctuation, #1f2328) would otherwise
// stay near-black on the dark background.
func CSS() []byte { return css }
