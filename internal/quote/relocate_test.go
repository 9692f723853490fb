package quote

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
)

// TestRelocate moves one citation between two made-up versions of a file,
// one table row per way its quote can fare.
func TestRelocate(t *testing.T) {
	old := []string{
		"def a():",          // 1
		"    emit(\"x\")",   // 2
		"",                  // 3
		"def b():",          // 4
		"    emit(\"x\")",   // 5
		"    done = True",   // 6
		"",                  // 7
		"def c(y):",         // 8
		"    return y  # c", // 9
		"",                  // 10
		"def d():",          // 11
		"    total = 1",     // 12
		"    total += 2",    // 13
		"    return total",  // 14
	}
	for _, tc := range []struct {
		name    string
		spec    string // at v1, of old
		quote   string
		cur     []string
		outcome string
		start   int // Moved, Unchanged: the new first line; Changed: the nearest
		end     int
		places  int
		context int
		cands   []int
		diff    bool
		around  bool
	}{
		{name: "unchanged", spec: "a/b@v1:f.py#4", quote: "def b():", cur: old,
			outcome: Unchanged, start: 4, end: 4, places: 1, around: true},
		{name: "moved", spec: "a/b@v1:f.py#11-14", quote: "def d():\n    total = 1\n    total += 2\n    return total",
			cur:     append([]string{"# new", "# lines"}, old...),
			outcome: Moved, start: 13, end: 16, places: 1, around: true},
		{name: "moved, elided", spec: "a/b@v1:f.py#11-14", quote: "def d(): ... return total",
			cur:     append([]string{"# new"}, old...),
			outcome: Moved, start: 12, end: 15, places: 1, around: true},
		{name: "an elided quote now on fewer lines is changed, not found twice", spec: "a/b@v1:f.py#11-14", quote: "def d(): ... return total",
			cur:     []string{"x = 0", "def d():", "    total = 3", "    return total", "y = 0"},
			outcome: Changed, start: 2, end: 5, diff: true},
		{name: "more lines cited than quoted go with the quote", spec: "a/b@v1:f.py#12-13", quote: "total += 2",
			cur:     append([]string{"# new"}, old...),
			outcome: Moved, start: 13, end: 14, places: 1, around: true},
		{name: "quote holds, line around it changed", spec: "a/b@v1:f.py#9", quote: "return y",
			cur:     replace(old, 9, "    return y"),
			outcome: Unchanged, start: 9, end: 9, places: 1, diff: true, around: true},
		{name: "lines before and after changed", spec: "a/b@v1:f.py#9", quote: "return y",
			cur:     replace(replace(old, 8, "def c2(y):"), 10, "# end"),
			outcome: Unchanged, start: 9, end: 9, places: 1},
		{name: "twice, told apart by its whole line", spec: "a/b@v1:f.py#6", quote: "done",
			cur:     append(slices.Clone(old), "    done = False"),
			outcome: Unchanged, start: 6, end: 6, places: 2, around: true},
		{name: "twice, told apart by the lines around", spec: "a/b@v1:f.py#5", quote: `emit("x")`,
			cur:     append([]string{"# new"}, old...),
			outcome: Moved, start: 6, end: 6, places: 2, context: 1, around: true},
		{name: "changed", spec: "a/b@v1:f.py#9", quote: "return y", cur: replace(old, 9, "    return z  # c"),
			outcome: Changed, start: 9, end: 9, diff: true},
		{name: "a number that grew is changed: 1 is not in 10", spec: "a/b@v1:f.py#12", quote: "total = 1", cur: replace(old, 12, "    total = 10"),
			outcome: Changed, start: 12, end: 12, diff: true},
		{name: "a name that grew is changed", spec: "a/b@v1:f.py#9", quote: "return y", cur: replace(old, 9, "    return y_new  # c"),
			outcome: Changed, start: 9, end: 9, diff: true},
		{name: "changed, nothing alike", spec: "a/b@v1:f.py#9", quote: "return y", cur: []string{"%%%"},
			outcome: Changed},
		{name: "ambiguous: same text, same surroundings", spec: "a/b@v1:f.py#2", quote: `emit("x")`,
			cur:     []string{"def a():", "    emit(\"x\")", "", "def a():", "    emit(\"x\")", ""},
			outcome: Ambiguous, places: 2, cands: []int{2, 5}},
		{name: "ambiguous: neither place as it was", spec: "a/b@v1:f.py#2", quote: `emit("x")`,
			cur:     []string{"def p():", "    emit(\"x\")", "", "def q():", "    emit(\"x\")"},
			outcome: Ambiguous, places: 2, cands: []int{2, 5}},
		{name: "a place where the cited lines would run past the file is none", spec: "a/b@v1:f.py#13-14", quote: "total += 2",
			cur:     []string{"    total += 2"},
			outcome: Changed, start: 1, end: 1, diff: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cited(t, tc.spec, tc.quote)
			if !holds(old[c.Start-1:c.End], parts(c.Quote)) {
				t.Fatalf("bad test: %q is not at %s", c.Quote, tc.spec)
			}
			mv := relocate(c, "v2", old, tc.cur)
			if mv.Kind != tc.outcome {
				t.Fatalf("outcome %s, want %s (%+v)", mv.Kind, tc.outcome, mv)
			}
			switch mv.Kind {
			case Moved, Unchanged:
				want := c.Spec
				want.Version, want.Start, want.End = "v2", tc.start, tc.end
				if mv.To != want {
					t.Errorf("to %s, want %s", mv.To, want)
				}
				if mv.Places != tc.places || mv.Context != tc.context || mv.Around != tc.around {
					t.Errorf("places %d, context %d, around %v; want %d, %d, %v", mv.Places, mv.Context, mv.Around, tc.places, tc.context, tc.around)
				}
			case Changed:
				want := []int{tc.start, tc.end}
				if tc.start == 0 {
					want = nil // none alike
				}
				if !slices.Equal(mv.Nearest, want) || (mv.Nearest == nil) != (want == nil) {
					t.Errorf("nearest %v, want %v", mv.Nearest, want)
				}
			case Ambiguous:
				if !slices.Equal(mv.Candidates, tc.cands) {
					t.Errorf("candidates %v, want %v", mv.Candidates, tc.cands)
				}
			}
			if (len(mv.Diff) > 0) != tc.diff {
				t.Errorf("diff %q, want one: %v", mv.Diff, tc.diff)
			}
		})
	}
}

