package quote

import (
	"fmt"
	"io"
	"strings"

	"errref/internal/cite"
	"errref/internal/site"
)

// Kinds of Result: what checking a quote found, or moving it.
const (
	OK              = "ok"               // the quote holds where it is cited
	Mismatch        = "MISMATCH"         // it does not
	VersionMismatch = "VERSION MISMATCH" // the copy given is at another version: not checked
	Moved           = "moved"            // the quote is there once, at other lines
	Unchanged       = "unchanged"        // the quote is there once, at the same lines
	Changed         = "changed"          // the quote is not there
	Ambiguous       = "ambiguous"        // it is there more than once, and nothing tells which
	Gone            = "gone"             // the file is not there
	NotOK           = "not ok"           // it does not hold where it is cited, so it was not looked for
	NotHere         = "not here"         // moved or unchanged, but its spec cannot be rewritten
)

// A Result is what became of one citation, checked or moved.
type Result struct {
	Citation site.Citation
	Kind     string
	Why      string // OK, Mismatch, VersionMismatch: the lines and what is wrong; NotOK, NotHere: why
	Version  string // the version it was looked for at

	To cite.Spec // Moved, Unchanged: the same quote at the new version and lines
	// Places hold the quote at the new version; Context lines on each side
	// told the one from the others (0: the quoted lines whole).
	Places, Context int
	Candidates      []int    // Ambiguous: the first cited line at each place
	Nearest         []int    // Changed: the first and last of the lines most like the old ones; nil for none
	Alike           float64  // how alike they are, from 0 to 1
	Around          bool     // Moved, Unchanged: the lines before and after are as they were
	Diff            []string // old cited lines against the nearest or new ones: "-", "+" or " "
}

// held reports whether the quote is at the new version: moved or not.
func (r Result) held() bool { return r.Kind == Moved || r.Kind == Unchanged }

// Report prints r as one line, FILE:LINE, what became of the quote and
// what to do; then any diff, indented. Every command prints citations so.
func (r Result) Report(w io.Writer) {
	c, at := r.Citation, r.Citation.At()
	leave := "or leave it at " + c.Version
	switch r.Kind {
	case OK, Mismatch, VersionMismatch:
		fmt.Fprintf(w, "%s %s: %s\n", r.Kind, at, r.Why)
	case Moved, Unchanged:
		fmt.Fprintf(w, "%s: %s: %s", at, r.Kind, c.Lines())
		if r.Kind == Moved {
			fmt.Fprintf(w, " is %s", cite.Span(r.To.Start, r.To.End))
		}
		fmt.Fprintf(w, " at %s", r.Version)
		switch {
		case r.Places > 1 && r.Context == 0:
			fmt.Fprintf(w, " (the quote is in %d places; told apart by its whole lines)", r.Places)
		case r.Places > 1:
			fmt.Fprintf(w, " (the quote is in %d places; told apart by %s on each side)", r.Places, count(r.Context, "line"))
		}
		switch {
		case len(r.Diff) > 0:
			fmt.Fprint(w, "; the quote holds, but the cited lines changed around it: read them")
		case !r.Around:
			fmt.Fprint(w, "; the line before or after it changed: read it there")
		}
		fmt.Fprintln(w)
	case Changed:
		fmt.Fprintf(w, "%s: changed: %s: %q is not in the file at %s", at, c.Lines(), short(c.Quote), r.Version)
		if r.Nearest != nil {
			fmt.Fprintf(w, "; the nearest is %s (%.0f%% alike)", cite.Span(r.Nearest[0], r.Nearest[1]), 100*r.Alike)
		}
		fmt.Fprintf(w, ": quote the code as it is now and cite its lines by hand, %s\n", leave)
	case Ambiguous:
		fmt.Fprintf(w, "%s: ambiguous: %s: %q is at lines %s of the file at %s, and the lines around them do not tell which one is quoted: cite the right lines by hand, %s\n",
			at, c.Lines(), short(c.Quote), strings.ReplaceAll(strings.Trim(fmt.Sprint(r.Candidates), "[]"), " ", ", "), r.Version, leave)
	case Gone:
		fmt.Fprintf(w, "%s: gone: %s is not in %s at %s: find where the code went and cite it by hand, %s\n", at, c.Path, c.Repo, r.Version, leave)
	case NotOK:
		fmt.Fprintf(w, "%s: not ok at %s, so not moved: %s: fix it there first (-check-sources shows it)\n", at, c.Version, r.Why)
	case NotHere:
		fmt.Fprintf(w, "%s: %s\n", at, r.Why)
	}
	for _, d := range r.Diff {
		fmt.Fprintf(w, "    %s\n", d)
	}
}

func count(n int, what string) string { return fmt.Sprintf("%d %s", n, verb(n, what, what+"s")) }

// verb is one when n is 1, else many.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
