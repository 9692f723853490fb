// Package repin moves a page's citations of a library to a new version of
// it. It finds each quote in its file at that version, says per citation
// whether it moved, stayed, changed, is there more than once or lost its
// file, and rewrites the specs of those that moved or stayed, leaving
// every other byte of the page as it was. Prose that names the old version
// is the author's: it is listed, never changed.
package repin

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"errref/internal/cite"
)

// Options says what to move, and where the page's files are.
type Options struct {
	Root string // the site folder; Files are named relative to it
	// To is OWNER/REPO@NEW=DIR: the version to move to and a copy of it.
	To string
	// From are -check-sources arguments, REPO@VERSION=DIR, naming a copy
	// of each version cited now. Only citations of a version given here
	// are moved: a page that quotes v1 and v2 moves its v1 quotes to v1.30
	// with only v1 given.
	From []string
	// Citations are those the build found, each with At "FILE:LINE"
	// and its quote.
	Citations []cite.Citation
	// Files are the page files as the build read them, by slash path
	// ("content/index.md"). A file on disk that no longer matches is
	// not written.
	Files map[string][]byte
	Write bool // rewrite the files; else print the diff that would be made
	Out   io.Writer
}

// Kinds of result besides cite's outcomes.
const (
	NotOK   = "not ok"   // the quote does not hold where it is cited now
	NotHere = "not here" // the spec is not written where the build said
)

// A Result is what became of one citation at another version.
type Result struct {
	Citation cite.Citation
	File     string // content/index.md
	Line     int    // 0 when the build could not say
	Version  string // the version it was looked for at
	Move     cite.Move
	Kind     string // Move.Outcome, NotOK or NotHere
	Why      string // for NotOK and NotHere
	spec     [2]int // where the spec is written in the file
}

// Relocate looks for c's quote at to's version, from the version c cites
// (from): what -repin would make of it, for a command that moves nothing.
func Relocate(c cite.Citation, from, to cite.Tree) *Result {
	mv, err := cite.Relocate(c, from, to)
	return newResult(c, to.Version, mv, err)
}

func newResult(c cite.Citation, version string, mv cite.Move, err error) *Result {
	r := &Result{Citation: c, Version: version}
	r.File, r.Line = where(c.At)
	if err != nil {
		r.Kind, r.Why = NotOK, err.Error()
	} else {
		r.Move, r.Kind = mv, mv.Outcome
	}
	return r
}

// beforeRename runs just before each file is renamed into place; a test
// changes the file there, as an editor could.
var beforeRename = func(path string) {}