func replace(lines []string, n int, s string) []string {
	out := slices.Clone(lines)
	out[n-1] = s
	return out
}

// TestRelocateChangedShowsTheDiff: a changed quote is set against the
// nearest lines, line by line.
func TestRelocateChangedShowsTheDiff(t *testing.T) {
	old := []string{"a = 1", "def f(x):", "    x += 1", "    return x", "b = 2"}
	cur := []string{"a = 1", "", "def f(x):", "    x += 2", "    return x", "b = 2"}
	c := cited(t, "a/b@v1:f.py#2-4", "def f(x):\n    x += 1\n    return x")
	mv := relocate(c, "v2", old, cur)
	want := []string{" def f(x):", "-    x += 1", "+    x += 2", "     return x"}
	if mv.Kind != Changed || !slices.Equal(mv.Nearest, []int{3, 5}) || !slices.Equal(mv.Diff, want) {
		t.Errorf("got %s, nearest %v, diff\n%s\nwant changed, 3-5, diff\n%s", mv.Kind, mv.Nearest, strings.Join(mv.Diff, "\n"), strings.Join(want, "\n"))
	}
}

// TestRelocateTwinWithANeighbourChanged: a quote that stayed where it was,
// one line beside it edited, is not moved to a twin elsewhere in the file
// whose lines around it are as the quote's were.
func TestRelocateTwinWithANeighbourChanged(t *testing.T) {
	old := []string{"def a():", "    x = 1", "    emit()", "    y = 2", "", "def b():", "    x = 1", "    emit()", "    y = 2"}
	for _, tc := range []struct {
		line    int // the edited line of old
		to      string
		outcome string
		start   int
	}{
		{2, "    x = 10", Unchanged, 3},
		{4, "    y = 20", Unchanged, 3},
		{1, "def a2():", Ambiguous, 0}, // neither as it was 2 lines off: as before this test
	} {
		mv := relocate(cited(t, "a/b@v1:f.py#3", "emit()"), "v2", old, replace(old, tc.line, tc.to))
		if mv.Kind != tc.outcome || mv.To.Start != tc.start {
			t.Errorf("line %d edited to %q: %s to line %d, want %s at %d", tc.line, tc.to, mv.Kind, mv.To.Start, tc.outcome, tc.start)
		}
	}
}

// TestRelocateCopy reads both versions from folders: a file missing at
// the new one is Gone, and a quote that does not hold where it is cited
// now is not looked for.
func TestRelocateCopy(t *testing.T) {
	v1, err := parseCopy("-check-sources", "acme/lib@v1=testdata/check/v1", false)
	if err != nil {
		t.Fatal(err)
	}
	v2, err := parseCopy("-repin", "acme/lib@v2=testdata/check/v2", true)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ spec, quote, want string }{
		{"acme/lib@v1:src/mod.py#6-8", "raise Boom(\n  \"x\"\n)", "moved acme/lib@v2:src/mod.py#9-11"},
		{"acme/lib@v1:src/dropped.py#1", "def dropped():", "gone"},
		{"acme/lib@v1:src/mod.py#5", "def vanished():", "not ok MISMATCH x.md:3: src/mod.py#5 does not hold \"def vanished():\"; not found anywhere"},
	} {
		r := Relocate(cited(t, tc.spec, tc.quote), v1.tree(), v2.tree())
		got := r.Kind + " " + r.Why
		if r.held() {
			got = r.Kind + " " + r.To.String()
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %s, want %s", tc.spec, got, tc.want)
		}
	}
	if _, err := parseCopy("-repin", "acme/lib=testdata/check/v2", true); err == nil || !strings.Contains(err.Error(), "-repin") {
		t.Errorf("a target without a version: err = %v", err)
	}
}

// mapTree is a version of a repository held in memory, read as a clone
// or any other keeper of versions is: through Tree.ReadFile.
func mapTree(version string, files map[string]string, fail error) Tree {
	return Tree{Version: version, Where: "memory@" + version, ReadFile: func(path string) ([]byte, error) {
		if fail != nil {
			return nil, fail
		}
		data, ok := files[path]
		if !ok {
			return nil, fmt.Errorf("%s: %w", path, fs.ErrNotExist)
		}
		return []byte(data), nil
	}}
}

// TestRelocateTrees moves citations between versions read through
// Tree.ReadFile alone: the quote must hold at the version cited, a file
// the new version lacks is Gone, and a file it cannot read is not ok,
// never Gone.
func TestRelocateTrees(t *testing.T) {
	v1 := mapTree("v1", map[string]string{"f.py": "a = 1\ndef f():\n    return 1\n"}, nil)
	v2 := mapTree("v2", map[string]string{"f.py": "a = 1\n\n\ndef f():\n    return 1\n"}, nil)
	broken := mapTree("v2", nil, errors.New("git cat-file: broken pipe"))
	for _, tc := range []struct {
		name, spec, quote string
		to                Tree
		want              string
	}{
		{"moved", "a/b@v1:f.py#2-3", "def f():\n    return 1", v2, "moved a/b@v2:f.py#4-5"},
		{"no file where cited", "a/b@v1:g.py#1", "x", v2, "not ok MISMATCH x.md:3: g.py#1: no such file in memory@v1"},
		{"file gone at the new version", "a/b@v1:f.py#1", "a = 1", mapTree("v2", nil, nil), "gone "},
		{"not held where cited", "a/b@v1:f.py#1", "a = 2", v2, "not ok MISMATCH x.md:3: f.py#1 does not hold"},
		{"unreadable is not gone", "a/b@v1:f.py#1", "a = 1", broken, "not ok git cat-file: broken pipe"},
	} {
		r := Relocate(cited(t, tc.spec, tc.quote), v1, tc.to)
		got := r.Kind + " " + r.Why
		if r.held() {
			got = r.Kind + " " + r.To.String()
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %s; want %s", tc.name, got, tc.want)
		}
	}
}