// Run moves the citations and prints, per citation, what became of it; the
// diff it makes (or, without Write, would make); the lines of prose that
// name an old version; and a summary. It reports whether every citation
// it tried moved or stayed. The error is for what stops it, such as a file
// that changed since the build read it.
func Run(o Options) (bool, error) {
	to, err := cite.ParseTarget(o.To)
	if err != nil {
		return false, err
	}
	var from []cite.Copy
	for _, a := range o.From {
		s, err := cite.ParseCopy(a)
		if err != nil {
			return false, err
		}
		from = append(from, s)
	}

	written := find(o.Files)
	var results []*Result
	already := 0
	unsourced := map[string]int{} // version -> citations left at it
	history := map[string]int{}   // version -> citations kept there as history
	olds := map[string]bool{}     // versions moved from
	for _, c := range o.Citations {
		file, line := where(c.At)
		at, there := written.take(file, line, c.Spec())
		if c.Repo != to.Repo {
			continue
		}
		if c.Version == to.Version {
			already++
			continue
		}
		if c.History {
			history[c.Version]++
			continue
		}
		i := slices.IndexFunc(from, func(s cite.Copy) bool { return s.Holds(c) })
		if i < 0 {
			unsourced[c.Version]++
			continue
		}
		olds[c.Version] = true
		mv, err := from[i].Relocate(c, to)
		r := newResult(c, to.Version, mv, err)
		r.spec = at
		if !there && (r.Kind == cite.Moved || r.Kind == cite.Unchanged) {
			// Only a spec that is found can be rewritten; the others are
			// left as they are, and need no place.
			r.Kind, r.Why = NotHere, fmt.Sprintf("cannot find cite:%s written on this line, to rewrite it: write it so (lines without L), then run again", c.Spec())
		}
		results = append(results, r)
	}
	// A misspelt repository or a forgotten -check-sources would otherwise
	// look like a page with nothing to move.
	if len(results) == 0 && already == 0 && len(unsourced) == 0 && len(history) == 0 {
		return false, fmt.Errorf("-repin %s: no page in content/ cites %s", to.Repo, to.Repo)
	}
	if len(results) == 0 && len(unsourced) > 0 {
		var give []string
		for _, v := range slices.Sorted(maps.Keys(unsourced)) {
			give = append(give, fmt.Sprintf("-check-sources %s@%s=DIR", to.Repo, v))
		}
		return false, fmt.Errorf("-repin %s: nothing to move: name the versions to move from, and a copy of each, with %s", to.Repo, strings.Join(give, " or "))
	}
	edited := edit(o.Files, results)
	counts := map[string]int{}
	for _, r := range results {
		counts[r.Kind]++
		r.Report(o.Out)
	}
	for _, name := range slices.Sorted(maps.Keys(edited)) {
		writeDiff(o.Out, name, o.Files[name], edited[name])
	}
	listProse(o.Out, o.Files, written, slices.Sorted(maps.Keys(olds)))

	fmt.Fprintf(o.Out, "%s to %s: %d moved, %d unchanged, %d changed, %d ambiguous, %d gone",
		to.Repo, to.Version, counts[cite.Moved], counts[cite.Unchanged], counts[cite.Changed], counts[cite.Ambiguous], counts[cite.Gone])
	if n := counts[NotOK]; n > 0 {
		fmt.Fprintf(o.Out, ", %d not ok at their version", n)
	}
	if n := counts[NotHere]; n > 0 {
		fmt.Fprintf(o.Out, ", %d not found in the page to rewrite", n)
	}
	if already > 0 {
		fmt.Fprintf(o.Out, "; %d already at %s", already, to.Version)
	}
	for _, v := range slices.Sorted(maps.Keys(unsourced)) {
		fmt.Fprintf(o.Out, "; %d at %s left as they are (no -check-sources %s@%s=DIR)", unsourced[v], v, to.Repo, v)
	}
	for _, v := range slices.Sorted(maps.Keys(history)) {
		fmt.Fprintf(o.Out, "; %d at %s kept there as history", history[v], v)
	}
	fmt.Fprintln(o.Out)
	ok := counts[cite.Moved]+counts[cite.Unchanged] == len(results)

	switch {
	case len(edited) == 0:
		fmt.Fprintln(o.Out, "nothing to write")
	case !o.Write:
		fmt.Fprintln(o.Out, "dry run: nothing written; -write writes the diff above")
	default:
		if err := write(o.Root, o.Files, edited); err != nil {
			return false, err
		}
		for _, name := range slices.Sorted(maps.Keys(edited)) {
			fmt.Fprintf(o.Out, "wrote %s\n", name)
		}
	}
	return ok, nil
}

// where splits a citation's At, "content/index.md:12".
func where(source string) (string, int) {
	file, line, ok := strings.Cut(source, ":")
	if !ok {
		return source, 0
	}
	n, err := strconv.Atoi(line)
	if err != nil || n < 1 {
		return source, 0
	}
	return file, n
}

// specs are the citations written in each page file, by file.
type specs map[string][]*spec

type spec struct {
	line  int
	at    [2]int // bytes of the file
	text  string // as cite.Parse reads it back, "" when it does not
	taken bool   // by a citation the build found
}

func find(files map[string][]byte) specs {
	found := specs{}
	for name, data := range files {
		for _, at := range cite.SpecsIn(data) {
			w := &spec{line: bytes.Count(data[:at[0]], []byte("\n")) + 1, at: at}
			if c, err := cite.Parse(string(data[at[0]:at[1]])); err == nil {
				w.text = c.Spec()
			}
			found[name] = append(found[name], w)
		}
	}
	return found
}

// take finds where a citation the build found on a line is written: the
// first spec on that line that reads the same and no earlier citation took,
// so that two citations of the same lines on one line each find their own.
func (found specs) take(file string, line int, text string) ([2]int, bool) {
	for _, w := range found[file] {
		if !w.taken && w.line == line && w.text == text {
			w.taken = true
			return w.at, true
		}
	}
	return [2]int{}, false
}

// edit returns the files with the specs of the moved and unchanged
// citations rewritten, and every other byte as it was.
func edit(files map[string][]byte, results []*Result) map[string][]byte {
	byFile := map[string][]*Result{}
	for _, r := range results {
		if r.Kind == cite.Moved || r.Kind == cite.Unchanged {
			byFile[r.File] = append(byFile[r.File], r)
		}
	}
	out := map[string][]byte{}
	for name, rs := range byFile {
		slices.SortFunc(rs, func(x, y *Result) int { return x.spec[0] - y.spec[0] })
		data := files[name]
		var b bytes.Buffer
		last := 0
		for _, r := range rs {
			b.Write(data[last:r.spec[0]])
			b.WriteString(r.Move.To.Spec())
			last = r.spec[1]
		}
		b.Write(data[last:])
		out[name] = b.Bytes()
	}
	return out
}

// span names the cited lines of c's file: "src/x.py#3-5".
func span(c cite.Citation) string {
	if c.End == c.Start {
		return fmt.Sprintf("%s#%d", c.Path, c.Start)
	}
	return fmt.Sprintf("%s#%d-%d", c.Path, c.Start, c.End)
}

func lines(start, end int) string {
	if start == end {
		return "line " + strconv.Itoa(start)
	}
	return fmt.Sprintf("lines %d-%d", start, end)
}

// Report prints what became of one citation: FILE:LINE: OUTCOME: ..., and
// for those left as they are, what to do; then any diff, indented.
func (r *Result) Report(w io.Writer) {
	c, mv, version := r.Citation, r.Move, r.Version
	at := r.File
	if r.Line > 0 {
		at += ":" + strconv.Itoa(r.Line)
	}
	leave := fmt.Sprintf("or leave it at %s", c.Version)
	switch r.Kind {
	case cite.Moved, cite.Unchanged:
		fmt.Fprintf(w, "%s: %s: %s", at, r.Kind, span(c))
		if r.Kind == cite.Moved {
			fmt.Fprintf(w, " is %s", lines(mv.To.Start, mv.To.End))
		}
		fmt.Fprintf(w, " at %s", version)
		switch {
		case mv.Places > 1 && mv.Context == 0:
			fmt.Fprintf(w, " (the quote is in %d places; told apart by its whole lines)", mv.Places)
		case mv.Places > 1:
			fmt.Fprintf(w, " (the quote is in %d places; told apart by %s on each side)", mv.Places, count(mv.Context, "line"))
		}
		switch {
		case len(mv.Diff) > 0:
			fmt.Fprint(w, "; the quote holds, but the cited lines changed around it: read them")
		case !mv.Around:
			fmt.Fprint(w, "; the line before or after it changed: read it there")
		}
		fmt.Fprintln(w)
	case cite.Changed:
		fmt.Fprintf(w, "%s: changed: %s: %q is not in the file at %s", at, span(c), short(c.Quote), version)
		if mv.Nearest > 0 {
			fmt.Fprintf(w, "; the nearest is %s (%.0f%% alike)", lines(mv.Nearest, mv.NearestEnd), 100*mv.Alike)
		}
		fmt.Fprintf(w, ": quote the code as it is now and cite its lines by hand, %s\n", leave)
	case cite.Ambiguous:
		var ls []string
		for _, s := range mv.Candidates {
			ls = append(ls, strconv.Itoa(s))
		}
		fmt.Fprintf(w, "%s: ambiguous: %s: %q is at lines %s of the file at %s, and the lines around them do not tell which one is quoted: cite the right lines by hand, %s\n",
			at, span(c), short(c.Quote), strings.Join(ls, ", "), version, leave)
	case cite.Gone:
		fmt.Fprintf(w, "%s: gone: %s is not in %s at %s: find where the code went and cite it by hand, %s\n", at, c.Path, c.Repo, version, leave)
	case NotOK:
		fmt.Fprintf(w, "%s: not ok at %s, so not moved: %s: fix it there first (-check-sources shows it)\n", at, c.Version, r.Why)
	case NotHere:
		fmt.Fprintf(w, "%s: %s, but not rewritten: %s\n", at, mv.Outcome, r.Why)
	}
	for _, d := range mv.Diff {
		fmt.Fprintf(w, "    %s\n", d)
	}
}

func count(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func short(q string) string {
	f := strings.Join(strings.Fields(q), " ")
	if r := []rune(f); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return f
}

// writeDiff prints the change to one file as a unified diff without
// context: a spec never holds a newline, so each line changed is one line
// before and one after.
func writeDiff(w io.Writer, name string, old, cur []byte) {
	ol, cl := strings.Split(string(old), "\n"), strings.Split(string(cur), "\n")
	fmt.Fprintf(w, "--- %s\n+++ %s\n", name, name)
	for i := 0; i < len(ol); {
		if ol[i] == cl[i] {
			i++
			continue
		}
		j := i
		for j < len(ol) && ol[j] != cl[j] {
			j++
		}
		if j-i == 1 {
			fmt.Fprintf(w, "@@ -%d +%d @@\n", i+1, i+1)
		} else {
			fmt.Fprintf(w, "@@ -%d,%d +%d,%d @@\n", i+1, j-i, i+1, j-i)
		}
		for _, l := range ol[i:j] {
			fmt.Fprintf(w, "-%s\n", l)
		}
		for _, l := range cl[i:j] {
			fmt.Fprintf(w, "+%s\n", l)
		}
		i = j
	}
}

// A ProseLine is a line of a page that names a version outside the specs
// of its citations.
type ProseLine struct {
	File string `json:"file"` // content/index.md
	Line int    `json:"line"`
	Text string `json:"text"` // the line, trimmed
}

// Prose finds each line of the files that names one of the versions,
// "v1.29.0" or "1.29.0", outside the specs of cites (the citations the
// build found), for the author to read.
func Prose(files map[string][]byte, cites []cite.Citation, versions []string) []ProseLine {
	written := find(files)
	for _, c := range cites {
		file, line := where(c.At)
		written.take(file, line, c.Spec())
	}
	return proseLines(files, written, versions)
}

// listProse prints the lines of prose that name the versions, under a
// line that says what they are.
func listProse(w io.Writer, files map[string][]byte, written specs, versions []string) {
	PrintProse(w, proseLines(files, written, versions), versions)
}

// PrintProse prints lines found by Prose, under a line that says what
// they are; nothing when there are none.
func PrintProse(w io.Writer, lines []ProseLine, versions []string) {
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "lines naming %s, yours to read (not changed):\n", strings.Join(versions, " or "))
	for _, l := range lines {
		fmt.Fprintf(w, "%s:%d: %s\n", l.File, l.Line, l.Text)
	}
}

// proseLines finds the lines naming the versions, outside the specs of
// citations. A spec the build did not read as a citation, such as one
// shown in a code span, is the author's text and counts.
func proseLines(files map[string][]byte, written specs, versions []string) []ProseLine {
	if len(versions) == 0 {
		return nil
	}
	var res []*regexp.Regexp
	for _, v := range versions {
		// Not inside a longer version: 1.29.0 is not in 11.29.0,
		// 1.29.01 or 1.29.0rc1, and a full stop may follow it.
		v = regexp.QuoteMeta(strings.TrimPrefix(v, "v"))
		res = append(res, regexp.MustCompile(`(?:^|[^0-9A-Za-z.])v?`+v+`(?:$|[^0-9A-Za-z.]|\.(?:$|[^0-9A-Za-z]))`))
	}
	var found []ProseLine
	for _, name := range slices.Sorted(maps.Keys(files)) {
		// Blank out the citations' specs; a spec holds no newline, so
		// the lines stay where they are.
		prose := bytes.Clone(files[name])
		for _, s := range written[name] {
			if s.taken {
				for i := s.at[0]; i < s.at[1]; i++ {
					prose[i] = ' '
				}
			}
		}
		orig := strings.Split(string(files[name]), "\n")
		for i, line := range strings.Split(string(prose), "\n") {
			if slices.ContainsFunc(res, func(re *regexp.Regexp) bool { return re.MatchString(line) }) {
				found = append(found, ProseLine{name, i + 1, strings.TrimSpace(orig[i])})
			}
		}
	}
	return found
}

// write puts each edited file in place of the one read, atomically: a
// temporary file in the same folder, renamed over it. A file that is not
// on disk as the build read it is not written, and nothing is while any
// is not: the edits were made to the text read, and writing them over a
// newer one would lose the author's work.
func write(root string, read, edited map[string][]byte) error {
	names := slices.Sorted(maps.Keys(edited))
	temps := map[string]string{}
	defer func() {
		for _, t := range temps {
			os.Remove(t)
		}
	}()
	for _, name := range names {
		path := filepath.Join(root, filepath.FromSlash(name))
		fi, err := os.Lstat(path)
		if err != nil {
			return fmt.Errorf("%s: %w: nothing written", name, err)
		}
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s: not a regular file (a link?): renaming over it would replace it; edit it by hand: nothing written", name)
		}
		if err := unchanged(path, name, read[name]); err != nil {
			return fmt.Errorf("%w: nothing written", err)
		}
		f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".repin-*")
		if err != nil {
			return fmt.Errorf("%s: %w: nothing written", name, err)
		}
		temps[name] = f.Name()
		_, err = f.Write(edited[name])
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(f.Name(), fi.Mode().Perm())
		}
		if err != nil {
			return fmt.Errorf("%s: %w: nothing written", name, err)
		}
	}
	var done []string
	for _, name := range names {
		path := filepath.Join(root, filepath.FromSlash(name))
		beforeRename(path)
		if err := unchanged(path, name, read[name]); err != nil {
			return fmt.Errorf("%w: %s not written%s", err, name, wrote(done))
		}
		if err := os.Rename(temps[name], path); err != nil {
			return fmt.Errorf("%s: %w: not written%s", name, err, wrote(done))
		}
		delete(temps, name)
		done = append(done, name)
	}
	return nil
}

func wrote(done []string) string {
	if len(done) == 0 {
		return ""
	}
	return "; already written: " + strings.Join(done, ", ")
}

// unchanged reports an error if the file at path is not what was read.
func unchanged(path, name string, read []byte) error {
	now, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if !bytes.Equal(now, read) {
		return fmt.Errorf("%s changed since the build read it: run the command again on the file as it is now", name)
	}
	return nil
}
